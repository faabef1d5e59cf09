/**
 * The owner's stock work (docs/decisions/0020): how a product's stock is kept, roast batches added, stock
 * corrected with a reason, and what a product has now with its ledger. Every change is a ledger row and an
 * activity entry, in one transaction with the product locked; each says whether what the pages show changed.
 */
import { type Executor, inTransaction } from '~/db/database.server';
import { newId } from '~/db/ids.server';
import { type Actor, recordActivity } from '~/modules/activity/index.server';
import { type CorrectionReason, type ProductStock, type StockMode, MAX_BATCH_GRAMS, MAX_UNITS, isStockMode } from './stock.types';
import { lockProducts, oldestSellableDay, refreshShownStock, stockOf } from './levels.server';
import { movement } from './reservations.server';

export type StockSettings = { mode: StockMode; sellWithinDays: number | null };

export async function getStockSettings(db: Executor, productId: string): Promise<StockSettings> {
  const row = await db.selectFrom('stock_settings').select(['mode', 'sell_within_days']).where('product_id', '=', productId).executeTakeFirst();
  return { mode: row && isStockMode(row.mode) ? row.mode : 'untracked', sellWithinDays: row?.sell_within_days ?? null };
}

type Subject = { productId: string; label: string };

/** Chooses how the product's stock is kept (and how long a batch may be sold). */
export async function setStockMode(db: Executor, actor: Actor, subject: Subject, settings: StockSettings): Promise<{ shownChanged: boolean }> {
  return inTransaction(db, async (trx) => {
    await lockProducts(trx, [subject.productId]);
    const before = await getStockSettings(trx, subject.productId);
    await trx
      .insertInto('stock_settings')
      .values({ product_id: subject.productId, mode: settings.mode, sell_within_days: settings.sellWithinDays, shown: '' })
      .onConflict((oc) => oc.column('product_id').doUpdateSet({ mode: settings.mode, sell_within_days: settings.sellWithinDays }))
      .execute();
    await recordActivity(trx, actor, {
      action: 'stock.mode',
      subjectType: 'product',
      subjectId: subject.productId,
      subjectLabel: subject.label,
      details: { mode: [before.mode, settings.mode], sellWithinDays: [before.sellWithinDays, settings.sellWithinDays] },
    });
    return { shownChanged: (await refreshShownStock(trx, [subject.productId])) || before.mode !== settings.mode };
  });
}

/** Records a roast: its day and the grams roasted, all of them left. */
export async function addBatch(
  db: Executor,
  actor: Actor,
  subject: Subject,
  batch: { roastedOn: string; grams: number; note?: string },
  now = new Date(),
): Promise<{ id: string; shownChanged: boolean }> {
  if (!Number.isInteger(batch.grams) || batch.grams < 1 || batch.grams > MAX_BATCH_GRAMS) throw new RangeError('grams');
  return inTransaction(db, async (trx) => {
    await lockProducts(trx, [subject.productId]);
    const id = newId();
    const at = now.toISOString();
    await trx
      .insertInto('roast_batches')
      .values({ id, product_id: subject.productId, roasted_on: batch.roastedOn, grams_roasted: batch.grams, grams_left: batch.grams, note: batch.note ?? '', created_by: actor.email, created_at: at })
      .execute();
    await movement(trx, { productId: subject.productId, batchId: id, kind: 'roasted', grams: batch.grams, note: batch.note, actor: actor.email, at });
    await recordActivity(trx, actor, { action: 'stock.batch', subjectType: 'product', subjectId: subject.productId, subjectLabel: subject.label, details: { roastedOn: batch.roastedOn, grams: batch.grams } });
    return { id, shownChanged: await refreshShownStock(trx, [subject.productId], now) };
  });
}

export type Correction =
  | { batchId: string; gramsLeft: number; reason: CorrectionReason; note?: string }
  | { variantId: string; units: number; reason: CorrectionReason; note?: string };

/**
 * Sets what is left now, as the owner counted or weighed it (a batch's grams, a variant's units); the ledger
 * keeps the difference and the reason. False when the batch or variant is not the product's.
 */
export async function correctStock(db: Executor, actor: Actor, subject: Subject, correction: Correction, now = new Date()): Promise<{ ok: boolean; shownChanged: boolean }> {
  return inTransaction(db, async (trx) => {
    await lockProducts(trx, [subject.productId]);
    const at = now.toISOString();
    let delta: { grams?: number; units?: number };
    if ('batchId' in correction) {
      if (!Number.isInteger(correction.gramsLeft) || correction.gramsLeft < 0 || correction.gramsLeft > MAX_BATCH_GRAMS) throw new RangeError('grams');
      const batch = await trx.selectFrom('roast_batches').select('grams_left').where('id', '=', correction.batchId).where('product_id', '=', subject.productId).executeTakeFirst();
      if (!batch) return { ok: false, shownChanged: false };
      await trx.updateTable('roast_batches').set({ grams_left: correction.gramsLeft }).where('id', '=', correction.batchId).execute();
      delta = { grams: correction.gramsLeft - batch.grams_left };
      await movement(trx, { productId: subject.productId, batchId: correction.batchId, kind: 'corrected', grams: delta.grams, reason: correction.reason, note: correction.note, actor: actor.email, at });
    } else {
      if (!Number.isInteger(correction.units) || correction.units < 0 || correction.units > MAX_UNITS) throw new RangeError('units');
      const variant = await trx.selectFrom('stock_variants').select('units').where('variant_id', '=', correction.variantId).where('product_id', '=', subject.productId).executeTakeFirst();
      if (!variant) return { ok: false, shownChanged: false };
      await trx.updateTable('stock_variants').set({ units: correction.units }).where('variant_id', '=', correction.variantId).execute();
      delta = { units: correction.units - (variant.units ?? 0) };
      await movement(trx, { productId: subject.productId, variantId: correction.variantId, kind: 'corrected', units: delta.units, reason: correction.reason, note: correction.note, actor: actor.email, at });
    }
    await recordActivity(trx, actor, { action: 'stock.corrected', subjectType: 'product', subjectId: subject.productId, subjectLabel: subject.label, details: { ...delta, reason: correction.reason } });
    return { ok: true, shownChanged: await refreshShownStock(trx, [subject.productId], now) };
  });
}

export type BatchView = { id: string; roastedOn: string; gramsRoasted: number; gramsLeft: number; note: string; sellable: boolean };
export type MovementView = { id: string; kind: string; variantId: string | null; batchId: string | null; orderId: string | null; grams: number | null; units: number | null; reason: string | null; note: string; actor: string | null; at: string };

/** What the owner's stock page shows: the settings, every batch (newest first), each variant's count, live reservations and the ledger's latest rows. */
export async function getStockOverview(db: Executor, productId: string, now = new Date()) {
  const settings = await getStockSettings(db, productId);
  const oldest = oldestSellableDay(settings.sellWithinDays, now);
  const [batches, units, reserved, ledger, stock] = await Promise.all([
    db.selectFrom('roast_batches').select(['id', 'roasted_on', 'grams_roasted', 'grams_left', 'note']).where('product_id', '=', productId).orderBy('roasted_on', 'desc').orderBy('created_at', 'desc').limit(50).execute(),
    db.selectFrom('stock_variants').select(['variant_id', 'units']).where('product_id', '=', productId).execute(),
    db
      .selectFrom('stock_reservations')
      .select((eb) => [eb.fn.countAll<number>().as('orders'), eb.fn.sum<number>('grams').as('grams'), eb.fn.sum<number>('units').as('units')])
      .where('product_id', '=', productId)
      .where('status', '=', 'live')
      .where('expires_at', '>', now.toISOString())
      .executeTakeFirst(),
    db.selectFrom('stock_movements').selectAll().where('product_id', '=', productId).orderBy('created_at', 'desc').orderBy('id').limit(50).execute(),
    stockOf(db, [productId], { now }),
  ]);
  return {
    settings,
    batches: batches.map((b): BatchView => ({ id: b.id, roastedOn: b.roasted_on, gramsRoasted: b.grams_roasted, gramsLeft: b.grams_left, note: b.note, sellable: oldest === null || b.roasted_on >= oldest })),
    units: Object.fromEntries(units.map((u) => [u.variant_id, u.units])) as Record<string, number | null>,
    reserved: { orders: Number(reserved?.orders ?? 0), grams: Number(reserved?.grams ?? 0), units: Number(reserved?.units ?? 0) },
    ledger: ledger.map((m): MovementView => ({ id: m.id, kind: m.kind, variantId: m.variant_id, batchId: m.batch_id, orderId: m.order_id, grams: m.grams, units: m.units, reason: m.reason, note: m.note, actor: m.actor, at: m.created_at })),
    stock: stock.get(productId) ?? ({ mode: 'untracked', variants: {}, roastedOn: null, grams: null, weights: {} } satisfies ProductStock),
  };
}
export type StockOverview = Awaited<ReturnType<typeof getStockOverview>>;
