/**
 * What the reports count as kept. A paid order is kept unless it was cancelled or refunded in full (a delivered
 * order whose every line was withdrawn from and refunded stays "delivered", but nothing of it was kept); what
 * it brought in is its total less what was refunded of it, on the day it was paid. A line withdrawn from is not
 * a product kept, refunded yet or not: the consumer is sending it back.
 */
import type { Currency } from '~/modules/pricing/index.server';
import { type SqlBool, sql } from 'kysely';
import type { Executor } from '~/db/database.server';
import { parseWithdrawnEntries, withdrawnPositions } from '~/modules/orders/index.server';

export const keptOrder = sql<SqlBool>`(orders.shipping_status <> 'cancelled' and (orders.refunded_cents = 0 or orders.refunded_cents < orders.total_cents))`;
/** 1 for a kept order, 0 otherwise (for sums). */
export const keptFlag = sql<number>`case when ${keptOrder} then 1 else 0 end`;

export type WithdrawnLine = {
  orderId: string;
  position: number;
  productId: string;
  variantId: string | null;
  quantity: number;
  unitPriceCents: number;
  /** What the line cost (its part of a code's discount taken off). */
  paidCents: number;
  refunded: boolean;
  keptOrder: boolean;
};

/**
 * The order lines withdrawn from, of the orders paid between `start` and `end`, as the order has them (a
 * withdrawal takes back whole lines), with whether that withdrawal was refunded and whether the order is kept.
 */
export async function withdrawnLines(db: Executor, start: string, end: string, currency?: Currency): Promise<WithdrawnLine[]> {
  const rows = await db
    .selectFrom('withdrawals')
    .innerJoin('orders', 'orders.id', 'withdrawals.order_id')
    .innerJoin('order_lines', 'order_lines.order_id', 'orders.id')
    .where('orders.payment_status', '=', 'succeeded')
    .where('orders.paid_at', '>=', start)
    .where('orders.paid_at', '<', end)
    .$if(currency !== undefined, (qb) => qb.where('orders.currency', '=', currency!))
    .select([
      'order_lines.order_id',
      'order_lines.position',
      'order_lines.product_id',
      'order_lines.variant_id',
      'order_lines.quantity',
      'order_lines.unit_price_cents',
      'order_lines.discount_cents',
      'withdrawals.lines',
      'withdrawals.refunded_at',
      keptFlag.as('kept'),
    ])
    .execute();
  return rows
    .filter((row) => withdrawnPositions(parseWithdrawnEntries(row.lines), [{ position: row.position, productId: row.product_id }]).includes(row.position))
    .map((row) => ({
      orderId: row.order_id,
      position: row.position,
      productId: row.product_id,
      variantId: row.variant_id,
      quantity: row.quantity,
      unitPriceCents: row.unit_price_cents,
      paidCents: row.unit_price_cents * row.quantity - Number(row.discount_cents),
      refunded: row.refunded_at !== null,
      keptOrder: Number(row.kept) === 1,
    }));
}
