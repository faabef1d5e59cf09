/**
 * A request for one's data, by the customer (signed in) or by the owner for someone who asked by mail: rate-limited
 * per account, logged in the activity log, the document built by `exportCustomerData`.
 */
import type { Executor } from '~/db/database.server';
import { type Actor, recordActivity } from '~/modules/activity/index.server';
import { LIMITS, type Limits, recordAttempt } from '~/modules/limits/index.server';
import { SELF } from './deletion.server';
import { type CustomerData, exportCustomerData } from './export.server';

export type DataRequestOutcome = { ok: true; data: CustomerData } | { ok: false; reason: 'rate_limited' | 'not_found' };

/** The signed-in customer's own data: what is linked to the account. */
export async function customerDataRequest(db: Executor, userId: string, limits: Pick<Limits, 'dataExport'> = LIMITS, now = new Date()): Promise<DataRequestOutcome> {
  const user = await db.selectFrom('users').select(['email', 'deleted_at']).where('id', '=', userId).executeTakeFirst();
  if (!user || user.deleted_at) return { ok: false, reason: 'not_found' };
  const rule = limits.dataExport;
  if ((await recordAttempt(db, 'dataExport', [{ key: `user:${userId}`, limit: rule.perAccount }], rule.windowMs, now)).limited) return { ok: false, reason: 'rate_limited' };
  const data = await exportCustomerData(db, { userId, email: user.email, byEmail: false }, now);
  await recordActivity(db, SELF, { action: 'customer.exported', subjectType: 'customer', subjectId: userId, subjectLabel: user.email });
  return { ok: true, data };
}

/**
 * The owner's export for a request by mail: the account (if any) and everything kept under the address, guest
 * orders included — the owner has checked who is asking. Logged with the owner as actor.
 */
export async function ownerDataRequest(db: Executor, owner: Actor, who: { userId: string | null; email: string }, now = new Date()): Promise<DataRequestOutcome> {
  const email = who.email.trim().toLowerCase();
  if (who.userId) {
    const user = await db.selectFrom('users').select(['email', 'deleted_at']).where('id', '=', who.userId).executeTakeFirst();
    if (!user || user.deleted_at || user.email !== email) return { ok: false, reason: 'not_found' };
  }
  const data = await exportCustomerData(db, { userId: who.userId, email, byEmail: true }, now);
  await recordActivity(db, owner, { action: 'customer.exported', subjectType: 'customer', subjectId: who.userId, subjectLabel: email });
  return { ok: true, data };
}
