/**
 * The crash test's stock reconciliation (issue 31, docs/decisions/0020), read from the database once the shop has
 * settled. Every product: each batch's grams left are what its ledger rows add up to, never below zero; grams
 * roasted = grams left + grams the paid orders' lines weigh − corrections − returns; each counted variant's units
 * are its ledger's sum, never below zero, and its corrections and returns less the paid packs. Every paid order of
 * the run had its coffee taken exactly once (its ledger rows weigh what its lines do, its lines name the batches),
 * an unpaid one none, and none was paid after its coffee was gone (the shop is stocked far beyond the load).
 * No reservation outlives its expiry, and each was held for the minutes the shop was told.
 */
import type { DB } from '~/db/database.server';

export type StockReconciliation = { failures: string[]; counts: Record<string, number> };

/** `emailPrefix` names the run's customers; `boughtProductIds` what they bought (it must be kept in stock). */
export async function reconcileStock(
  db: DB,
  { emailPrefix, boughtProductIds, reservationMinutes, now = new Date() }: { emailPrefix: string; boughtProductIds: readonly string[]; reservationMinutes: number; now?: Date },
): Promise<StockReconciliation> {
  const [settings, variants, batches, movements, reservations, orders, lines] = await Promise.all([
    db.selectFrom('stock_settings').select(['product_id', 'mode']).execute(),
    db.selectFrom('stock_variants').select(['variant_id', 'product_id', 'units']).execute(),
    db.selectFrom('roast_batches').select(['id', 'product_id', 'grams_roasted', 'grams_left']).execute(),
    db.selectFrom('stock_movements').select(['product_id', 'variant_id', 'batch_id', 'order_id', 'kind', 'grams', 'units']).execute(),
    db.selectFrom('stock_reservations').select(['order_id', 'status', 'expires_at', 'created_at']).execute(),
    db.selectFrom('orders').select(['id', 'payment_status', 'stock_short_at']).where('user_email', 'like', `${emailPrefix}%`).execute(),
    db
      .selectFrom('order_lines')
      .innerJoin('orders', 'orders.id', 'order_lines.order_id')
      .select(['order_lines.order_id', 'order_lines.product_id', 'order_lines.variant_id', 'order_lines.quantity', 'order_lines.net_weight_grams', 'order_lines.batches'])
      .where('orders.user_email', 'like', `${emailPrefix}%`)
      .where('orders.payment_status', '=', 'succeeded')
      .where('orders.stock_short_at', 'is', null)
      .execute(),
  ]);
  const failures: string[] = [];
  const modeOf = new Map(settings.map((s) => [s.product_id, s.mode]));
  const sum = <T>(rows: readonly T[], of: (row: T) => number | null | undefined) => rows.reduce((total, row) => total + Number(of(row) ?? 0), 0);

  for (const productId of new Set(boughtProductIds)) {
    const mode = modeOf.get(productId);
    if (mode !== 'batches' && mode !== 'units') failures.push(`product ${productId} was bought but its stock is ${mode ?? 'not'} tracked`);
  }

  // What the paid orders took, by their lines (not by the ledger): grams of coffee in batches, packs counted.
  const soldGrams = new Map<string, number>();
  const soldUnits = new Map<string, number>();
  for (const line of lines) {
    const mode = modeOf.get(line.product_id);
    if (mode === 'batches') soldGrams.set(line.product_id, (soldGrams.get(line.product_id) ?? 0) + line.quantity * (line.net_weight_grams ?? 0));
    if (mode === 'units' && line.variant_id) soldUnits.set(line.variant_id, (soldUnits.get(line.variant_id) ?? 0) + line.quantity);
  }

  let roasted = 0;
  let left = 0;
  for (const batch of batches) {
    roasted += batch.grams_roasted;
    left += batch.grams_left;
    if (batch.grams_left < 0) failures.push(`batch ${batch.id} of ${batch.product_id} has ${batch.grams_left} g left`);
    const ledger = sum(movements.filter((m) => m.batch_id === batch.id), (m) => m.grams);
    if (ledger !== batch.grams_left) failures.push(`batch ${batch.id} of ${batch.product_id} has ${batch.grams_left} g left but its ledger adds up to ${ledger} g`);
  }
  for (const [productId, mode] of modeOf) {
    const ledger = movements.filter((m) => m.product_id === productId);
    const by = (kind: string, of: (m: (typeof ledger)[number]) => number | null) => sum(ledger.filter((m) => m.kind === kind), of);
    if (mode === 'batches') {
      const own = batches.filter((b) => b.product_id === productId);
      const [gramsRoasted, gramsLeft, sold] = [sum(own, (b) => b.grams_roasted), sum(own, (b) => b.grams_left), soldGrams.get(productId) ?? 0];
      const corrected = by('corrected', (m) => m.grams);
      const returned = by('returned', (m) => m.grams);
      if (gramsRoasted + corrected + returned - sold !== gramsLeft) {
        failures.push(`${productId}: ${gramsRoasted} g roasted, ${corrected} g corrected, ${returned} g returned and ${sold} g sold to paid orders, but ${gramsLeft} g left`);
      }
      if (sum(ledger, (m) => m.grams) !== gramsLeft) failures.push(`${productId}: ${gramsLeft} g left but its ledger adds up to ${sum(ledger, (m) => m.grams)} g`);
    }
    if (mode === 'units') {
      for (const variant of variants.filter((v) => v.product_id === productId)) {
        const units = variant.units ?? 0;
        const own = ledger.filter((m) => m.variant_id === variant.variant_id);
        const counted = sum(own.filter((m) => m.kind === 'corrected' || m.kind === 'returned'), (m) => m.units);
        const sold = soldUnits.get(variant.variant_id) ?? 0;
        if (units < 0) failures.push(`variant ${variant.variant_id} of ${productId} has ${units} units`);
        if (sum(own, (m) => m.units) !== units) failures.push(`variant ${variant.variant_id} of ${productId} has ${units} units but its ledger adds up to ${sum(own, (m) => m.units)}`);
        if (counted - sold !== units) failures.push(`variant ${variant.variant_id} of ${productId}: ${counted} counted or returned and ${sold} sold to paid orders, but ${units} left`);
      }
    }
  }

  // Each order's coffee is taken once when it is paid, never when it is not.
  const taken = new Map<string, { grams: number; units: number }>();
  for (const m of movements.filter((m) => m.kind === 'sold')) {
    const key = `${m.order_id}/${m.variant_id}`;
    const had = taken.get(key) ?? { grams: 0, units: 0 };
    taken.set(key, { grams: had.grams - (m.grams ?? 0), units: had.units - (m.units ?? 0) });
  }
  const expected = new Map<string, { grams: number; units: number }>();
  for (const line of lines) {
    const mode = modeOf.get(line.product_id);
    if (mode !== 'batches' && mode !== 'units') continue;
    const key = `${line.order_id}/${line.variant_id}`;
    const had = expected.get(key) ?? { grams: 0, units: 0 };
    expected.set(key, mode === 'batches' ? { ...had, grams: had.grams + line.quantity * (line.net_weight_grams ?? 0) } : { ...had, units: had.units + line.quantity });
    if (mode === 'batches') {
      const drawn = sum(JSON.parse(line.batches ?? '[]') as Array<{ grams: number }>, (b) => b.grams);
      if (drawn !== line.quantity * (line.net_weight_grams ?? 0)) failures.push(`paid order ${line.order_id}: its line of ${line.variant_id} names batches of ${drawn} g, not ${line.quantity * (line.net_weight_grams ?? 0)} g`);
    }
  }
  for (const [key, want] of expected) {
    const got = taken.get(key) ?? { grams: 0, units: 0 };
    if (got.grams !== want.grams || got.units !== want.units) failures.push(`paid order ${key.split('/')[0]}: ${want.grams} g / ${want.units} units of ${key.split('/')[1]} ordered, ${got.grams} g / ${got.units} units taken from stock`);
  }
  const paid = new Set(orders.filter((o) => o.payment_status === 'succeeded' && o.stock_short_at === null).map((o) => o.id));
  const takenFor = new Set([...taken.keys()].map((key) => key.split('/')[0]));
  for (const orderId of takenFor) if (!paid.has(orderId)) failures.push(`stock was taken for order ${orderId}, which is not a paid order of the run`);
  const short = orders.filter((o) => o.stock_short_at !== null);
  if (short.length) failures.push(`${short.length} orders were paid after their coffee was gone although the shop was stocked far beyond the load (e.g. ${short[0].id})`);

  // Holds: each for the minutes the shop was told, none left live past its expiry, none live for a paid order.
  const at = now.toISOString();
  const live = reservations.filter((r) => r.status === 'live');
  const overdue = live.filter((r) => r.expires_at <= at);
  if (overdue.length) failures.push(`${overdue.length} reservations are still live after they expired (e.g. order ${overdue[0].order_id}, expired at ${overdue[0].expires_at})`);
  const paidLive = live.filter((r) => paid.has(r.order_id));
  if (paidLive.length) failures.push(`${paidLive.length} reservations of paid orders are still live (e.g. order ${paidLive[0].order_id})`);
  const misheld = reservations.filter((r) => Date.parse(r.expires_at) - Date.parse(r.created_at) !== reservationMinutes * 60_000);
  if (misheld.length) failures.push(`${misheld.length} reservations were not held for ${reservationMinutes} min (e.g. from ${misheld[0].created_at} to ${misheld[0].expires_at})`);

  return {
    failures: failures.length > 12 ? [...failures.slice(0, 12), `… and ${failures.length - 12} more stock failures`] : failures,
    counts: {
      'grams roasted': roasted,
      'grams left': left,
      'grams sold': sum([...soldGrams.values()], (g) => g),
      'grams corrected or returned': sum(movements.filter((m) => m.kind === 'corrected' || m.kind === 'returned'), (m) => m.grams),
      'units sold': sum([...soldUnits.values()], (u) => u),
      'reservations taken': reservations.filter((r) => r.status === 'taken').length,
      'reservations released': reservations.filter((r) => r.status === 'released').length,
      'reservations live': live.length,
    },
  };
}
