import { timingSafeEqual } from 'node:crypto';
import type { Executor } from '~/db/database.server';
import { parseWithdrawnEntries, withdrawnPositions } from './withdrawn';
import { type Storage, productImage } from '~/modules/storage/index.server';
import {
  ORDERS_PAGE_SIZE,
  type OrderView,
  type PaymentStatus,
  type ShippingStatus,
  orderCurrency,
  orderDeliveryOf,
  orderDiscountOf,
  lineVatOf,
  orderLabel,
  orderPagePath,
  orderVatSummary,
  vatPartsOf,
  paymentStatuses,
  shippingStatuses,
} from './orders.types';

type OrderRow = {
  id: string;
  created_at: string;
  paid_at: string | null;
  total_cents: number;
  currency: string;
  payment_status: string;
  shipping_status: string;
  shipping_full_name: string;
  shipping_address: string;
  shipping_city: string;
  shipping_zip_code: string;
  carrier: string | null;
  tracking_number: string | null;
  refunded_cents: number;
  delivered_at: string | null;
  stock_short_at: string | null;
  replaced_at: string | null;
  goods_cents: number;
  discount_code: string | null;
  discount_cents: number;
  delivery_discount_cents: number;
  delivery_cents: number;
  standard_delivery_cents: number;
  delivery_kind: string | null;
  delivery_method_id: string | null;
  delivery_country: string | null;
  shipping_phone: string;
  delivery_point: string | null;
  delivery_point_address: string | null;
  delivery_tax: string | null;
  tax_country: string | null;
  prices_follow_rate: number;
};

const orderColumns = [
  'id',
  'created_at',
  'paid_at',
  'total_cents',
  'currency',
  'payment_status',
  'shipping_status',
  'shipping_full_name',
  'shipping_address',
  'shipping_city',
  'shipping_zip_code',
  'carrier',
  'tracking_number',
  'refunded_cents',
  'delivered_at',
  'stock_short_at',
  'replaced_at',
  'goods_cents',
  'discount_code',
  'discount_cents',
  'delivery_discount_cents',
  'delivery_cents',
  'standard_delivery_cents',
  'delivery_kind',
  'delivery_method_id',
  'delivery_country',
  'shipping_phone',
  'delivery_point',
  'delivery_point_address',
  'delivery_tax',
  'tax_country',
  'prices_follow_rate',
] as const;

/**
 * The customer's placed (paid) orders, newest first, `limit` at a time. Pending orders (a payment that was
 * started but never completed) are not shown: they are not orders the customer placed.
 */
export async function listOrders(
  db: Executor,
  storage: Storage,
  userId: string,
  { limit = ORDERS_PAGE_SIZE, offset = 0 }: { limit?: number; offset?: number } = {},
): Promise<{ orders: OrderView[]; hasMore: boolean }> {
  const size = Math.max(1, Math.min(100, Math.trunc(limit)));
  const rows = await db
    .selectFrom('orders')
    .select(orderColumns)
    .where('user_id', '=', userId)
    .where('payment_status', '=', 'succeeded')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(size + 1)
    .offset(Math.max(0, Math.trunc(offset)))
    .execute();
  const page = rows.slice(0, size);
  return { orders: await toViews(db, storage, page), hasMore: rows.length > size };
}

/**
 * One of the customer's orders (any payment status); null when it does not exist or is someone else's. A
 * guest's (`{ cartId }`) is one without an account made from that cart (the checkout's last step).
 */
export async function getOrderForUser(db: Executor, storage: Storage, owner: string | { cartId: string | null }, orderId: string): Promise<OrderView | null> {
  if (typeof orderId !== 'string' || !idPattern.test(orderId)) return null;
  if (typeof owner !== 'string' && !owner.cartId) return null;
  const row = await db
    .selectFrom('orders')
    .select(orderColumns)
    .where('id', '=', orderId)
    .$if(typeof owner === 'string', (qb) => qb.where('user_id', '=', owner as string))
    .$if(typeof owner !== 'string', (qb) => qb.where('user_id', 'is', null).where('cart_id', '=', (owner as { cartId: string }).cartId))
    .executeTakeFirst();
  if (!row) return null;
  const [view] = await toViews(db, storage, [row]);
  return view ?? null;
}

/**
 * A guest's paid order by its private link (`/order/{id}?key=…`), with its email; null for a wrong or missing
 * key, an order that is not a guest's (any more: once it joined an account, My Orders shows it), or unpaid.
 */
export async function getGuestOrder(db: Executor, storage: Storage, orderId: string, key: string): Promise<(OrderView & { email: string }) | null> {
  if (typeof orderId !== 'string' || !idPattern.test(orderId) || typeof key !== 'string' || !/^[A-Za-z0-9_-]{16,64}$/.test(key)) return null;
  const row = await db
    .selectFrom('orders')
    .select([...orderColumns, 'guest_key', 'user_email'])
    .where('id', '=', orderId)
    .where('user_id', 'is', null)
    .where('payment_status', '=', 'succeeded')
    .executeTakeFirst();
  if (!row?.guest_key || !sameKey(row.guest_key, key)) return null;
  const [view] = await toViews(db, storage, [row]);
  return view ? { ...view, email: row.user_email } : null;
}

/** The private page of a guest's order (null for a customer's). */
export async function guestOrderPath(db: Executor, orderId: string): Promise<string | null> {
  const row = await db.selectFrom('orders').select(['id', 'guest_key']).where('id', '=', orderId).executeTakeFirst();
  return row?.guest_key ? orderPagePath({ id: row.id, guestKey: row.guest_key }) : null;
}

const idPattern = /^[A-Za-z0-9_-]{1,64}$/;
/** Compared in constant time: the key is the only proof the visitor got the order's mail. */
const sameKey = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

async function toViews(db: Executor, storage: Storage, rows: OrderRow[]): Promise<OrderView[]> {
  if (rows.length === 0) return [];
  const lines = await db
    .selectFrom('order_lines')
    .selectAll()
    .where(
      'order_id',
      'in',
      rows.map((r) => r.id),
    )
    .orderBy('order_id')
    .orderBy('position')
    .execute();
  const withdrawn = await withdrawnPositionsByOrder(db, rows.map((r) => r.id));
  const byOrder = new Map<string, OrderView['lines']>();
  for (const line of lines) {
    const list = byOrder.get(line.order_id) ?? [];
    list.push({
      position: line.position,
      productId: line.product_id,
      variantId: line.variant_id,
      sku: line.sku,
      title: line.title,
      label: line.variant_label,
      netWeightGrams: line.net_weight_grams,
      unitPriceCents: line.unit_price_cents,
      quantity: line.quantity,
      discountCents: Number(line.discount_cents),
      vat: lineVatOf(line, Number(line.unit_price_cents) * Number(line.quantity) - Number(line.discount_cents)),
      image: line.image ? productImage(storage, line.image) : null,
    });
    byOrder.set(line.order_id, list);
  }
  return rows.map((row) => ({
    id: row.id,
    label: orderLabel(row.id),
    createdAt: row.created_at,
    paidAt: row.paid_at,
    totalCents: row.total_cents,
    goodsCents: row.goods_cents,
    discount: orderDiscountOf(row),
    currency: orderCurrency(row.currency),
    paymentStatus: (paymentStatuses as readonly string[]).includes(row.payment_status)
      ? (row.payment_status as PaymentStatus)
      : 'pending',
    shippingStatus: (shippingStatuses as readonly string[]).includes(row.shipping_status)
      ? (row.shipping_status as ShippingStatus)
      : 'processing',
    lines: byOrder.get(row.id) ?? [],
    parcel: row.carrier ? { carrier: row.carrier, trackingNumber: row.tracking_number } : null,
    refundedCents: row.refunded_cents,
    deliveredAt: row.delivered_at,
    withdrawnPositions: withdrawn.get(row.id) ?? [],
    stockShort: row.stock_short_at !== null,
    replaced: row.replaced_at !== null,
    shipping: {
      fullName: row.shipping_full_name,
      address: row.shipping_address,
      city: row.shipping_city,
      zipCode: row.shipping_zip_code,
    },
    delivery: orderDeliveryOf(row),
    vat: orderVatSummary(byOrder.get(row.id) ?? [], vatPartsOf(row.delivery_tax)),
    pricesIn: Number(row.prices_follow_rate) === 1 ? row.tax_country : null,
  }));
}

/** The positions of the lines each of these orders was withdrawn from. */
export async function withdrawnPositionsByOrder(db: Executor, orderIds: string[]): Promise<Map<string, number[]>> {
  const withdrawn = new Map<string, number[]>();
  if (orderIds.length === 0) return withdrawn;
  const withdrawals = await db.selectFrom('withdrawals').select(['order_id', 'lines']).where('order_id', 'in', orderIds).execute();
  if (withdrawals.length === 0) return withdrawn;
  const lines = await db
    .selectFrom('order_lines')
    .select(['order_id', 'position', 'product_id'])
    .where('order_id', 'in', [...new Set(withdrawals.map((w) => w.order_id))])
    .execute();
  for (const w of withdrawals) {
    const ofOrder = lines.filter((line) => line.order_id === w.order_id).map((line) => ({ position: line.position, productId: line.product_id }));
    const positions = withdrawnPositions(parseWithdrawnEntries(w.lines), ofOrder);
    withdrawn.set(w.order_id, [...new Set([...(withdrawn.get(w.order_id) ?? []), ...positions])].sort((a, b) => a - b));
  }
  return withdrawn;
}
