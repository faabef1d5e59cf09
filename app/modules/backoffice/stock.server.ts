/**
 * The owner's stock page, as one service: the form is read and checked (stock-form.ts), the stock module makes
 * the change with its ledger row and activity entry, and in the same transaction the catalogue's version moves
 * when what the pages show changed (sold out, only N left, the roast day), so every node's page cache follows.
 * A batch that brings a sold-out variant back sends the waiting "notify me" mails.
 */
import type { Logger } from 'pino';
import { type Executor, inTransaction } from '~/db/database.server';
import { SHOP_TIME_ZONE } from '~/lib/format';
import { shopDayOf } from '~/lib/shop-days';
import type { Actor } from '~/modules/activity/index.server';
import { notifyRestocked } from '~/modules/alerts/index.server';
import { bumpStoredCatalogVersion, markCatalogChanged } from '~/modules/catalog/index.server';
import { type StockFormError, addBatch, correctStock, parseStockForm, setStockMode } from '~/modules/stock/index.server';

export type StockServices = { db: Executor; log: Logger; publicUrl: string; kickMail: () => void };

export type StockChangeOutcome =
  | { ok: true; intent: string; notified: number }
  | { ok: false; reason: 'not_found' }
  | { ok: false; reason: 'invalid'; intent: string; errors: Partial<Record<string, StockFormError>> };

export async function changeStock(services: StockServices, actor: Actor, productId: string, fields: Record<string, string>, now = new Date()): Promise<StockChangeOutcome> {
  const { db } = services;
  const product = await db
    .selectFrom('products')
    .innerJoin('product_translations', 'product_translations.product_id', 'products.id')
    .select('product_translations.name')
    .where('products.id', '=', productId)
    .where('product_translations.locale', '=', 'en')
    .executeTakeFirst();
  if (!product) return { ok: false, reason: 'not_found' };
  const parsed = parseStockForm(fields, shopDayOf(now, SHOP_TIME_ZONE));
  if (!parsed.ok) return { ok: false, reason: 'invalid', intent: parsed.intent, errors: parsed.errors };
  const { form } = parsed;
  const subject = { productId, label: product.name };

  const changed = await inTransaction(db, async (trx) => {
    let outcome: { ok: boolean; shownChanged: boolean };
    if (form.intent === 'mode') outcome = { ok: true, ...(await setStockMode(trx, actor, subject, { mode: form.mode, sellWithinDays: form.sellWithinDays })) };
    else if (form.intent === 'batch') outcome = { ok: true, ...(await addBatch(trx, actor, subject, { roastedOn: form.roastedOn, grams: form.grams, note: form.note }, now)) };
    else if (form.intent === 'correct-batch') outcome = await correctStock(trx, actor, subject, { batchId: form.batchId, gramsLeft: form.gramsLeft, reason: form.reason, note: form.note }, now);
    else outcome = await correctStock(trx, actor, subject, { variantId: form.variantId, units: form.units, reason: form.reason, note: form.note }, now);
    if (outcome.shownChanged) await bumpStoredCatalogVersion(trx);
    return outcome;
  });
  if (!changed.ok) return { ok: false, reason: 'invalid', intent: form.intent, errors: { [form.intent === 'correct-batch' ? 'batchId' : 'variantId']: 'notFound' } };
  if (changed.shownChanged) markCatalogChanged();
  // Coffee that came back reaches those who asked for it now, not at the next sweep.
  let notified = 0;
  try {
    notified = await notifyRestocked(db, { publicUrl: services.publicUrl, log: services.log });
    if (notified > 0) services.kickMail();
  } catch (error) {
    services.log.error({ err: error }, 'sending back-in-stock mails failed; the sweep will try again');
  }
  return { ok: true, intent: form.intent, notified };
}
