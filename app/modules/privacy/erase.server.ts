/**
 * Removing a person from the shop (docs/decisions/0029). An order the law keeps loses everything about its
 * customer the law does not need — who, where, how to reach them — and keeps what tax law and the accounts need:
 * its lines, amounts, VAT, dates, the country of delivery and of taxation, its payment and refunds. An invoice is
 * a legal document of its own and stays whole until its retention ends.
 */
import { sql } from 'kysely';
import type { Executor } from '~/db/database.server';

/** Strips the person from orders (any state); returns how many were changed. Idempotent. */
export async function anonymiseOrders(trx: Executor, orderIds: string[], at: string): Promise<number> {
  if (orderIds.length === 0) return 0;
  let changed = 0;
  // In slices: a long customer's history, or the retention job's day, stays within the databases' parameter limits.
  for (let i = 0; i < orderIds.length; i += 500) {
    const ids = orderIds.slice(i, i + 500);
    const result = await trx
      .updateTable('orders')
      .set({
        user_email: '',
        shipping_full_name: '',
        shipping_address: '',
        shipping_city: '',
        shipping_zip_code: '',
        shipping_phone: '',
        delivery_point: null,
        delivery_point_address: null,
        tracking_number: null,
        guest_key: null,
        visitor_id: null,
        invoice_buyer: null,
        payment_client_secret: null,
        anonymised_at: at,
      })
      .where('id', 'in', ids)
      .where('anonymised_at', 'is', null)
      .executeTakeFirst();
    changed += Number(result.numUpdatedRows);
    // The statement of withdrawal is part of the contract's record; who made it is not needed once the order is.
    await trx.updateTable('withdrawals').set({ name: '', email: '', reason: null }).where('order_id', 'in', ids).execute();
    // A code's use still counts against the account; the address it was typed with goes — and so does a guest's
    // key, which is that address ("email:<address>"; an account's is "user:<id>").
    await trx.updateTable('discount_code_uses').set({ email: '' }).where('order_id', 'in', ids).execute();
    await trx.updateTable('discount_code_uses').set({ customer: '' }).where('order_id', 'in', ids).where('customer', 'like', 'email:%').execute();
  }
  return changed;
}

/**
 * Mail to an address: queued or sent, its text is about the person (orders, addresses, links with keys). The
 * deletion's own confirmation is queued after this.
 */
export async function forgetMailTo(trx: Executor, email: string): Promise<number> {
  const result = await trx.deleteFrom('mail_outbox').where(sql<string>`lower(to_address)`, '=', email.trim().toLowerCase()).executeTakeFirst();
  return Number(result.numDeletedRows);
}
