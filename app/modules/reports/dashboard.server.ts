/**
 * The owner's dashboard: for today, 7 or 30 days in the shop's time zone — revenue, orders, average order
 * value and refunds; the funnel from the consented analytics events; the best-selling products; and a
 * day-by-day series for the chart. Every figure is an exact aggregate of the stored orders, refunds,
 * withdrawals and events (no sampling, no cache), so it matches the order list and the CSV export.
 *
 * The figures count what was kept (kept.server.ts): revenue is what the period's paid orders brought in less
 * what was refunded of them, orders and the average leave out cancelled and fully refunded ones, and best
 * sellers leave out lines withdrawn from. A refund counts against its order's day, not the day it was made,
 * so a day's figures never go below zero and the chart's days add up to the period; an earlier day's figures
 * go down when one of its orders is refunded. Refunds are also shown on their own, by the same rule.
 *
 * Money is counted per currency: the dashboard shows one currency's orders at a time (euros and złoty are never
 * added); the funnel counts visitors, whatever they paid in.
 *
 * Reports read across domains (orders, refunds, withdrawals, analytics) by design: aggregates over several
 * tables are not any one domain's use case, and none of them is written here.
 */
import { sql } from 'kysely';
import type { Executor } from '~/db/database.server';
import type { Locale } from '~/modules/i18n/index.server';
import { getProductsByIds } from '~/modules/catalog/index.server';
import type { Currency } from '~/modules/pricing/index.server';
import type { Storage } from '~/modules/storage/index.server';
import { type Period, periods } from './periods';
import { keptFlag, keptOrder, withdrawnLines } from './kept.server';
import { type ShopDay, shopDayOf, shopDays } from '~/lib/shop-days';


export type DayFigures = { day: ShopDay; revenueCents: number; orders: number };
export type Funnel = { visitors: number; addedToCart: number; beganCheckout: number; purchased: number };
/** A best seller: a variant (or, for lines from before variants, a product), with its name and label as sold. */
export type TopProduct = { key: string; productId: string; name: string; label: string; sku: string | null; revenueCents: number; quantity: number };

export type Dashboard = {
  period: Period;
  /** Every amount, order count and best seller is of the orders paid in this currency. */
  currency: Currency;
  from: ShopDay;
  to: ShopDay;
  /** What the period's paid orders came to, before refunds. */
  paidCents: number;
  /** What was kept of it: paid less refunded. */
  revenueCents: number;
  /** What the period's kept orders paid for delivery (the rest of what they paid was goods). */
  deliveryCents: number;
  /** Paid orders neither cancelled nor refunded in full. */
  orders: number;
  /** Revenue over orders, rounded to the cent; 0 without orders. */
  averageOrderCents: number;
  /** Refunded of the period's paid orders (whenever the refund was made), and how many refunds. */
  refundedCents: number;
  refunds: number;
  funnel: Funnel;
  /** By revenue kept; quantities are units kept. */
  topProducts: TopProduct[];
  /** One entry per day, oldest first: the period's days, and at least the last 7 (so "today" has a chart). */
  days: DayFigures[];
};

const TOP_PRODUCTS = 5;

export async function getDashboard(
  db: Executor,
  storage: Storage,
  { period, timeZone, locale, currency = 'EUR', now = new Date() }: { period: Period; timeZone: string; locale: Locale; currency?: Currency; now?: Date },
): Promise<Dashboard> {
  const today = shopDayOf(now, timeZone);
  const range = shopDays(today, periods[period], timeZone);
  const chart = shopDays(today, Math.max(periods[period], 7), timeZone);
  const paidIn = (start: string, end: string) =>
    db.selectFrom('orders').where('payment_status', '=', 'succeeded').where('currency', '=', currency).where('paid_at', '>=', start).where('paid_at', '<', end);

  const [totals, series, refunds, funnel, top] = await Promise.all([
    paidIn(range.start, range.end)
      .select((eb) => [
        eb.fn.coalesce(eb.fn.sum<number>(keptFlag), eb.lit(0)).as('orders'),
        eb.fn.coalesce(eb.fn.sum<number>('total_cents'), eb.lit(0)).as('paid'),
        eb.fn.coalesce(eb.fn.sum<number>(sql`case when ${keptOrder} then total_cents - refunded_cents else 0 end`), eb.lit(0)).as('revenue'),
        eb.fn.coalesce(eb.fn.sum<number>('refunded_cents'), eb.lit(0)).as('refunded'),
        eb.fn.coalesce(eb.fn.sum<number>(sql`case when ${keptOrder} then delivery_cents else 0 end`), eb.lit(0)).as('delivery'),
      ])
      .executeTakeFirstOrThrow(),
    paidIn(chart.start, chart.end)
      .where(keptOrder)
      .select(['paid_at', sql<number>`total_cents - refunded_cents`.as('kept')])
      .orderBy('paid_at')
      .execute(),
    db
      .selectFrom('refunds')
      .innerJoin('orders', 'orders.id', 'refunds.order_id')
      .where('orders.payment_status', '=', 'succeeded')
      .where('orders.currency', '=', currency)
      .where('orders.paid_at', '>=', range.start)
      .where('orders.paid_at', '<', range.end)
      .where('refunds.status', '<>', 'failed')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    funnelBetween(db, range.start, range.end),
    topProducts(db, range.start, range.end, currency),
  ]);

  // The chart's days: each kept order falls in the day whose start it follows (the rows come sorted).
  const days: DayFigures[] = chart.days.map(({ day }) => ({ day, revenueCents: 0, orders: 0 }));
  let i = 0;
  for (const row of series) {
    while (i + 1 < chart.days.length && row.paid_at! >= chart.days[i + 1].start) i++;
    days[i].revenueCents += Number(row.kept);
    days[i].orders += 1;
  }

  // Products still in the catalogue show their current name in the owner's language; deleted ones the line's.
  const products = await getProductsByIds(db, storage, top.map((r) => r.productId), locale);
  const orders = Number(totals.orders);
  const revenueCents = Number(totals.revenue);
  return {
    period,
    currency,
    from: range.days[0].day,
    to: today,
    paidCents: Number(totals.paid),
    revenueCents,
    deliveryCents: Number(totals.delivery),
    orders,
    averageOrderCents: orders === 0 ? 0 : Math.round(revenueCents / orders),
    refundedCents: Number(totals.refunded),
    refunds: Number(refunds.n),
    funnel,
    topProducts: top.map((r) => ({ ...r, name: products.get(r.productId)?.name || r.name })),
    days,
  };
}

/**
 * The best sellers by revenue kept: the lines of kept orders, less those withdrawn from. Every product sold in
 * the period is summed in the database (at most the catalogue's size) and the few withdrawn lines are taken
 * off here, before ranking.
 */
async function topProducts(db: Executor, start: string, end: string, currency: Currency): Promise<TopProduct[]> {
  const [sold, withdrawn] = await Promise.all([
    db
      .selectFrom('order_lines')
      .innerJoin('orders', 'orders.id', 'order_lines.order_id')
      .where('orders.payment_status', '=', 'succeeded')
      .where('orders.currency', '=', currency)
      .where('orders.paid_at', '>=', start)
      .where('orders.paid_at', '<', end)
      .where(keptOrder)
      .select((eb) => [
        sql<string>`coalesce(order_lines.variant_id, order_lines.product_id)`.as('key'),
        eb.fn.max('order_lines.product_id').as('product_id'),
        eb.fn.max('order_lines.title').as('title'),
        eb.fn.max('order_lines.variant_label').as('label'),
        eb.fn.max('order_lines.sku').as('sku'),
        // What the lines brought in: a code's discount spread over them is not revenue.
        eb.fn.sum<number>(sql`order_lines.unit_price_cents * order_lines.quantity - order_lines.discount_cents`).as('revenue'),
        eb.fn.sum<number>('order_lines.quantity').as('quantity'),
      ])
      .groupBy(sql`coalesce(order_lines.variant_id, order_lines.product_id)`)
      .execute(),
    withdrawnLines(db, start, end, currency),
  ]);
  const products = new Map<string, TopProduct>(
    sold.map((r) => [
      r.key,
      { key: r.key, productId: r.product_id ?? '', name: r.title ?? '', label: r.label ?? '', sku: r.sku ?? null, revenueCents: Number(r.revenue), quantity: Number(r.quantity) },
    ]),
  );
  for (const line of withdrawn) {
    const product = products.get(line.variantId ?? line.productId);
    if (!line.keptOrder || !product) continue;
    product.quantity -= line.quantity;
    product.revenueCents -= line.paidCents;
  }
  return [...products.values()]
    .filter((p) => p.quantity > 0)
    .sort((a, b) => b.revenueCents - a.revenueCents || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .slice(0, TOP_PRODUCTS);
}

/**
 * Visitors (by their consented analytics id) who viewed a page, of those who also added to the cart, of
 * those who also began checkout, of those who also bought — all within the period.
 */
async function funnelBetween(db: Executor, start: string, end: string): Promise<Funnel> {
  const flag = (name: string) => sql<number>`max(case when name = ${name} then 1 else 0 end)`;
  const perVisitor = db
    .selectFrom('analytics_events')
    .where('created_at', '>=', start)
    .where('created_at', '<', end)
    .where('visitor_id', 'is not', null)
    .where('name', 'in', ['page_view', 'add_to_cart', 'begin_checkout', 'purchase'])
    .select([flag('page_view').as('v'), flag('add_to_cart').as('a'), flag('begin_checkout').as('b'), flag('purchase').as('p')])
    .groupBy('visitor_id')
    .as('f');
  const row = await db
    .selectFrom(perVisitor)
    .select([
      sql<number>`coalesce(sum(v), 0)`.as('visitors'),
      sql<number>`coalesce(sum(v * a), 0)`.as('carted'),
      sql<number>`coalesce(sum(v * a * b), 0)`.as('checkout'),
      sql<number>`coalesce(sum(v * a * b * p), 0)`.as('purchased'),
    ])
    .executeTakeFirstOrThrow();
  return { visitors: Number(row.visitors), addedToCart: Number(row.carted), beganCheckout: Number(row.checkout), purchased: Number(row.purchased) };
}
