/**
 * Fair holds (docs/decisions/0031). Going to payment holds an order's coffee so nobody else buys it meanwhile;
 * a hold is a courtesy, not a sale, so no one cart, customer or client address may use it to make a coffee
 * unavailable to others:
 * - at once: one order holds at most 25 kg (a café's 20 kg order fits) or 50 pieces of what has no weight; one
 *   client address at most 3 carts' orders and 30 kg (or 100 pieces) over all of them; and of one coffee one
 *   address holds at most half of what there is — always up to 1 kg or 4 bags, so the last bags can be held;
 * - for how long: a cart, a customer and an address each hold for at most two reservation times in a row
 *   (30 minutes by default), however often they go to payment again; once their holds have ended, they may hold
 *   again after one reservation time more.
 * A hold these refuse is not made, and the order is not refused: it can still be paid while its coffee lasts, and
 * the payment step says why it is not set aside (`HoldRefusal`).
 */
import { sql } from 'kysely';
import type { Executor } from '~/db/database.server';
import type { StockFacts } from './levels.server';
import { stockFrom } from './levels.server';
import { ipScope } from '~/modules/limits/index.server';
import type { HoldRefusal } from './stock.types';

export const HOLD_LIMITS = {
  orderGrams: 25_000,
  orderPieces: 50,
  clientCarts: 3,
  clientGrams: 30_000,
  clientPieces: 100,
  shareFloorGrams: 1_000,
  shareFloorPieces: 4,
  /** A stretch of holding lasts at most this many reservation times… */
  stretchTimes: 2,
  /** …and the next begins once holds have ended for this many. */
  restTimes: 1,
} as const;

/** Whose a hold is: the cart its order was made from, the signed-in customer, the client's address (`ip:…`). */
export type Holder = { cart?: string | null; user?: string | null; client?: string | null };

/** A hold about to be made, as stock counts it. */
export type NewHold = { product_id: string; variant_id: string; grams: number | null; units: number | null };

type Size = { grams: number; pieces: number };

/**
 * Whether `holds` (one order's) may be made now for `holder`, and until when: the reservation's time, cut at the
 * end of the holder's stretch. `facts`: the products' stock as read in this transaction, without this order's
 * own holds. Records the stretch of each of the holder's keys when the hold is allowed.
 */
export async function fairHold(
  trx: Executor,
  { orderId, holder, holds, facts, now, minutes }: { orderId: string; holder: Holder; holds: readonly NewHold[]; facts: StockFacts; now: Date; minutes: number },
): Promise<{ ok: true; until: Date } | { ok: false; refused: HoldRefusal }> {
  const weight = new Map(facts.variants.map((v) => [v.variant_id, v.net_weight_grams]));
  const sizeOf = (h: Pick<NewHold, 'variant_id' | 'grams' | 'units'>): Size => {
    if (h.grams !== null) return { grams: Number(h.grams), pieces: 0 };
    const w = weight.get(h.variant_id);
    return w ? { grams: Number(h.units ?? 0) * w, pieces: 0 } : { grams: 0, pieces: Number(h.units ?? 0) };
  };
  const mine = sum(holds.map(sizeOf));
  if (mine.grams > HOLD_LIMITS.orderGrams || mine.pieces > HOLD_LIMITS.orderPieces) return { ok: false, refused: 'amount' };

  // What the same address holds for its other orders right now.
  const others = holder.client
    ? await trx
        .selectFrom('stock_reservations')
        .select(['order_id', 'holder', 'product_id', 'variant_id', 'grams', 'units'])
        .where('client', '=', holder.client)
        .where('status', '=', 'live')
        .where('expires_at', '>', now.toISOString())
        .where('order_id', '<>', orderId)
        .execute()
    : [];
  const carts = new Set(others.map((o) => o.holder ?? o.order_id));
  if (holder.cart) carts.delete(holder.cart);
  if (carts.size >= HOLD_LIMITS.clientCarts) return { ok: false, refused: 'client' };
  const theirs = sum(others.map(sizeOf));
  if (theirs.grams + mine.grams > HOLD_LIMITS.clientGrams || theirs.pieces + mine.pieces > HOLD_LIMITS.clientPieces) return { ok: false, refused: 'client' };
  if (!withinShare(holds, others, facts, sizeOf)) return { ok: false, refused: 'amount' };

  const until = await stretch(trx, keysOf(holder), now, minutes);
  return until ? { ok: true, until } : { ok: false, refused: 'time' };
}

/** Of each coffee the address holds at most half of what there is (what is free and what it holds), or the floor. */
function withinShare(holds: readonly NewHold[], others: readonly NewHold[], facts: StockFacts, sizeOf: (h: NewHold) => Size): boolean {
  const stock = stockFrom(facts);
  for (const productId of new Set(holds.map((h) => h.product_id))) {
    const product = stock.get(productId);
    if (!product) continue;
    // A product in batches shares one pool of grams; one in units counts each variant apart.
    const groups = product.mode === 'batches' ? [null] : [...new Set(holds.filter((h) => h.product_id === productId).map((h) => h.variant_id))];
    for (const variant of groups) {
      const of = (h: NewHold) => h.product_id === productId && (variant === null || h.variant_id === variant);
      const held = (list: readonly NewHold[]) => (product.mode === 'batches' ? sum(list.filter(of).map(sizeOf)).grams : list.filter(of).reduce((n, h) => n + Number(h.units ?? 0), 0));
      const free = product.mode === 'batches' ? (product.grams ?? 0) : (product.variants[variant!] ?? 0);
      const wanted = held(holds) + held(others);
      const floor = product.mode === 'batches' ? HOLD_LIMITS.shareFloorGrams : HOLD_LIMITS.shareFloorPieces;
      if (wanted > Math.max(floor, (free + held(others)) / 2)) return false;
    }
  }
  return true;
}

/**
 * The client address a hold is counted against (`ip:…`, as the abuse limits count it); none for a loopback address:
 * that is a test on this machine, or a proxy the shop was not told to trust (TRUST_PROXY), behind which every
 * shopper would share one address and hold nothing.
 */
export function holdClient(ip: string | null | undefined): string | null {
  if (!ip || /^(?:127\.|::1$|::ffff:127\.)/i.test(ip.trim())) return null;
  return ipScope(ip);
}

const keysOf = (holder: Holder) =>
  [holder.cart ? `cart:${holder.cart}` : null, holder.user ? `user:${holder.user}` : null, holder.client ?? null].filter((k): k is string => k !== null).sort();

/**
 * Each key's stretch of holding: a new one begins when its holds ended at least a rest ago, otherwise it goes on.
 * The hold lasts the reservation's minutes, cut where the first of the stretches ends; null when one has ended.
 */
async function stretch(trx: Executor, keys: readonly string[], now: Date, minutes: number): Promise<Date | null> {
  const wanted = new Date(now.getTime() + minutes * 60_000);
  if (keys.length === 0) return wanted;
  const at = now.toISOString();
  const rested = new Date(now.getTime() - HOLD_LIMITS.restTimes * minutes * 60_000).toISOString();
  const rows = await trx
    .insertInto('stock_hold_windows')
    .values(keys.map((key) => ({ key, started_at: at, held_until: at })))
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        started_at: sql<string>`case when stock_hold_windows.held_until <= ${rested} then ${at} else stock_hold_windows.started_at end`,
      }),
    )
    .returning('started_at')
    .execute();
  const ends = Math.min(...rows.map((r) => Date.parse(r.started_at) + HOLD_LIMITS.stretchTimes * minutes * 60_000));
  if (ends <= now.getTime()) return null;
  const until = new Date(Math.min(wanted.getTime(), ends));
  await trx.updateTable('stock_hold_windows').set({ held_until: until.toISOString() }).where('key', 'in', keys).where('held_until', '<', until.toISOString()).execute();
  return until;
}

/** The holder paid: their stretches end, so their next checkout holds for the full time again. */
export async function endStretches(trx: Executor, holder: Holder): Promise<void> {
  const keys = keysOf(holder);
  if (keys.length > 0) await trx.deleteFrom('stock_hold_windows').where('key', 'in', keys).execute();
}

/** Stretches that ended long enough ago to begin afresh are forgotten (each node's sweep). */
export async function forgetEndedStretches(db: Executor, now: Date, minutes: number): Promise<void> {
  const rested = new Date(now.getTime() - HOLD_LIMITS.restTimes * minutes * 60_000).toISOString();
  await db.deleteFrom('stock_hold_windows').where('held_until', '<=', rested).execute();
}

const sum = (sizes: readonly Size[]): Size => sizes.reduce((a, b) => ({ grams: a.grams + b.grams, pieces: a.pieces + b.pieces }), { grams: 0, pieces: 0 });
