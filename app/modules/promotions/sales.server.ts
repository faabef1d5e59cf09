/**
 * The owner's sales (docs/decisions/0025): scheduled, ended early or, before they start, deleted — never changed
 * once running, since shoppers were shown them and the price history holds them. Sales on one variant never
 * overlap (a deeper reduction follows the one before it, and keeps its campaign's reference); every change is
 * in the activity log and moves the catalogue version, so every node's pages follow.
 */
import { sql } from 'kysely';
import { type Executor, inTransaction } from '~/db/database.server';
import { newId } from '~/db/ids.server';
import { type Actor, recordActivity } from '~/modules/activity/index.server';
import { bumpStoredCatalogVersion, markCatalogChanged } from '~/modules/catalog/catalog-version.server';
import { type Currency, proposePrice } from '~/modules/pricing/currencies';
import { currencySettings } from '~/modules/pricing/settings.server';
import type { SaleInput, SaleKind, SaleScope } from './sale-form';
import { bumpPromotionsStamp, coveredVariants, recordSaleMoments } from './schedule.server';

export type SaleOutcome = { ok: true; id: string } | { ok: false; error: 'overlap' | 'notLower' | 'targets' | 'notFound' | 'started' | 'ended' };

/** The variants a new sale would cover now. */
async function variantsFor(db: Executor, scope: SaleScope, targets: readonly string[]): Promise<Array<{ id: string; price_cents: number; price_pln: number }>> {
  const query = db.selectFrom('variants').innerJoin('products', 'products.id', 'variants.product_id').select(['variants.id', 'variants.price_cents', 'variants.price_pln']);
  if (scope === 'variants') return query.where('variants.id', 'in', [...targets]).execute();
  if (scope === 'products') return query.where('products.id', 'in', [...targets]).execute();
  return query.where('products.category', 'in', [...targets]).execute();
}

export async function createSale(db: Executor, actor: Actor, input: SaleInput, now = new Date()): Promise<SaleOutcome> {
  const outcome = await inTransaction(db, async (trx): Promise<SaleOutcome> => {
    const covered = await variantsFor(trx, input.scope, input.targets);
    if (covered.length === 0) return { ok: false, error: 'targets' };
    const startsAt = (input.startsAt ?? now).toISOString();
    const endsAt = input.endsAt.toISOString();
    // Sales on the same variant may follow each other, not overlap.
    const others = await trx.selectFrom('sales').select('id').where('ends_at', '>', startsAt).where('starts_at', '<', endsAt).execute();
    if (others.length > 0) {
      const ids = new Set(covered.map((v) => v.id));
      const theirs = await coveredVariants(trx, others.map((o) => o.id));
      if ([...theirs.values()].some((variants) => variants.some((id) => ids.has(id)))) return { ok: false, error: 'overlap' };
    }
    let prices: Record<Currency, number> | null = null;
    if (input.kind === 'price') {
      const [variant] = covered;
      const settings = await currencySettings(trx);
      prices = { EUR: input.priceCents!, PLN: input.pricePln ?? proposePrice(input.priceCents!, settings.rate, settings.rounding) };
      if (prices.EUR >= variant.price_cents || prices.PLN >= variant.price_pln) return { ok: false, error: 'notLower' };
    }
    const id = newId();
    const at = now.toISOString();
    await trx
      .insertInto('sales')
      .values({ id, kind: input.kind, percent: input.percent, price_cents: prices?.EUR ?? null, price_pln: prices?.PLN ?? null, scope: input.scope, starts_at: startsAt, ends_at: endsAt, label_en: input.label.en, label_pl: input.label.pl, created_at: at, updated_at: at })
      .execute();
    await trx.insertInto('sale_targets').values(input.targets.map((target) => ({ sale_id: id, target }))).execute();
    // Every node reads its sales again (and this transaction's own reads below see the new one).
    await bumpPromotionsStamp(trx);
    await recordActivity(trx, actor, {
      action: 'sale.created',
      subjectType: 'sale',
      subjectId: id,
      subjectLabel: saleName(input.kind, input.percent, input.label.en),
      details: { scope: input.scope, targets: input.targets.length, percent: input.percent, prices, startsAt, endsAt, variants: covered.length },
    });
    // A sale starting now is in the history at once (a later one when it starts: each node's sweep).
    if (!input.startsAt) await recordSaleMoments(trx, now);
    await bumpStoredCatalogVersion(trx);
    return { ok: true, id };
  });
  if (outcome.ok) markCatalogChanged();
  return outcome;
}

/** Ends a running sale now (its end joins the history), or deletes one that has not started. */
export async function stopSale(db: Executor, actor: Actor, id: string, now = new Date()): Promise<SaleOutcome> {
  const outcome = await inTransaction(db, async (trx): Promise<SaleOutcome> => {
    const sale = await trx.selectFrom('sales').selectAll().where('id', '=', id).executeTakeFirst();
    if (!sale) return { ok: false, error: 'notFound' };
    const at = now.toISOString();
    if (sale.ends_at <= at) return { ok: false, error: 'ended' };
    const label = saleName(sale.kind === 'price' ? 'price' : 'percent', sale.percent, sale.label_en);
    await bumpPromotionsStamp(trx);
    if (sale.starts_at > at) {
      await trx.deleteFrom('sale_targets').where('sale_id', '=', id).execute();
      await trx.deleteFrom('sales').where('id', '=', id).execute();
      await recordActivity(trx, actor, { action: 'sale.deleted', subjectType: 'sale', subjectId: id, subjectLabel: label, details: { startsAt: sale.starts_at, endsAt: sale.ends_at } });
    } else {
      await trx.updateTable('sales').set({ ends_at: at, updated_at: at }).where('id', '=', id).execute();
      await recordActivity(trx, actor, { action: 'sale.ended', subjectType: 'sale', subjectId: id, subjectLabel: label, details: { endsAt: [sale.ends_at, at] } });
      await recordSaleMoments(trx, now);
    }
    await bumpStoredCatalogVersion(trx);
    return { ok: true, id };
  });
  if (outcome.ok) markCatalogChanged();
  return outcome;
}

/** "−20%", "new price" or the owner's label: how the log names a sale. */
const saleName = (kind: SaleKind, percent: number | null, label: string): string => label || (kind === 'percent' ? `−${percent}%` : 'new price');

export type SaleStatus = 'running' | 'scheduled' | 'ended';
export type SaleListing = {
  id: string;
  kind: SaleKind;
  percent: number | null;
  prices: Record<Currency, number> | null;
  scope: SaleScope;
  targets: string[];
  /** The targets as the owner reads them (product names, "name — label (SKU)", the category key). */
  targetNames: string[];
  startsAt: string;
  endsAt: string;
  label: { en: string; pl: string };
  status: SaleStatus;
  variants: number;
  /** Paid orders with a line it reduced, and what those lines brought in, per currency. */
  orders: number;
  revenue: Record<Currency, number>;
};

/** Every sale, running first, then scheduled, then ended (newest first), with its orders and revenue. */
export async function listSales(db: Executor, names: (scope: SaleScope, targets: string[]) => Promise<Map<string, string>>, now = new Date()): Promise<SaleListing[]> {
  const rows = await db.selectFrom('sales').selectAll().orderBy('starts_at', 'desc').limit(500).execute();
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [targets, covered, sold] = await Promise.all([
    db.selectFrom('sale_targets').select(['sale_id', 'target']).where('sale_id', 'in', ids).execute(),
    coveredVariants(db, ids),
    db
      .selectFrom('order_lines')
      .innerJoin('orders', 'orders.id', 'order_lines.order_id')
      .select((eb) => ['order_lines.sale_id', 'orders.currency', eb.fn.count<number>('order_lines.order_id').distinct().as('orders'), eb.fn.sum<number>(sql<number>`order_lines.unit_price_cents * order_lines.quantity - order_lines.discount_cents`).as('revenue')])
      .where('order_lines.sale_id', 'in', ids)
      .where('orders.payment_status', '=', 'succeeded')
      .groupBy(['order_lines.sale_id', 'orders.currency'])
      .execute(),
  ]);
  const at = now.toISOString();
  const listings = await Promise.all(
    rows.map(async (row): Promise<SaleListing> => {
      const scope = (['products', 'variants', 'category'] as const).find((s) => s === row.scope) ?? 'products';
      const mine = targets.filter((t) => t.sale_id === row.id).map((t) => t.target);
      const named = await names(scope, mine);
      const money = sold.filter((s) => s.sale_id === row.id);
      return {
        id: row.id,
        kind: row.kind === 'price' ? 'price' : 'percent',
        percent: row.percent === null ? null : Number(row.percent),
        prices: row.price_cents === null || row.price_pln === null ? null : { EUR: Number(row.price_cents), PLN: Number(row.price_pln) },
        scope,
        targets: mine,
        targetNames: mine.map((t) => named.get(t) ?? t),
        startsAt: row.starts_at,
        endsAt: row.ends_at,
        label: { en: row.label_en, pl: row.label_pl },
        status: row.ends_at <= at ? 'ended' : row.starts_at > at ? 'scheduled' : 'running',
        variants: covered.get(row.id)?.length ?? 0,
        orders: money.reduce((n, m) => n + Number(m.orders), 0),
        revenue: { EUR: Number(money.find((m) => m.currency === 'EUR')?.revenue ?? 0), PLN: Number(money.find((m) => m.currency === 'PLN')?.revenue ?? 0) },
      };
    }),
  );
  const order: Record<SaleStatus, number> = { running: 0, scheduled: 1, ended: 2 };
  return listings.sort((a, b) => order[a.status] - order[b.status] || (a.status === 'scheduled' ? a.startsAt.localeCompare(b.startsAt) : b.startsAt.localeCompare(a.startsAt)));
}
