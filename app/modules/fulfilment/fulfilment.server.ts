/**
 * The owner's orders: every paid order, and moving one on — processing → shipped (with a carrier and a
 * tracking number) → delivered. Each move is one conditional update (two admins clicking at once make one
 * change), its activity entry, and the customer's mail in the language they ordered in, in one transaction.
 */
import type { VatPart } from '~/modules/tax/vat';
import type { InvoiceBuyer } from '~/modules/invoices/buyer';
import { sql } from 'kysely';
import { type Executor, inTransaction } from '~/db/database.server';
import { SHOP_TIME_ZONE } from '~/lib/format';
import { type ShopDay, addDays, isShopDay, shopDayOf, startOfShopDay } from '~/lib/shop-days';
import { escapeLike } from '~/db/search.server';
import { type Actor, listActivity, recordActivity } from '~/modules/activity/index.server';
import { queueMail, sendMailAgain } from '~/modules/mail/index.server';
import { type Currency } from '~/modules/pricing/index.server';
import { type DisplayStatus, type OrderDelivery, type OrderDiscount, displayStatus, orderCurrency, findOrderRecord, getOrderRecordLines, orderLabel, orderVatSummary, type OrderRecordLine, withdrawnPositions, withdrawnPositionsByOrder } from '~/modules/orders/index.server';
import { type Storage, productImage } from '~/modules/storage/index.server';
import { orderStockOut } from '~/modules/stock/index.server';
import { variantLabelsIn } from '~/modules/catalog/index.server';
import { type Locale, isLocale } from '~/modules/i18n/index.server';
import { type Carrier, isCarrier, trackingNumberPattern } from './carriers';
import { shippingMail } from './fulfilment-mail.server';
import { listRefunds } from './refunds.server';
import { type Withdrawal, listWithdrawals } from '~/modules/withdrawals/index.server';

export const OWNER_ORDERS_PAGE_SIZE = 20;
const idPattern = /^[A-Za-z0-9_-]{1,64}$/;

const removedBy = (value: string | null) => (value === 'deletion' || value === 'retention' ? value : null);

export type OwnerOrderRow = {
  id: string;
  label: string;
  createdAt: string;
  customerName: string;
  customerEmail: string;
  /** Why the customer's details are gone, if they are (docs/decisions/0029). */
  removed: 'deletion' | 'retention' | null;
  totalCents: number;
  currency: Currency;
  shippingStatus: string;
  /** What its badge says: the shipping status, or withdrawn / returned once every line was withdrawn from. */
  status: DisplayStatus;
  partlyWithdrawn: boolean;
  items: number;
};

/** Paid orders, newest first; `status` filters, `q` finds an order label, a customer's email or name. */
export async function listOwnerOrders(
  db: Executor,
  { status, q, limit = OWNER_ORDERS_PAGE_SIZE, offset = 0 }: { status?: string; q?: string; limit?: number; offset?: number },
): Promise<{ orders: OwnerOrderRow[]; total: number }> {
  const term = (q ?? '').trim().toLowerCase().slice(0, 100);
  const filtered = db
    .selectFrom('orders')
    .where('payment_status', '=', 'succeeded')
    .$if(status !== undefined, (qb) => qb.where('shipping_status', '=', status!))
    .$if(term !== '', (qb) =>
      qb.where((eb) =>
        eb.or([
          // The label is the id's last six characters: an order whose id ends with the term (any case).
          eb(sql`lower(orders.id)`, 'like', sql`${`%${escapeLike(term)}`} escape '\\'`),
          eb(sql`lower(orders.user_email)`, 'like', sql`${`%${escapeLike(term)}%`} escape '\\'`),
          eb(sql`lower(orders.shipping_full_name)`, 'like', sql`${`%${escapeLike(term)}%`} escape '\\'`),
        ]),
      ),
    );
  const [rows, count] = await Promise.all([
    filtered
      .select((eb) => [
        'orders.id',
        'orders.created_at',
        'orders.shipping_full_name',
        'orders.user_email',
        'orders.anonymised_by',
        'orders.total_cents',
        'orders.currency',
        'orders.shipping_status',
        'orders.refunded_cents',
        eb.selectFrom('order_lines').select((l) => l.fn.sum<number>('quantity').as('n')).whereRef('order_lines.order_id', '=', 'orders.id').as('items'),
      ])
      .orderBy('orders.created_at', 'desc')
      .orderBy('orders.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute(),
    filtered.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const ids = rows.map((r) => r.id);
  const [withdrawn, lines] = await Promise.all([
    withdrawnPositionsByOrder(db, ids),
    ids.length ? db.selectFrom('order_lines').select(['order_id', 'position']).where('order_id', 'in', ids).execute() : [],
  ]);
  const positions = (id: string) => lines.filter((line) => line.order_id === id).map((line) => line.position);
  return {
    total: Number(count.n),
    orders: rows.map((r) => ({
      ...displayStatus({ shippingStatus: r.shipping_status, totalCents: r.total_cents, refundedCents: r.refunded_cents, positions: positions(r.id), withdrawnPositions: withdrawn.get(r.id) ?? [] }),
      id: r.id,
      label: orderLabel(r.id),
      createdAt: r.created_at,
      customerName: r.shipping_full_name,
      customerEmail: r.user_email,
      removed: removedBy(r.anonymised_by),
      totalCents: r.total_cents,
      currency: orderCurrency(r.currency),
      shippingStatus: r.shipping_status,
      items: Number(r.items ?? 0),
    })),
  };
}

export type TimelineEntry = {
  at: string;
  kind: 'placed' | 'paid' | 'shipment' | 'shipped' | 'delivered' | 'cancelled' | 'refunded' | 'refund_confirmed' | 'mail' | 'withdrawal' | 'stock_short' | 'replaced';
  by?: string;
  detail?: string;
  amountCents?: number;
  /** A withdrawal's refund is due by this moment (14 days after it arrived). */
  dueAt?: string;
  /** A mail's delivery: still in the outbox, handed to the mail server, or refused by it for good (parked). */
  mailStatus?: 'queued' | 'sent' | 'failed';
  /** The outbox message, and why the mail server refused a parked one. */
  mailId?: string;
  mailError?: string;
  /** When the parcel arrived, as the owner recorded it (the withdrawal period runs from it). */
  deliveredAt?: string;
};

const activityKinds = {
  'order.shipment': 'shipment',
  'order.shipped': 'shipped',
  'order.delivered': 'delivered',
  'order.cancelled': 'cancelled',
  'order.refunded': 'refunded',
  'order.stock_short': 'stock_short',
  'order.replaced': 'replaced',
} as const;

export type OwnerOrder = {
  id: string;
  label: string;
  locale: string;
  /** Who ordered; `guest`: without an account (the owner accepts guests). */
  customer: { name: string; email: string; guest: boolean; removed: 'deletion' | 'retention' | null };
  shipping: { fullName: string; address: string; city: string; zipCode: string };
  /** How it goes: the method, its price and, for a locker, its code and address (null for orders from before). */
  delivery: OrderDelivery | null;
  /** Every amount of the order is in its currency. */
  currency: Currency;
  goodsCents: number;
  /** The code used and what it took off; null without one. */
  discount: OrderDiscount | null;
  /** Each line with the roast days of the batches its coffee was drawn from (for packing), oldest first. */
  lines: (Omit<OrderRecordLine, 'image'> & { image: ReturnType<typeof productImage> | null; roastedOn: string[] })[];
  /** Paid after its coffee sold out: refunded in full, never shipped. */
  stockShort: boolean;
  /** Paid although a newer order of its cart had replaced it: refunded in full, never shipped. */
  replaced: boolean;
  /** How it was paid (where a refund goes back); null when the provider did not say. */
  paidWith: 'card' | 'blik' | 'przelewy24' | null;
  /** Its goods came off the stock (tracked coffee, sold and not all returned): cancelling may put them back. */
  stockOut: boolean;
  totalCents: number;
  /** The VAT in the total per rate, and whose VAT it is (null on an order without VAT recorded). */
  vat: VatPart[];
  taxCountry: string | null;
  /** The buyer's details the customer gave at checkout with a request for an invoice (null: none asked for). */
  invoiceBuyer: InvoiceBuyer | null;
  paymentProvider: string;
  paymentReference: string | null;
  paymentStatus: string;
  shippingStatus: string;
  status: DisplayStatus;
  partlyWithdrawn: boolean;
  carrier: string | null;
  trackingNumber: string | null;
  /** The InPost shipment made through ShipX: its id at InPost and the parcel size. */
  shipment: { id: string; size: string | null } | null;
  shippedAt: string | null;
  refundedCents: number;
  refunds: Awaited<ReturnType<typeof listRefunds>>;
  /** The customer's withdrawals from the contract, oldest first. */
  withdrawals: Withdrawal[];
  timeline: TimelineEntry[];
};

/** The roast days of the batches a line was drawn from (stored as JSON by stock's takeStock), oldest first. */
function roastDays(batches: string | null): string[] {
  if (!batches) return [];
  try {
    const parsed: unknown = JSON.parse(batches);
    if (!Array.isArray(parsed)) return [];
    return [...new Set(parsed.map((b: { roastedOn?: unknown }) => b?.roastedOn).filter((day): day is string => typeof day === 'string'))].sort();
  } catch {
    return [];
  }
}

/**
 * The owner sends one of the order's mails again (one the mail server refused for good, once the address is
 * fixed or the server's trouble is over): false when the mail is not this order's or was sent.
 */
export async function sendOrderMailAgain(db: Executor, orderId: string, mailId: string): Promise<boolean> {
  if (!idPattern.test(orderId) || !idPattern.test(mailId)) return false;
  const record = await findOrderRecord(db, orderId);
  if (!record || record.paymentStatus !== 'succeeded') return false;
  const mail = await db.selectFrom('mail_outbox').select('id').where('id', '=', mailId).where('to_address', '=', record.userEmail).where('subject', 'like', `%${orderLabel(orderId)}%`).executeTakeFirst();
  return mail ? sendMailAgain(db, mail.id) : false;
}

/** The current labels, in the order's and the reader's languages, of the variants an order's lines were sold as. */
async function lineLabels(db: Executor, orderId: string, locales: Locale[]) {
  const ids = await db.selectFrom('order_lines').select('variant_id').where('order_id', '=', orderId).where('variant_id', 'is not', null).execute();
  return variantLabelsIn(db, ids.map((row) => row.variant_id!), locales);
}

/**
 * A line's variant label in the reader's language: the order keeps it in the customer's, so an owner reading in
 * another sees it translated — when the variant still reads as it did when sold (else the kept one stands).
 */
function labelFor(line: { variantId: string | null; label: string }, orderLocale: string, reader: Locale | undefined, labels: Map<string, Partial<Record<Locale, string>>>): string {
  const known = line.variantId ? labels.get(line.variantId) : undefined;
  if (!known || !reader || !isLocale(orderLocale) || known[orderLocale] !== line.label) return line.label;
  return known[reader] ?? line.label;
}

/** One paid order with everything the owner needs, and its timeline (oldest first). */
export async function getOwnerOrder(db: Executor, storage: Storage, id: string, { locale }: { locale?: Locale } = {}): Promise<OwnerOrder | null> {
  if (!idPattern.test(id)) return null;
  const [record, row] = await Promise.all([
    findOrderRecord(db, id),
    db.selectFrom('orders').select(['carrier', 'tracking_number', 'refunded_cents', 'shipped_at', 'stock_short_at', 'replaced_at', 'shipment_id', 'shipment_size']).where('id', '=', id).executeTakeFirst(),
  ]);
  if (!record || !row || record.paymentStatus !== 'succeeded') return null;
  const [lines, drawn, activity, mails, refunds, withdrawals, stockOut, labels] = await Promise.all([
    getOrderRecordLines(db, id),
    db.selectFrom('order_lines').select(['position', 'batches']).where('order_id', '=', id).execute(),
    listActivity(db, { subjectType: 'order', subjectId: id }),
    db
      .selectFrom('mail_outbox')
      .select(['id', 'subject', 'created_at', 'sent_at', 'status', 'last_error'])
      .where('to_address', '=', record.userEmail)
      .where('subject', 'like', `%${orderLabel(id)}%`)
      .orderBy('created_at')
      .execute(),
    listRefunds(db, id),
    listWithdrawals(db, id),
    orderStockOut(db, id),
    locale && isLocale(record.locale) && record.locale !== locale ? lineLabels(db, id, [record.locale, locale]) : Promise.resolve(new Map()),
  ]);
  const timeline: TimelineEntry[] = [
    { at: record.createdAt, kind: 'placed' as const },
    ...(record.paidAt ? [{ at: record.paidAt, kind: 'paid' as const, detail: record.paymentId ?? undefined }] : []),
    ...activity.flatMap((entry) => {
      const kind = activityKinds[entry.action as keyof typeof activityKinds];
      if (!kind) return [];
      const d = entry.details;
      return [
        {
          at: entry.createdAt,
          kind,
          by: entry.actorEmail,
          detail: typeof d.trackingNumber === 'string' ? `${d.carrier ?? ''} ${d.trackingNumber}`.trim() : typeof d.shipmentId === 'string' ? d.shipmentId : undefined,
          deliveredAt: typeof d.deliveredAt === 'string' ? d.deliveredAt : undefined,
          amountCents: typeof d.refundCents === 'number' ? d.refundCents : undefined,
          ...(Array.isArray(d.lines) ? { detail: d.lines.map(String).join(', ') } : {}),
        },
      ];
    }),
    // A refund the provider confirmed later than it was made (Stripe's `charge.refunded`).
    ...refunds
      .filter((refund) => refund.confirmedAt && refund.confirmedAt !== refund.createdAt)
      .map((refund) => ({ at: refund.confirmedAt!, kind: 'refund_confirmed' as const, amountCents: refund.amountCents, detail: refund.providerRefundId ?? undefined })),
    ...withdrawals.map((w) => ({
      at: w.createdAt,
      kind: 'withdrawal' as const,
      by: `${w.name} <${w.email}>`,
      detail: w.lines.map((line) => `${line.quantity} × ${line.title}`).join(', '),
      dueAt: w.refundDueAt,
    })),
    ...mails.map((mail) => ({
      at: mail.sent_at ?? mail.created_at,
      kind: 'mail' as const,
      detail: mail.subject,
      mailId: mail.id,
      mailStatus: mail.status === 'sent' ? ('sent' as const) : mail.status === 'failed' ? ('failed' as const) : ('queued' as const),
      // Why the mail server refused a parked one, as it said it (addresses masked).
      ...(mail.status === 'failed' && mail.last_error ? { mailError: mail.last_error } : {}),
    })),
  ].sort((a, b) => a.at.localeCompare(b.at));
  return {
    id,
    label: orderLabel(id),
    locale: record.locale,
    customer: { name: record.shipping.fullName, email: record.userEmail, guest: record.userId === null, removed: record.removed },
    shipping: record.shipping,
    delivery: record.delivery,
    currency: record.currency,
    goodsCents: record.goodsCents,
    discount: record.discount,
    lines: lines.map((line) => ({
      ...line,
      label: labelFor(line, record.locale, locale, labels),
      image: line.image ? productImage(storage, line.image) : null,
      roastedOn: roastDays(drawn.find((d) => d.position === line.position)?.batches ?? null),
    })),
    stockShort: row.stock_short_at !== null,
    replaced: row.replaced_at !== null,
    paidWith: record.paidWith,
    stockOut,
    totalCents: record.totalCents,
    vat: orderVatSummary(lines.map((l) => ({ vat: l.vat ?? null })), record.deliveryVat),
    taxCountry: record.taxCountry,
    invoiceBuyer: record.invoiceBuyer,
    paymentProvider: record.paymentProvider,
    paymentReference: record.paymentId,
    paymentStatus: record.paymentStatus,
    shippingStatus: record.shippingStatus,
    ...displayStatus({
      shippingStatus: record.shippingStatus,
      totalCents: record.totalCents,
      refundedCents: row.refunded_cents,
      positions: lines.map((line) => line.position),
      withdrawnPositions: withdrawnPositions(withdrawals.flatMap((w) => w.lines), lines),
    }),
    carrier: row.carrier,
    trackingNumber: row.tracking_number,
    shipment: row.shipment_id ? { id: row.shipment_id, size: row.shipment_size } : null,
    shippedAt: row.shipped_at,
    refundedCents: row.refunded_cents,
    refunds,
    withdrawals,
    timeline,
  };
}

export type Move =
  | { to: 'shipped'; carrier: string; trackingNumber: string }
  /** `deliveredOn`: the shop's calendar day the parcel arrived (YYYY-MM-DD); today when left out. */
  | { to: 'delivered'; deliveredOn?: string };
export type MoveOutcome =
  | { ok: true }
  | {
      ok: false;
      reason: 'not_found' | 'not_allowed' | 'invalid_carrier' | 'invalid_tracking' | 'invalid_date' | 'delivered_in_future' | 'delivered_before_shipping';
      from?: string;
    };

/**
 * The status each move starts from (cancelling, with its refund, is `cancelOrder` in refunds.server.ts). An
 * order collected at the roastery is never shipped: it goes from processing to delivered ("collected").
 */
const movesFrom = { shipped: 'processing', delivered: 'shipped' } as const;
const fromStatus = (to: Move['to'], kind: string | null) => (kind === 'pickup' ? (to === 'delivered' ? 'processing' : null) : movesFrom[to]);

/**
 * When a parcel that arrived on `day` was delivered: now for today; for an earlier day, the end of that day in
 * the shop's time zone (the 14 days to withdraw run from delivery, and the hour is not known: the consumer
 * never loses any of them).
 */
export function deliveryMoment(day: ShopDay, at: Date): string {
  const end = startOfShopDay(addDays(day, 1), SHOP_TIME_ZONE).getTime() - 1;
  return new Date(Math.min(end, at.getTime())).toISOString();
}

export async function moveOrder(
  services: { db: Executor; publicUrl?: string },
  actor: Actor,
  id: string,
  move: Move,
  clock: () => Date = () => new Date(),
): Promise<MoveOutcome> {
  if (!idPattern.test(id)) return { ok: false, reason: 'not_found' };
  let carrier: Carrier | null = null;
  let trackingNumber: string | null = null;
  const today = shopDayOf(clock(), SHOP_TIME_ZONE);
  const deliveredOn = move.to === 'delivered' ? (move.deliveredOn ?? today) : today;
  if (move.to === 'shipped') {
    if (!isCarrier(move.carrier)) return { ok: false, reason: 'invalid_carrier' };
    carrier = move.carrier;
    const number = move.trackingNumber.trim();
    if (number !== '' && !trackingNumberPattern.test(number)) return { ok: false, reason: 'invalid_tracking' };
    trackingNumber = number || null;
  } else {
    if (!isShopDay(deliveredOn)) return { ok: false, reason: 'invalid_date' };
    if (deliveredOn > today) return { ok: false, reason: 'delivered_in_future' };
  }
  return inTransaction(services.db, async (trx) => {
    const at = clock();
    const current = await trx.selectFrom('orders').select(['shipping_status', 'payment_status', 'shipped_at', 'stock_short_at', 'replaced_at', 'delivery_kind']).where('id', '=', id).executeTakeFirst();
    if (!current || current.payment_status !== 'succeeded') return { ok: false, reason: 'not_found' } as const;
    const from = fromStatus(move.to, current.delivery_kind);
    if (!from) return { ok: false, reason: 'not_allowed', from: current.shipping_status } as const;
    // Paid after its coffee was gone, or after a newer order replaced it: it is refunded, never shipped.
    if (current.shipping_status !== from || current.stock_short_at !== null || current.replaced_at !== null) return { ok: false, reason: 'not_allowed', from: current.shipping_status } as const;
    if (move.to === 'delivered' && current.shipped_at && deliveredOn < shopDayOf(new Date(current.shipped_at), SHOP_TIME_ZONE)) {
      return { ok: false, reason: 'delivered_before_shipping' } as const;
    }
    const deliveredAt = deliveryMoment(deliveredOn, at);
    const updated = await trx
      .updateTable('orders')
      .set(move.to === 'shipped' ? { shipping_status: 'shipped', carrier, tracking_number: trackingNumber, shipped_at: at.toISOString() } : { shipping_status: 'delivered', delivered_at: deliveredAt })
      .where('id', '=', id)
      .where('payment_status', '=', 'succeeded')
      .where('shipping_status', '=', from)
      .executeTakeFirst();
    // Another admin moved it between the read and the update.
    if (Number(updated.numUpdatedRows) !== 1) {
      const now = await trx.selectFrom('orders').select('shipping_status').where('id', '=', id).executeTakeFirst();
      return { ok: false, reason: 'not_allowed', from: now?.shipping_status } as const;
    }
    const record = (await findOrderRecord(trx, id))!;
    await recordActivity(trx, actor, {
      action: move.to === 'shipped' ? 'order.shipped' : 'order.delivered',
      subjectType: 'order',
      subjectId: id,
      subjectLabel: orderLabel(id),
      details: move.to === 'shipped' ? { from, to: 'shipped', carrier, trackingNumber } : { from, to: 'delivered', deliveredAt },
    });
    const lines = move.to === 'delivered' ? await getOrderRecordLines(trx, id) : [];
    await queueMail(trx, shippingMail(record, move.to, { carrier, trackingNumber }, { publicUrl: services.publicUrl, lines }));
    return { ok: true } as const;
  });
}

/** Whether `to` may follow `from` for an order going this way (for the page's buttons; the update itself is what decides). */
export const canMove = (from: string, to: Move['to'], kind: string | null = null) => fromStatus(to, kind) === from;
