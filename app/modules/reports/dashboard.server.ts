/**
 * The owner's dashboard: for today, 7 or 30 days in the shop's time zone — revenue, paid orders, average
 * order value and refunds; the funnel from the consented analytics events; the best-selling products; and a
 * day-by-day series for the chart. Every figure is an exact aggregate of the stored orders, refunds and
 * events (no sampling, no cache), so it matches the order list and the CSV export.
 *
 * Reports read across domains (orders, refunds, analytics) by design: aggregates over several tables are
 * not any one domain's use case, and none of them is written here.
 */
import { sql } from 'kysely';
import type { Executor } from '~/db/database.server';
import type { Locale } from '~/modules/i18n/index.server';
import { getProductsByIds } from '~/modules/catalog/index.server';
import type { Storage } from '~/modules/storage/index.server';
import { type Period, periods } from './periods';
import { type ShopDay, shopDayOf, shopDays } from '~/lib/shop-days';


export type DayFigures = { day: ShopDay; revenueCents: number; orders: number };
export type Funnel = { visitors: number; addedToCart: number; beganCheckout: number; purchased: number };
export type TopProduct = { productId: string; name: string; revenueCents: number; quantity: number };

export type Dashboard = {
  period: Period;
  from: ShopDay;
  to: ShopDay;
  revenueCents: number;
  orders: number;
  /** Rounded to the cent; 0 without orders. */
  averageOrderCents: number;
  refundedCents: number;
  refunds: number;
  funnel: Funnel;
  topProducts: TopProduct[];
  /** One entry per day, oldest first: the period's days, and at least the last 7 (so "today" has a chart). */
  days: DayFigures[];
};

const TOP_PRODUCTS = 5;

export async function getDashboard(
  db: Executor,
  storage: Storage,
  { period, timeZone, locale, now = new Date() }: { period: Period; timeZone: string; locale: Locale; now?: Date },
): Promise<Dashboard> {
  const today = shopDayOf(now, timeZone);
  const range = shopDays(today, periods[period], timeZone);
  const chart = shopDays(today, Math.max(periods[period], 7), timeZone);
  const paidIn = (start: string, end: string) =>
    db.selectFrom('orders').where('payment_status', '=', 'succeeded').where('paid_at', '>=', start).where('paid_at', '<', end);

  const [paid, series, refunds, funnel, top] = await Promise.all([
    paidIn(range.start, range.end)
      .select((eb) => [eb.fn.countAll<number>().as('orders'), eb.fn.coalesce(eb.fn.sum<number>('total_cents'), eb.lit(0)).as('revenue')])
      .executeTakeFirstOrThrow(),
    paidIn(chart.start, chart.end).select(['paid_at', 'total_cents']).orderBy('paid_at').execute(),
    db
      .selectFrom('refunds')
      .where('created_at', '>=', range.start)
      .where('created_at', '<', range.end)
      .where('status', '<>', 'failed')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.coalesce(eb.fn.sum<number>('amount_cents'), eb.lit(0)).as('cents')])
      .executeTakeFirstOrThrow(),
    funnelBetween(db, range.start, range.end),
    db
      .selectFrom('order_lines')
      .innerJoin('orders', 'orders.id', 'order_lines.order_id')
      .where('orders.payment_status', '=', 'succeeded')
      .where('orders.paid_at', '>=', range.start)
      .where('orders.paid_at', '<', range.end)
      .select((eb) => [
        'order_lines.product_id',
        eb.fn.max('order_lines.title').as('title'),
        eb.fn.sum<number>(sql`order_lines.unit_price_cents * order_lines.quantity`).as('revenue'),
        eb.fn.sum<number>('order_lines.quantity').as('quantity'),
      ])
      .groupBy('order_lines.product_id')
      .orderBy('revenue', 'desc')
      .orderBy('order_lines.product_id')
      .limit(TOP_PRODUCTS)
      .execute(),
  ]);

  // The chart's days: each paid order falls in the day whose start it follows (the rows come sorted).
  const days: DayFigures[] = chart.days.map(({ day }) => ({ day, revenueCents: 0, orders: 0 }));
  let i = 0;
  for (const row of series) {
    while (i + 1 < chart.days.length && row.paid_at! >= chart.days[i + 1].start) i++;
    days[i].revenueCents += row.total_cents;
    days[i].orders += 1;
  }

  // Products still in the catalogue show their current name in the owner's language; deleted ones the line's.
  const products = await getProductsByIds(db, storage, top.map((r) => r.product_id), locale);
  const orders = Number(paid.orders);
  const revenueCents = Number(paid.revenue);
  return {
    period,
    from: range.days[0].day,
    to: today,
    revenueCents,
    orders,
    averageOrderCents: orders === 0 ? 0 : Math.round(revenueCents / orders),
    refundedCents: Number(refunds.cents),
    refunds: Number(refunds.n),
    funnel,
    topProducts: top.map((r) => ({
      productId: r.product_id,
      name: products.get(r.product_id)?.name || r.title || '',
      revenueCents: Number(r.revenue),
      quantity: Number(r.quantity),
    })),
    days,
  };
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
