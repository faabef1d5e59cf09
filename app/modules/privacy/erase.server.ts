/**
 * Removing a person from the shop (docs/decisions/0029). An order the law keeps loses everything about its
 * customer the law does not need — who, where, how to reach them — and keeps what tax law and the accounts need:
 * its lines, amounts, VAT, dates, the country of delivery and of taxation, its payment and refunds. An invoice is
 * a legal document of its own and stays whole until its retention ends.
 */
import { type ExpressionBuilder, sql } from 'kysely';
import type { Executor } from '~/db/database.server';
import type { Database } from '~/db/schema';
import { escapeLike } from '~/db/search.server';

/** Why an order lost its customer: they (or the owner for them) asked, or its retention period ended. */
export type AnonymisedBy = 'deletion' | 'retention';

/** Strips the person from orders (any state); returns how many were changed. Idempotent. */
export async function anonymiseOrders(trx: Executor, orderIds: string[], at: string, by: AnonymisedBy): Promise<number> {
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
        anonymised_by: by,
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
    await forgetParcelsInActivity(trx, ids);
  }
  return changed;
}

/** What in an order's activity entries leads to the person through the carrier: its tracking number and InPost shipment. */
const PARCEL_KEYS = ['trackingNumber', 'shipmentId'] as const;

/**
 * The owner's log keeps that an order was shipped, by which carrier and in what size, not the numbers with which
 * InPost (or anyone holding them) finds the parcel's receiver, address and phone.
 */
async function forgetParcelsInActivity(trx: Executor, orderIds: string[]): Promise<void> {
  const entries = await trx
    .selectFrom('activity_log')
    .select(['id', 'details'])
    .where('subject_type', '=', 'order')
    .where('subject_id', 'in', orderIds)
    .where((eb) => eb.or(PARCEL_KEYS.map((key) => eb('details', 'like', `%"${key}"%`))))
    .execute();
  for (const entry of entries) {
    const details = JSON.parse(entry.details) as Record<string, unknown>;
    if (!PARCEL_KEYS.some((key) => key in details)) continue;
    for (const key of PARCEL_KEYS) delete details[key];
    await trx.updateTable('activity_log').set({ details: JSON.stringify(details) }).where('id', '=', entry.id).execute();
  }
}

const about = (email: string) => (eb: ExpressionBuilder<Database, 'mail_outbox'>) => {
  const address = email.trim().toLowerCase();
  // To the person, or the shop's own notice of their order or message (which answers to them).
  return eb.or([eb(sql<string>`lower(to_address)`, '=', address), eb(sql<string>`lower(reply_to)`, '=', address)]);
};

/**
 * Mail about an address, queued or sent: its text is about the person (orders, addresses, links with keys). Only
 * where the owner has checked who asks: sign-up does not prove an address, and whoever opened an account with
 * someone else's must not cancel that person's mail. The deletion's own confirmation is queued after this.
 */
export async function forgetMailTo(trx: Executor, email: string): Promise<number> {
  const result = await trx.deleteFrom('mail_outbox').where(about(email)).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * A customer deleting their own account: the text of mail already sent about their address goes (what was
 * delivered stays delivered); mail still queued is left to go out, as it may be someone else's under that address.
 */
export async function forgetSentMailText(trx: Executor, email: string): Promise<number> {
  const result = await trx
    .updateTable('mail_outbox')
    .set({ text_body: '', html_body: null, attachments: null })
    .where('status', '=', 'sent')
    .where(about(email))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

const likePattern = (text: string) => `%${escapeLike(text)}%`;

/**
 * The owner's activity log keeps what was done, not to whom: an address in an entry's label or details (a deleted
 * message's sender, a data request) becomes "…". Only where the owner has checked who asks.
 */
export async function forgetInActivity(trx: Executor, email: string): Promise<number> {
  const address = email.trim().toLowerCase();
  if (!address) return 0;
  const pattern = likePattern(address);
  const rows = await trx
    .selectFrom('activity_log')
    .select(['id', 'subject_label', 'details'])
    .where((eb) => eb.or([eb(sql<string>`lower(subject_label)`, 'like', sql<string>`${pattern} escape '\\'`), eb(sql<string>`lower(details)`, 'like', sql<string>`${pattern} escape '\\'`)]))
    .execute();
  const scrub = (text: string) => text.replace(new RegExp(address.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), '…');
  for (const row of rows) {
    await trx.updateTable('activity_log').set({ subject_label: row.subject_label.trim().toLowerCase() === address ? '' : scrub(row.subject_label), details: scrub(row.details) }).where('id', '=', row.id).execute();
  }
  return rows.length;
}
