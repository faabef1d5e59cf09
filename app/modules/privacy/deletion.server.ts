/**
 * Deleting a customer's account (GDPR art. 17; docs/decisions/0029), by the customer or by the owner for them.
 * One transaction: the account becomes an empty tombstone (its id only, so kept orders and reviews still point
 * somewhere), and its profile, addresses, cart, sessions (every device is signed out), sign-in identities,
 * reset links, back-in-stock requests and messages made while signed in are gone; analytics events and consents
 * are unlinked; reviews are signed "A customer" or removed, as the customer chooses; orders keep only what tax
 * law needs; mail to the address is dropped and a last one confirms the deletion.
 */
import { sql } from 'kysely';
import { type DB, type Executor, databaseKind, inTransaction } from '~/db/database.server';
import { type Actor, recordActivity } from '~/modules/activity/index.server';
import { markCatalogChanged } from '~/modules/catalog/index.server';
import { getT, type Locale } from '~/modules/i18n/index.server';
import { htmlMail } from '~/modules/mail/plain-mail';
import { type OutgoingMail, queueMail } from '~/modules/mail/index.server';
import { forgetReviewAuthor } from '~/modules/reviews/index.server';
import { orderLabel } from '~/modules/orders/orders.types';
import { DEFAULT_RETENTION } from './periods';
import { anonymiseOrders, forgetInActivity, forgetMailTo, forgetSentMailText } from './erase.server';

export type DeleteAccountInput = {
  userId: string;
  /** Keep the reviews signed "A customer" (the default) or remove them. */
  reviews: 'keep' | 'remove';
  /** The confirmation mail's language (when the owner deletes, the customer's last order's, if any). */
  locale: Locale;
  /** RETENTION_TAX_YEARS, said in the confirmation (Kopi's default if not given). */
  taxYears?: number;
  /** The owner acting on a request by mail; absent when the customer deletes their own account. */
  owner?: Actor;
  now?: Date;
};

export type DeleteAccountOutcome =
  | { ok: true; orders: number; reviews: number }
  /** No such account, or it was deleted meanwhile (a second delete in a race). */
  | { ok: false; reason: 'not_found' }
  /** Admins' accounts are not deleted here: another admin takes the role away first (the CLI). */
  | { ok: false; reason: 'admin' }
  /** A paid order is still open: its address is needed until it arrives, is collected or is cancelled. `order`: the first such. */
  | { ok: false; reason: 'open_orders'; order?: OpenOrder };

/** An open order as the refusal names it: its label, and whether it waits to be collected or is still to arrive. */
export type OpenOrder = { label: string; pickup: boolean };

/** An account without a password confirms a deletion by signing in again: its session must be this fresh. */
export const DELETE_REAUTH_MS = 10 * 60_000;

/** The account's label in the back office once deleted: its email is gone. */
export const tombstoneEmail = (userId: string) => `deleted:${userId}`;

export async function deleteAccount(db: DB, input: DeleteAccountInput): Promise<DeleteAccountOutcome> {
  const at = (input.now ?? new Date()).toISOString();
  const outcome = await inTransaction(db, async (trx): Promise<DeleteAccountOutcome> => {
    const user = await lockUser(trx, input.userId);
    if (!user || user.deleted_at !== null) return { ok: false, reason: 'not_found' };
    if (Number(user.is_admin) === 1) return { ok: false, reason: 'admin' };
    const open = await firstOpenOrder(trx, input.userId);
    if (open) return { ok: false, reason: 'open_orders', order: open };
    // The owner has checked who asks: what the same person ordered or wrote as a guest goes too.
    const guestOrders = input.owner ? await guestOrdersOf(trx, user.email) : [];
    if (guestOrders.some(isOpen)) return { ok: false, reason: 'open_orders' };

    // Guarded: of two deletions at once, one finds the account already gone and changes nothing.
    const gone = await trx
      .updateTable('users')
      .set({ email: tombstoneEmail(input.userId), display_name: '', password_hash: null, photo_url: null, disabled: 1, deleted_at: at, updated_at: at })
      .where('id', '=', input.userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (Number(gone.numUpdatedRows) !== 1) return { ok: false, reason: 'not_found' };

    const id = input.userId;
    await trx.deleteFrom('sessions').where('user_id', '=', id).execute();
    await trx.deleteFrom('user_identities').where('user_id', '=', id).execute();
    await trx.deleteFrom('password_reset_tokens').where('user_id', '=', id).execute();
    await trx.deleteFrom('profiles').where('user_id', '=', id).execute();
    await trx.deleteFrom('carts').where('user_id', '=', id).execute();
    await trx.deleteFrom('stock_alerts').where('user_id', '=', id).execute();
    await trx.deleteFrom('contact_messages').where('user_id', '=', id).execute();
    await trx.updateTable('analytics_events').set({ user_id: null }).where('user_id', '=', id).execute();
    await trx.updateTable('consents').set({ user_id: null }).where('user_id', '=', id).execute();
    const reviews = await forgetReviewAuthor(trx, id, { remove: input.reviews === 'remove' });
    const orderIds = (await trx.selectFrom('orders').select('id').where('user_id', '=', id).execute()).map((o) => o.id);
    await trx.updateTable('orders').set({ cart_id: null }).where('user_id', '=', id).execute();
    await anonymiseOrders(trx, orderIds, at, 'deletion');
    // The owner has checked who asks: every mail about the address goes. The customer alone: sent mail's text.
    if (input.owner) {
      await anonymiseOrders(trx, guestOrders.map((o) => o.id), at, 'deletion');
      await forgetKeptUnder(trx, user.email);
      await forgetMailTo(trx, user.email);
      await forgetInActivity(trx, user.email);
    } else await forgetSentMailText(trx, user.email);
    // Earlier entries about this customer (their data downloaded) keep what was done, not to whom.
    await trx.updateTable('activity_log').set({ subject_label: '' }).where('subject_type', '=', 'customer').where('subject_id', '=', id).execute();
    const language = input.owner ? await lastOrderLocale(trx, id, input.locale) : input.locale;
    await queueMail(trx, deletedMail(user.email, language, input.taxYears ?? DEFAULT_RETENTION.taxYears, 'account'));
    await recordActivity(trx, input.owner ?? SELF, {
      action: 'customer.deleted',
      subjectType: 'customer',
      subjectId: id,
      subjectLabel: '',
      details: { orders: orderIds.length, reviews: reviews > 0 ? input.reviews : 'none' },
    });
    return { ok: true, orders: orderIds.length, reviews };
  });
  if (outcome.ok && outcome.reviews > 0) markCatalogChanged();
  return outcome;
}

/** The activity log's actor when customers delete their own account. */
export const SELF: Actor = { id: null, email: 'customer' };

async function lockUser(trx: Executor, userId: string) {
  let query = trx.selectFrom('users').select(['id', 'email', 'is_admin', 'deleted_at']).where('id', '=', userId);
  if (databaseKind(trx) === 'postgres') query = query.forUpdate();
  return query.executeTakeFirst();
}

/** Paid, not cancelled, not yet delivered: the shop still needs to know where it goes. */
export async function hasOpenOrders(db: Executor, userId: string): Promise<boolean> {
  return (await firstOpenOrder(db, userId)) !== null;
}

/** The customer's oldest open order (paid, not cancelled, not yet delivered or collected), or null. */
async function firstOpenOrder(db: Executor, userId: string): Promise<OpenOrder | null> {
  const row = await db
    .selectFrom('orders')
    .select(['id', 'delivery_kind'])
    .where('user_id', '=', userId)
    .where('payment_status', '=', 'succeeded')
    .where('shipping_status', 'in', ['processing', 'shipped'])
    .where(sql<boolean>`refunded_cents < total_cents`)
    .orderBy('created_at')
    .executeTakeFirst();
  return row ? { label: orderLabel(row.id), pickup: row.delivery_kind === 'pickup' } : null;
}

function deletedMail(to: string, locale: Locale, taxYears: number, who: 'account' | 'guest'): OutgoingMail {
  const t = getT(locale);
  const guest = who === 'guest';
  const lines = [t('privacy.mail.deletedGreeting'), t(guest ? 'privacy.mail.erasedBody' : 'privacy.mail.deletedBody'), t('privacy.mail.deletedKept', { years: String(taxYears) }), t('privacy.mail.signature')];
  return { to, subject: t(guest ? 'privacy.mail.erasedSubject' : 'privacy.mail.deletedSubject'), text: lines.join('\n\n'), html: htmlMail(locale, lines) };
}

export type EraseGuestOutcome = { ok: true; orders: number } | { ok: false; reason: 'not_found' | 'open_orders' | 'has_account' };

/**
 * A guest's request by mail to be forgotten, handled by the owner once they have checked who asks: their orders
 * (without an account) keep only what tax law needs, their messages, back-in-stock requests and mail go, and a
 * last mail confirms it. An address with an account is deleted as an account instead.
 */
export async function eraseGuest(db: DB, input: { email: string; owner: Actor; locale: Locale; taxYears?: number; now?: Date }): Promise<EraseGuestOutcome> {
  const email = input.email.trim().toLowerCase();
  const at = (input.now ?? new Date()).toISOString();
  // A whole address only: an empty or partial one would match what other erasures left behind.
  if (!/^[^\s@]{1,64}@[^\s@]{1,255}$/.test(email)) return { ok: false, reason: 'not_found' };
  return inTransaction(db, async (trx): Promise<EraseGuestOutcome> => {
    const account = await trx.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
    if (account) return { ok: false, reason: 'has_account' };
    const orders = await guestOrdersOf(trx, email);
    if (orders.some(isOpen)) return { ok: false, reason: 'open_orders' };
    const kept = await forgetKeptUnder(trx, email);
    // Nothing kept under the address: nothing to confirm either (its mail, if any, goes with its own period).
    if (orders.length === 0 && kept === 0) return { ok: false, reason: 'not_found' };
    await forgetMailTo(trx, email);
    await anonymiseOrders(trx, orders.map((o) => o.id), at, 'deletion');
    const last = orders.length > 0 ? await trx.selectFrom('orders').select('locale').where('id', 'in', orders.map((o) => o.id)).orderBy('created_at', 'desc').executeTakeFirst() : undefined;
    await queueMail(trx, deletedMail(email, last?.locale === 'pl' || last?.locale === 'en' ? last.locale : input.locale, input.taxYears ?? DEFAULT_RETENTION.taxYears, 'guest'));
    await forgetInActivity(trx, email);
    await recordActivity(trx, input.owner, { action: 'customer.deleted', subjectType: 'customer', subjectId: null, subjectLabel: '', details: { orders: orders.length, guest: true } });
    return { ok: true, orders: orders.length };
  });
}

/** Orders placed without an account under an address (any case). */
async function guestOrdersOf(trx: Executor, email: string) {
  return trx
    .selectFrom('orders')
    .select(['id', 'payment_status', 'shipping_status', 'refunded_cents', 'total_cents'])
    .where('user_id', 'is', null)
    .where(sql<string>`lower(user_email)`, '=', email.trim().toLowerCase())
    .execute();
}

const isOpen = (o: { payment_status: string; shipping_status: string; refunded_cents: number; total_cents: number }) =>
  o.payment_status === 'succeeded' && (o.shipping_status === 'processing' || o.shipping_status === 'shipped') && Number(o.refunded_cents) < Number(o.total_cents);

/** Messages and back-in-stock requests kept under an address; how many went. */
async function forgetKeptUnder(trx: Executor, email: string): Promise<number> {
  const address = email.trim().toLowerCase();
  const messages = await trx.deleteFrom('contact_messages').where(sql<string>`lower(email)`, '=', address).executeTakeFirst();
  const alerts = await trx.deleteFrom('stock_alerts').where(sql<string>`lower(email)`, '=', address).executeTakeFirst();
  return Number(messages.numDeletedRows) + Number(alerts.numDeletedRows);
}

/** The language of the customer's last order, else `fallback`. */
async function lastOrderLocale(trx: Executor, userId: string, fallback: Locale): Promise<Locale> {
  const row = await trx.selectFrom('orders').select('locale').where('user_id', '=', userId).orderBy('created_at', 'desc').executeTakeFirst();
  return row?.locale === 'pl' || row?.locale === 'en' ? row.locale : fallback;
}
