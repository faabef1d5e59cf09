/**
 * Never a bag sold twice (docs/decisions/0020). Going to payment reserves an order's grams or units for a while;
 * paying takes them, in the transaction that marks the order paid, by guarded updates that can never take stock
 * below zero; a failed, declined or abandoned payment releases them (expired ones are released by a sweep).
 * Every stock change of a product runs with its row locked (PostgreSQL) or inside SQLite's single writer.
 * Each function says whether what the pages show changed (`shownChanged`): the caller then empties the caches.
 */
import { sql } from 'kysely';
import { type Executor, inTransaction } from '~/db/database.server';
import { newId } from '~/db/ids.server';
import type { HoldRefusal, ProductStock } from './stock.types';
import { type Holder, endStretches, fairHold, forgetEndedStretches } from './holds.server';
import { lockProducts, refreshShownStock, stockFacts, stockFrom, stockOf } from './levels.server';

/**
 * A line of an order as stock sees it. `position` names the order line (for its batches); `netWeightGrams` is the
 * weight the order line keeps (read from the order when a caller does not have it).
 */
export type StockLine = { productId: string; variantId: string; quantity: number; position?: number; netWeightGrams?: number | null };
/** A line that cannot be had in full: how many of its variant are left. */
export type Shortage = { variantId: string; left: number };

export const RESERVATION_MINUTES = 15;

/** A hold that stops being live forgets the client's address it came from. */
const notLive = (status: 'released' | 'taken') => ({ status, client: null });

type Weights = Map<string, number | null>;

function weightsOf(stock: Map<string, ProductStock>): Weights {
  return new Map([...stock.values()].flatMap((product) => Object.entries(product.weights)));
}

/**
 * The weights an order's coffee is held and taken by: each line's own (the weight it was sold at, kept on the order
 * line), so a size the owner changes meanwhile does not change what the order draws; the variant's where a line has none.
 */
async function orderWeights(db: Executor, orderId: string, stock: Map<string, ProductStock>, lines: readonly StockLine[]): Promise<Weights> {
  const weights = weightsOf(stock);
  if (weights.size === 0) return weights;
  const sold = lines.every((l) => l.netWeightGrams !== undefined)
    ? lines.map((l) => ({ variant_id: l.variantId, net_weight_grams: l.netWeightGrams ?? null }))
    : await db.selectFrom('order_lines').select(['variant_id', 'net_weight_grams']).where('order_id', '=', orderId).execute();
  for (const line of sold) if (line.variant_id && line.net_weight_grams && weights.has(line.variant_id)) weights.set(line.variant_id, line.net_weight_grams);
  return weights;
}

/** The lines `stock` cannot serve, the grams of a product pooled across its variants in the lines' order. */
function shortages(lines: readonly StockLine[], stock: Map<string, ProductStock>, weights: Weights): Shortage[] {
  const grams = new Map<string, number>();
  const units = new Map<string, number>();
  const short: Shortage[] = [];
  for (const line of lines) {
    const product = stock.get(line.productId);
    const left = product?.variants[line.variantId];
    if (!product || left === null || left === undefined) continue;
    if (product.mode === 'batches') {
      const weight = weights.get(line.variantId) ?? 0;
      const pool = grams.get(line.productId) ?? product.grams ?? 0;
      const need = line.quantity * weight;
      // A short line takes what there is (the cart caps it so), and the lines after it share the rest.
      const take = Math.min(line.quantity, weight > 0 ? Math.floor(pool / weight) : 0);
      if (take < line.quantity) short.push({ variantId: line.variantId, left: take });
      grams.set(line.productId, pool - take * weight);
    } else {
      const pool = units.get(line.variantId) ?? left;
      const take = Math.min(line.quantity, pool);
      if (take < line.quantity) short.push({ variantId: line.variantId, left: take });
      units.set(line.variantId, pool - take);
    }
  }
  return short;
}

/** Which of `lines` cannot be had now (without reserving anything), for cart `cartId` (its own payment's hold is its own). */
export async function stockShortages(db: Executor, lines: readonly StockLine[], { cartId, now = new Date() }: { cartId?: string | null; now?: Date } = {}): Promise<Shortage[]> {
  const stock = await stockOf(db, lines.map((l) => l.productId), { now, except: cartId ? { cart: cartId } : {} });
  if (stock.size === 0) return [];
  return shortages(lines, stock, weightsOf(stock));
}

/** What reserving answers when every line can be had: held until `until`, or not held and why (nothing to hold: neither). */
export type Reserved = { ok: true; shownChanged: boolean; until: Date | null; refused: HoldRefusal | null };

/**
 * Reserves the order's lines for `minutes` (its earlier reservations are replaced, so going back to payment
 * renews them, within the holder's stretch: holds.server.ts). Refused, reserving nothing, when a line cannot be
 * had. A hold the fair limits refuse is not made, but the order may go on (`refused` says why).
 */
export async function reserveStock(
  trx: Executor,
  orderId: string,
  lines: readonly StockLine[],
  /** `fresh`: the order was made in this transaction, so it holds nothing yet. `holder`: whose hold it is. */
  { now = new Date(), minutes = RESERVATION_MINUTES, fresh = false, holder = {} }: { now?: Date; minutes?: number; fresh?: boolean; holder?: Holder } = {},
): Promise<Reserved | { ok: false; short: Shortage[] }> {
  const productIds = lines.map((l) => l.productId);
  await lockProducts(trx, productIds);
  const letGo = fresh ? [] : await trx.updateTable('stock_reservations').set(notLive('released')).where('order_id', '=', orderId).where('status', '=', 'live').returning('id').execute();
  const facts = await stockFacts(trx, productIds, { now });
  const stock = stockFrom(facts);
  const weights = await orderWeights(trx, orderId, stock, lines);
  const short = shortages(lines, stock, weights);
  if (short.length > 0) return { ok: false, short };
  const rows = lines.flatMap((line) => {
    const product = stock.get(line.productId);
    if (!product || product.variants[line.variantId] === null || product.variants[line.variantId] === undefined) return [];
    const batches = product.mode === 'batches';
    return [
      {
        id: newId(),
        order_id: orderId,
        product_id: line.productId,
        variant_id: line.variantId,
        quantity: line.quantity,
        grams: batches ? line.quantity * (weights.get(line.variantId) ?? 0) : null,
        units: batches ? null : line.quantity,
        status: 'live',
        expires_at: '',
        created_at: now.toISOString(),
        holder: holder.cart ?? null,
        client: holder.client ?? null,
      },
    ];
  });
  if (rows.length === 0) return { ok: true, shownChanged: letGo.length > 0 && (await refreshShownStock(trx, productIds, now, facts)), until: null, refused: null };
  const fair = await fairHold(trx, { orderId, holder, holds: rows, facts, now, minutes });
  if (!fair.ok) return { ok: true, shownChanged: letGo.length > 0 && (await refreshShownStock(trx, productIds, now, facts)), until: null, refused: fair.refused };
  for (const row of rows) row.expires_at = fair.until.toISOString();
  await trx.insertInto('stock_reservations').values(rows).execute();
  // What the pages show now: the same facts with these holds added (no need to read them again).
  return { ok: true, shownChanged: await refreshShownStock(trx, productIds, now, { ...facts, reserved: [...facts.reserved, ...rows] }), until: fair.until, refused: null };
}


/**
 * Whether the order's live holds, not yet expired, cover every line whose stock is kept: then its coffee is still
 * set aside for it (nothing to hold again before charging), and taking it changes nothing shoppers see.
 */
export async function holdsCover(db: Executor, orderId: string, lines: readonly StockLine[], now = new Date()): Promise<boolean> {
  const productIds = [...new Set(lines.map((l) => l.productId))];
  if (productIds.length === 0) return true;
  // Which of them are tracked, and the order's live holds, in one query.
  const { rows } = await sql<{ kind: 't' | 'h'; id: string; quantity: number | string | null }>`
    select 't' as kind, product_id as id, null as quantity from stock_settings where product_id in (${sql.join(productIds)}) and mode <> 'untracked'
    union all
    select 'h', variant_id, quantity from stock_reservations where order_id = ${orderId} and status = 'live' and expires_at > ${now.toISOString()}`.execute(db);
  const tracked = new Set(rows.filter((r) => r.kind === 't').map((r) => r.id));
  const held = rows.filter((r) => r.kind === 'h').map((r) => ({ variant_id: r.id, quantity: Number(r.quantity) }));
  return covers(lines, tracked, held);
}

const covers = (lines: readonly StockLine[], tracked: ReadonlySet<string>, held: readonly { variant_id: string; quantity: number }[]) =>
  lines.filter((l) => tracked.has(l.productId)).every((l) => held.some((h) => h.variant_id === l.variantId && h.quantity === l.quantity));

/** Until when the order's coffee is held for it now; null when nothing is. */
export async function heldUntil(db: Executor, orderId: string, now = new Date()): Promise<Date | null> {
  const row = await db
    .selectFrom('stock_reservations')
    .select((eb) => eb.fn.max('expires_at').as('until'))
    .where('order_id', '=', orderId)
    .where('status', '=', 'live')
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  return row?.until ? new Date(String(row.until)) : null;
}

/** Whether the order's live holds cover its lines of the `tracked` products. */
async function heldFor(db: Executor, orderId: string, lines: readonly StockLine[], tracked: ReadonlySet<string>, now: Date): Promise<boolean> {
  if (!lines.some((l) => tracked.has(l.productId))) return true;
  const held = await db.selectFrom('stock_reservations').select(['variant_id', 'quantity']).where('order_id', '=', orderId).where('status', '=', 'live').where('expires_at', '>', now.toISOString()).execute();
  return covers(lines, tracked, held);
}

/**
 * Takes the order's lines out of stock as it is paid: grams from the oldest sellable batches first (each line
 * keeps the batches it came from), units from the variant's count, every change in the ledger and guarded so
 * stock never goes below zero; the order's reservations are taken. What the order reserved is its own even after
 * it expired, as long as nobody else took it; when a line cannot be had any more, nothing is taken and its
 * reservations are released.
 */
export async function takeStock(
  trx: Executor,
  orderId: string,
  lines: readonly (StockLine & { position: number })[],
  /** `held`: the caller saw in this transaction that the order's live holds cover its lines. `user`: its customer. */
  { now = new Date(), held = false, user = null }: { now?: Date; held?: boolean; user?: string | null } = {},
): Promise<{ ok: true; shownChanged: boolean } | { ok: false; short: Shortage[]; shownChanged: boolean }> {
  const productIds = lines.map((l) => l.productId);
  await lockProducts(trx, productIds);
  const facts = await stockFacts(trx, productIds, { now, except: { order: orderId } });
  const stock = stockFrom(facts);
  // Coffee held for the order until now is already off the pages: taking it changes nothing they show.
  const covered = held || (await heldFor(trx, orderId, lines, new Set(facts.settings.map((s) => s.product_id)), now));
  const weights = await orderWeights(trx, orderId, stock, lines);
  const short = shortages(lines, stock, weights);
  if (short.length > 0) {
    await releaseStock(trx, orderId);
    return { ok: false, short, shownChanged: await refreshShownStock(trx, productIds, now) };
  }
  // The address the holds came from (cleared as they are taken below).
  const heldFrom = (await trx.selectFrom('stock_reservations').select('client').where('order_id', '=', orderId).where('status', '=', 'live').where('client', 'is not', null).executeTakeFirst())?.client ?? null;
  // The sellable batches, oldest first, as the stock above counted them (drawn on below).
  const batches = facts.batches;
  const at = now.toISOString();
  for (const line of lines) {
    const product = stock.get(line.productId);
    if (!product || product.variants[line.variantId] === null || product.variants[line.variantId] === undefined) continue;
    if (product.mode === 'units') {
      const taken = await trx
        .updateTable('stock_variants')
        .set((eb) => ({ units: eb('units', '-', line.quantity) }))
        .where('variant_id', '=', line.variantId)
        .where('units', '>=', line.quantity)
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) !== 1) throw new Error(`stock of ${line.variantId} would go below zero`);
      await movement(trx, { productId: line.productId, variantId: line.variantId, orderId, kind: 'sold', units: -line.quantity, at });
      continue;
    }
    let need = line.quantity * (weights.get(line.variantId) ?? 0);
    const drawn: { batchId: string; roastedOn: string; grams: number }[] = [];
    for (const batch of batches.filter((b) => b.productId === line.productId && b.gramsLeft > 0)) {
      if (need <= 0) break;
      const grams = Math.min(need, batch.gramsLeft);
      const taken = await trx
        .updateTable('roast_batches')
        .set((eb) => ({ grams_left: eb('grams_left', '-', grams) }))
        .where('id', '=', batch.id)
        .where('grams_left', '>=', grams)
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) !== 1) throw new Error(`batch ${batch.id} would go below zero`);
      batch.gramsLeft -= grams;
      need -= grams;
      drawn.push({ batchId: batch.id, roastedOn: batch.roastedOn, grams });
      await movement(trx, { productId: line.productId, variantId: line.variantId, batchId: batch.id, orderId, kind: 'sold', grams: -grams, at });
    }
    if (need > 0) throw new Error(`the batches of ${line.productId} would go below zero`);
    await trx.updateTable('order_lines').set({ batches: JSON.stringify(drawn) }).where('order_id', '=', orderId).where('position', '=', line.position).execute();
  }
  const taken = await trx.updateTable('stock_reservations').set(notLive('taken')).where('order_id', '=', orderId).where('status', '=', 'live').returning(['holder']).execute();
  // A holder who pays was not hoarding: their stretch of holding ends here, and their next checkout holds afresh.
  await endStretches(trx, { cart: taken[0]?.holder ?? null, user, client: heldFrom });
  return { ok: true, shownChanged: covered ? false : await refreshShownStock(trx, productIds, now) };
}

/**
 * A cart's other pending orders give their holds up as it goes to payment again (a changed cart is a new
 * order): one cart holds stock once. True when the pages' stock changed.
 */
export async function releaseCartHolds(trx: Executor, cartId: string, keepOrderId: string, now = new Date()): Promise<boolean> {
  const released = await trx
    .updateTable('stock_reservations')
    .set(notLive('released'))
    .where('status', '=', 'live')
    .where('order_id', '<>', keepOrderId)
    .where('order_id', 'in', (eb) => eb.selectFrom('orders').select('id').where('cart_id', '=', cartId).where('payment_status', '=', 'pending'))
    .returning('product_id')
    .execute();
  return refreshShownStock(trx, released.map((r) => r.product_id), now);
}

/** Releases the order's live reservations (a declined or failed payment); true when the pages' stock changed. */
export async function releaseStock(trx: Executor, orderId: string, now = new Date()): Promise<boolean> {
  const released = await trx.updateTable('stock_reservations').set(notLive('released')).where('order_id', '=', orderId).where('status', '=', 'live').returning('product_id').execute();
  return refreshShownStock(trx, released.map((r) => r.product_id), now);
}

/**
 * Releases every reservation past its time (each node sweeps now and then), and forgets the stretches of holding
 * that ended a rest ago; true when the pages' stock changed.
 */
export async function releaseExpiredReservations(db: Executor, now = new Date(), minutes = RESERVATION_MINUTES): Promise<boolean> {
  await forgetEndedStretches(db, now, minutes);
  return inTransaction(db, async (trx) => {
    const released = await trx
      .updateTable('stock_reservations')
      .set(notLive('released'))
      .where('status', '=', 'live')
      .where('expires_at', '<=', now.toISOString())
      .returning('product_id')
      .execute();
    return refreshShownStock(trx, released.map((r) => r.product_id), now);
  });
}

/**
 * Puts an order's goods back in stock (a cancellation, or a withdrawal whose goods the owner resells): grams to the
 * batches they came from, units to the variant's count, each in the ledger. `lines`: only these lines, and only
 * this many of each (a withdrawal of 2 of 3 bags). What the ledger shows as already returned is not returned
 * again. True when the pages' stock changed.
 */
export async function returnToStock(
  trx: Executor,
  orderId: string,
  { lines: only, actor, now = new Date() }: { lines?: readonly { position: number; quantity: number }[]; actor: string; now?: Date },
): Promise<boolean> {
  const positions = only?.map((l) => l.position);
  const lines = await trx
    .selectFrom('order_lines')
    .select(['position', 'product_id', 'variant_id', 'quantity', 'net_weight_grams'])
    .where('order_id', '=', orderId)
    .$if(positions !== undefined, (qb) => qb.where('position', 'in', positions!.length ? positions! : [-1]))
    .execute();
  const at = now.toISOString();
  const productIds = lines.map((l) => l.product_id);
  await lockProducts(trx, productIds);
  // What is still out of stock for each line: sold less already returned, from the ledger.
  const moved = await trx.selectFrom('stock_movements').select(['variant_id', 'batch_id', 'kind', 'grams', 'units', 'created_at']).where('order_id', '=', orderId).orderBy('created_at').execute();
  for (const line of lines) {
    if (!line.variant_id) continue;
    const quantity = Math.min(line.quantity, only?.find((l) => l.position === line.position)?.quantity ?? line.quantity);
    if (quantity <= 0) continue;
    const ofLine = moved.filter((m) => m.variant_id === line.variant_id);
    const outUnits = -ofLine.reduce((sum, m) => sum + (m.units ?? 0), 0);
    const units = Math.min(outUnits, quantity);
    if (units > 0) {
      await trx.updateTable('stock_variants').set((eb) => ({ units: eb('units', '+', units) })).where('variant_id', '=', line.variant_id).execute();
      await movement(trx, { productId: line.product_id, variantId: line.variant_id, orderId, kind: 'returned', units, actor, at });
    }
    const byBatch = new Map<string, number>();
    for (const m of ofLine) if (m.batch_id && m.grams) byBatch.set(m.batch_id, (byBatch.get(m.batch_id) ?? 0) - m.grams);
    let grams = line.net_weight_grams ? quantity * line.net_weight_grams : Infinity;
    for (const [batchId, out] of byBatch) {
      const back = Math.min(out, grams);
      if (back <= 0) continue;
      grams -= back;
      await trx.updateTable('roast_batches').set((eb) => ({ grams_left: eb('grams_left', '+', back) })).where('id', '=', batchId).execute();
      await movement(trx, { productId: line.product_id, variantId: line.variant_id, batchId, orderId, kind: 'returned', grams: back, actor, at });
    }
  }
  return refreshShownStock(trx, productIds, now);
}

/** Whether the ledger shows goods of this order still out of stock: sold to it and not returned yet. */
export async function orderStockOut(db: Executor, orderId: string): Promise<boolean> {
  const row = await db
    .selectFrom('stock_movements')
    .select((eb) => [eb.fn.coalesce(eb.fn.sum<number>('grams'), eb.lit(0)).as('grams'), eb.fn.coalesce(eb.fn.sum<number>('units'), eb.lit(0)).as('units')])
    .where('order_id', '=', orderId)
    .where('kind', 'in', ['sold', 'returned'])
    .executeTakeFirst();
  return Number(row?.grams ?? 0) < 0 || Number(row?.units ?? 0) < 0;
}

/** One row of the ledger. */
export async function movement(
  trx: Executor,
  m: { productId: string; variantId?: string | null; batchId?: string | null; orderId?: string | null; kind: 'roasted' | 'sold' | 'returned' | 'corrected'; grams?: number | null; units?: number | null; reason?: string | null; note?: string; actor?: string | null; at: string },
): Promise<void> {
  await trx
    .insertInto('stock_movements')
    .values({
      id: newId(),
      product_id: m.productId,
      variant_id: m.variantId ?? null,
      batch_id: m.batchId ?? null,
      order_id: m.orderId ?? null,
      kind: m.kind,
      grams: m.grams ?? null,
      units: m.units ?? null,
      reason: m.reason ?? null,
      note: m.note ?? '',
      actor: m.actor ?? null,
      created_at: m.at,
    })
    .execute();
}
