/**
 * A guest's order becomes a customer's (docs/decisions/0022): from the order's private page, one click.
 *
 * - Nobody has an account with the order's email: an account is made for it and the order joins it. Nobody is
 *   signed in: whoever checked out typed that email (the checkout's last page links to the order too), so only
 *   the mail to it, which carries a link to set the first password, opens the account.
 * - The email has an account: the visitor signs in to it first; signed in with that email, the order joins it.
 *   Signed in with another one, it does not (an order goes only to its own email's account).
 *
 * Once an order has joined an account its key is gone: the private link stops working, My Orders shows it.
 */
import { type Executor, inTransaction } from '~/db/database.server';
import { isUniqueViolation } from '~/db/errors.server';
import { normalizeEmail } from './secrets.server';
import { findUserId, insertUser } from './users.server';

export type ClaimOutcome =
  | { ok: true; userId: string; email: string; created: boolean }
  | { ok: false; reason: 'not_found' | 'account_exists' | 'other_account' };

export async function claimGuestOrder(db: Executor, input: { orderId: string; key: string; signedIn: { id: string; email: string } | null }): Promise<ClaimOutcome> {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(input.orderId) || !/^[A-Za-z0-9_-]{16,64}$/.test(input.key)) return { ok: false, reason: 'not_found' };
  const order = await db
    .selectFrom('orders')
    .select(['id', 'user_email', 'shipping_full_name'])
    .where('id', '=', input.orderId)
    .where('user_id', 'is', null)
    .where('guest_key', '=', input.key)
    .where('payment_status', '=', 'succeeded')
    .executeTakeFirst();
  if (!order) return { ok: false, reason: 'not_found' };
  const email = normalizeEmail(order.user_email);

  const join = async (trx: Executor, userId: string) => {
    const joined = await trx.updateTable('orders').set({ user_id: userId, guest_key: null }).where('id', '=', order.id).where('user_id', 'is', null).executeTakeFirst();
    return Number(joined.numUpdatedRows) === 1;
  };

  if (input.signedIn) {
    if (normalizeEmail(input.signedIn.email) !== email) return { ok: false, reason: 'other_account' };
    return (await join(db, input.signedIn.id)) ? { ok: true, userId: input.signedIn.id, email, created: false } : { ok: false, reason: 'not_found' };
  }
  if (await findUserId(db, email)) return { ok: false, reason: 'account_exists' };
  try {
    return await inTransaction(db, async (trx) => {
      const userId = await insertUser(trx, { email, displayName: order.shipping_full_name.trim(), passwordHash: null });
      if (!(await join(trx, userId))) throw new OrderTaken();
      return { ok: true, userId, email, created: true } as const;
    });
  } catch (error) {
    if (error instanceof OrderTaken) return { ok: false, reason: 'not_found' };
    if (isUniqueViolation(error)) return { ok: false, reason: 'account_exists' };
    throw error;
  }
}

/** A second click got there first: the order has joined an account already. */
class OrderTaken extends Error {}
