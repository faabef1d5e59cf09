/**
 * "Notify me when it's back" (docs/decisions/0020): a shopper leaves an email address, with consent, on a sold-out
 * variant; they get a confirmation with an unsubscribe link, and one mail when the variant can be bought again.
 * Requests are rate-limited like the other public forms, and a repeated request for the same address and variant
 * changes nothing (no second confirmation: nobody can use the form to fill someone's inbox). An address is kept
 * only while it is needed: a notice sent is forgotten after 30 days, one never sent after a year.
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { type Executor, inTransaction, now } from '~/db/database.server';
import { newId } from '~/db/ids.server';
import { findVariants, getProductsByIds } from '~/modules/catalog/index.server';
import { choiceQuery, lineName, variantLabel } from '~/modules/catalog/variants';
import { type Locale, getT, isLocale } from '~/modules/i18n/index.server';
import { localePath } from '~/modules/i18n/paths';
import { LIMITS, type Limits, customerScopes, recordAttempt } from '~/modules/limits/index.server';
import { type OutgoingMail, queueMail } from '~/modules/mail/index.server';
import { htmlMail } from '~/modules/mail/plain-mail';
import { nullStorage } from '~/modules/storage/null-storage';
import { stockOf } from '~/modules/stock/index.server';
import { type AlertInput, alertTokenPattern } from './alerts.schema';

export type SubscribeResult = { ok: true } | { ok: false; reason: 'not_found' | 'available' | 'rate_limited' };

/** The variant as a mail names it ("Java Frinsa — 1 kg, espresso") and the link to its choice on its page. */
async function describe(db: Executor, variantId: string, locale: Locale, publicUrl: string) {
  const variant = (await findVariants(db, [variantId])).get(variantId);
  if (!variant?.active) return null;
  const product = (await getProductsByIds(db, nullStorage, [variant.productId], locale)).get(variant.productId);
  if (!product) return null;
  const t = getT(locale);
  const name = lineName(product.name || t('product.unnamed'), variantLabel(variant, product.options, t, locale));
  const query = choiceQuery(variant, product.options);
  const url = new URL(localePath(locale, `/product/${product.id}${query ? `?${query}` : ''}`), publicUrl).toString();
  return { variant, product, name, url };
}

const unsubscribeUrl = (token: string, locale: Locale, publicUrl: string) => new URL(localePath(locale, `/back-in-stock?token=${token}`), publicUrl).toString();

/**
 * Asks for one mail when a sold-out variant is back. Refused for a variant not on sale (or not of `productId`),
 * or one that can be bought now (the shopper is told to add it instead).
 */
export async function subscribeToRestock(
  db: Executor,
  { input, productId, locale, ip, publicUrl, userId = null }: { input: AlertInput; productId?: string; locale: Locale; ip?: string | null; publicUrl: string; userId?: string | null },
  limits: Pick<Limits, 'stockAlert'> = LIMITS,
): Promise<SubscribeResult> {
  const about = await describe(db, input.variantId, locale, publicUrl);
  // Asked on a product's page: the variant must be that product's.
  if (!about || (productId !== undefined && about.product.id !== productId)) return { ok: false, reason: 'not_found' };
  const left = (await stockOf(db, [about.product.id])).get(about.product.id)?.variants[about.variant.id];
  if (left === null || left === undefined || left > 0) return { ok: false, reason: 'available' };
  const rule = limits.stockAlert;
  if ((await recordAttempt(db, 'stockAlert', customerScopes(rule, input.email, ip), rule.windowMs)).limited) return { ok: false, reason: 'rate_limited' };
  const token = randomBytes(24).toString('base64url');
  await inTransaction(db, async (trx) => {
    const existing = await trx.selectFrom('stock_alerts').select(['id', 'notified_at']).where('variant_id', '=', about.variant.id).where('email', '=', input.email).executeTakeFirst();
    if (existing) {
      // Asked again after a notice was sent (it sold out again): one more notice; no new confirmation.
      if (existing.notified_at) await trx.updateTable('stock_alerts').set({ notified_at: null, locale }).where('id', '=', existing.id).execute();
      return;
    }
    await trx.insertInto('stock_alerts').values({ id: newId(), variant_id: about.variant.id, email: input.email, locale, token, created_at: now(), notified_at: null, user_id: userId }).execute();
    await queueMail(trx, confirmationMail(input.email, about.name, about.url, unsubscribeUrl(token, locale, publicUrl), locale));
  });
  return { ok: true };
}

/**
 * Sends the one mail each waiting shopper asked for, for every variant that can be bought again (after a batch,
 * a correction, a return, a hold let go). Safe on every node at once: each notice is marked sent, guarded, in the
 * transaction that queues its mail. Returns how many were queued.
 */
export async function notifyRestocked(db: Executor, { publicUrl, log }: { publicUrl: string; log?: Logger }): Promise<number> {
  const waiting = await db
    .selectFrom('stock_alerts')
    .innerJoin('variants', 'variants.id', 'stock_alerts.variant_id')
    .select(['stock_alerts.id', 'stock_alerts.variant_id', 'stock_alerts.email', 'stock_alerts.locale', 'stock_alerts.token', 'variants.product_id', 'variants.active'])
    .where('stock_alerts.notified_at', 'is', null)
    .limit(500)
    .execute();
  if (waiting.length === 0) return 0;
  const stock = await stockOf(db, waiting.map((w) => w.product_id));
  let queued = 0;
  for (const alert of waiting) {
    const left = stock.get(alert.product_id)?.variants[alert.variant_id];
    // Back on sale and buyable: counted again, or no longer tracked at all.
    if (!alert.active || (left !== null && left !== undefined && left <= 0)) continue;
    const locale: Locale = isLocale(alert.locale) ? alert.locale : 'en';
    const about = await describe(db, alert.variant_id, locale, publicUrl);
    if (!about) continue;
    const sent = await inTransaction(db, async (trx) => {
      const marked = await trx.updateTable('stock_alerts').set({ notified_at: now() }).where('id', '=', alert.id).where('notified_at', 'is', null).executeTakeFirst();
      if (Number(marked.numUpdatedRows) !== 1) return false;
      await queueMail(trx, restockedMail(alert.email, about.name, about.url, unsubscribeUrl(alert.token, locale, publicUrl), locale));
      return true;
    });
    if (sent) queued += 1;
  }
  if (queued > 0) log?.info({ queued }, 'back-in-stock notices queued');
  return queued;
}

/** What an unsubscribe link is about, for its page; null for a token that names no notice (any more). */
export async function findRestockAlert(db: Executor, token: string, locale: Locale, publicUrl: string): Promise<{ name: string; url: string } | null> {
  if (!alertTokenPattern.test(token)) return null;
  const alert = await db.selectFrom('stock_alerts').select('variant_id').where('token', '=', token).executeTakeFirst();
  if (!alert) return null;
  const about = await describe(db, alert.variant_id, locale, publicUrl);
  return about ? { name: about.name, url: about.url } : { name: '', url: '' };
}

/** The unsubscribe link's button: the notice is forgotten, address and all. */
export async function cancelRestockAlert(db: Executor, token: string): Promise<boolean> {
  if (!alertTokenPattern.test(token)) return false;
  const deleted = await db.deleteFrom('stock_alerts').where('token', '=', token).executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}

/** Forgets notices sent more than 30 days ago and those never sent after a year (hourly clean-up). */
export async function pruneRestockAlerts(db: Executor, at = new Date()): Promise<void> {
  const day = 86_400_000;
  await db.deleteFrom('stock_alerts').where('notified_at', '<', new Date(at.getTime() - 30 * day).toISOString()).execute();
  await db.deleteFrom('stock_alerts').where('notified_at', 'is', null).where('created_at', '<', new Date(at.getTime() - 365 * day).toISOString()).execute();
}

function confirmationMail(to: string, name: string, url: string, unsubscribe: string, locale: Locale): OutgoingMail {
  const t = getT(locale);
  const lines = [t('product.notify.mail.hello'), '', t('product.notify.mail.confirmIntro', { name }), url, '', t('product.notify.mail.stop', { url: unsubscribe }), '', t('product.notify.mail.footer'), ''];
  return { to, subject: t('product.notify.mail.confirmSubject', { name }), text: lines.join('\n'), html: htmlMail(locale, lines) };
}

function restockedMail(to: string, name: string, url: string, unsubscribe: string, locale: Locale): OutgoingMail {
  const t = getT(locale);
  const lines = [t('product.notify.mail.hello'), '', t('product.notify.mail.backIntro', { name }), url, '', t('product.notify.mail.once'), t('product.notify.mail.stop', { url: unsubscribe }), '', t('product.notify.mail.footer'), ''];
  return { to, subject: t('product.notify.mail.backSubject', { name }), text: lines.join('\n'), html: htmlMail(locale, lines) };
}
