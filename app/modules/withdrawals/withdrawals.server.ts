/**
 * Withdrawal from a contract through the shop (art. 11a of Directive 2011/83/EU, since 19 June 2026): a
 * consumer finds their order by its number and email (or from My Orders), picks the lines, confirms, and
 * gets an acknowledgement on a durable medium (a mail, through the outbox) at once; the shop is told too.
 * The period runs from the order until 14 days after delivery (the date the owner marks it delivered);
 * before delivery it is always open. The owner refunds through the existing refund action.
 */
import type { Selectable } from 'kysely';
import { type DB, type Executor, inTransaction } from '~/db/database.server';
import type { WithdrawalsTable } from '~/db/schema';
import { newId } from '~/db/ids.server';
import { type Limits, customerScopes, recordAttempt } from '~/modules/limits/index.server';
import { queueMail } from '~/modules/mail/index.server';
import { lineName } from '~/modules/catalog/variants';
import { withdrawnPositions } from '~/modules/orders/index.server';
import { orderLabel, withdrawalClosesAt } from '~/modules/orders/orders.types';
import type { Locale } from '~/modules/i18n/translate';
import { WITHDRAWAL_DAYS, normalizeOrderNumber } from './withdrawal.schema';
import { shopWithdrawalMail, withdrawalAcknowledgementMail } from './withdrawal-mail.server';

const DAY_MS = 86_400_000;

/** A line of the order: its position (what a withdrawal names), the product, and its name with the variant ("Java Frinsa — 1 kg, espresso"). */
/** A line a customer may withdraw from; `paidCents`: what it cost, its part of a code's discount taken off. */
export type WithdrawableLine = { position: number; productId: string; title: string; quantity: number; unitPriceCents: number; paidCents: number };

/** An order as the withdrawal form needs it, with whether it can be withdrawn from now. */
export type WithdrawableOrder = {
  id: string;
  label: string;
  email: string;
  fullName: string;
  createdAt: string;
  deliveredAt: string | null;
  lines: WithdrawableLine[];
  /** The last moment to withdraw (14 days after delivery), or null while not delivered (always open). */
  closesAt: string | null;
  /** 'open'; or why not: 'closed' (past the period), 'cancelled', 'withdrawn' (every line already). */
  status: 'open' | 'closed' | 'cancelled' | 'withdrawn';
  /** The standard delivery the order paid for: refunded once every line is withdrawn from. */
  standardDeliveryCents: number;
  /** How it was paid (card, blik, przelewy24), where its refund goes back; null when not known. */
  paidWith: string | null;
  /** A guest's order: the key of its private page (its mails link there instead of My Orders). */
  guestKey: string | null;
};

export type Withdrawal = {
  id: string;
  orderId: string;
  name: string;
  email: string;
  /** The lines withdrawn from; those recorded before variants have no position (their product was one line). */
  /** `paidCents`: what the line cost (absent on withdrawals from before discount codes: unit × quantity). */
  lines: { position?: number; productId: string; title: string; quantity: number; unitPriceCents: number; paidCents?: number }[];
  reason: string | null;
  locale: string;
  createdAt: string;
  /** The refund is due within 14 days of the withdrawal. */
  refundDueAt: string;
  /** What the withdrawn lines cost, and the standard delivery when this withdrawal completes the order's (the amount to refund). */
  amountCents: number;
  /** The standard delivery included in `amountCents`. */
  deliveryCents: number;
  refundedCents: number | null;
  refundedAt: string | null;
};

/** Counts one look-up or confirmation by this email and client address; true when over the limit. */
export async function withdrawalLimited(db: Executor, limits: Limits, email: string, ip: string | null | undefined): Promise<boolean> {
  const rule = limits.withdrawal;
  return (await recordAttempt(db, 'withdrawal', customerScopes(rule, email.trim().toLowerCase(), ip), rule.windowMs)).limited;
}

/** The order with this number (its label, or its full id) and email; null when there is none (or not paid). */
export async function findOrderForWithdrawal(db: Executor, orderNumber: string, email: string, now = new Date()): Promise<WithdrawableOrder | null> {
  const wanted = normalizeOrderNumber(orderNumber);
  const rows = await orderRows(db).where((eb) => eb(eb.fn('lower', ['user_email']), '=', email.trim().toLowerCase())).execute();
  const row = rows.find((r) => r.id === wanted || orderLabel(r.id) === wanted);
  return row ? withLines(db, row, now) : null;
}

/** A signed-in customer's own order, by id (from My Orders). */
export async function findOwnOrderForWithdrawal(db: Executor, userId: string, orderId: string, now = new Date()): Promise<WithdrawableOrder | null> {
  const row = await orderRows(db).where('user_id', '=', userId).where('id', '=', orderId).executeTakeFirst();
  return row ? withLines(db, row, now) : null;
}

export type WithdrawOutcome = { ok: true; withdrawal: Withdrawal } | { ok: false; reason: WithdrawableOrder['status'] | 'no_lines' };

/**
 * Records the withdrawal from the lines at `positions` (not yet withdrawn from) and queues the
 * consumer's acknowledgement and the shop's notice in the same transaction.
 */
export async function requestWithdrawal(
  db: DB,
  order: WithdrawableOrder,
  input: { name: string; email: string; positions: number[]; reason: string; locale: Locale },
  { contactTo, publicUrl, now = new Date() }: { contactTo: string; publicUrl?: string; now?: Date },
): Promise<WithdrawOutcome> {
  return inTransaction(db, async (trx) => {
    // Checked again inside the transaction: the period may have closed or a line been withdrawn meanwhile.
    const row = await orderRows(trx).where('id', '=', order.id).executeTakeFirst();
    if (!row) return { ok: false, reason: 'closed' as const };
    const fresh = await withLines(trx, row, now);
    if (fresh.status !== 'open') return { ok: false, reason: fresh.status };
    const lines = fresh.lines.filter((line) => input.positions.includes(line.position));
    if (lines.length === 0) return { ok: false, reason: 'no_lines' as const };
    // Withdrawing from the whole order (these lines are all that was left of it) refunds the standard delivery too
    // (art. 13(1) and (2) of Directive 2011/83/EU).
    const deliveryCents = lines.length === fresh.lines.length ? fresh.standardDeliveryCents : 0;
    // What the lines really cost: a code's discount spread over them is not refunded twice.
    const amountCents = lines.reduce((sum, line) => sum + line.paidCents, 0) + deliveryCents;
    const withdrawal: Withdrawal = {
      id: newId(),
      orderId: fresh.id,
      name: input.name,
      email: fresh.email,
      lines: lines.map(({ position, productId, title, quantity, unitPriceCents, paidCents }) => ({ position, productId, title, quantity, unitPriceCents, paidCents })),
      reason: input.reason || null,
      locale: input.locale,
      createdAt: now.toISOString(),
      refundDueAt: new Date(now.getTime() + WITHDRAWAL_DAYS * DAY_MS).toISOString(),
      amountCents,
      deliveryCents,
      refundedCents: null,
      refundedAt: null,
    };
    await trx
      .insertInto('withdrawals')
      .values({
        id: withdrawal.id,
        order_id: withdrawal.orderId,
        name: withdrawal.name,
        email: withdrawal.email,
        lines: JSON.stringify(withdrawal.lines),
        reason: withdrawal.reason,
        locale: withdrawal.locale,
        created_at: withdrawal.createdAt,
        refunded_cents: null,
        refunded_at: null,
        delivery_cents: deliveryCents,
      })
      .execute();
    await queueMail(trx, withdrawalAcknowledgementMail(withdrawal, fresh, { publicUrl }));
    await queueMail(trx, shopWithdrawalMail(withdrawal, fresh, contactTo));
    return { ok: true as const, withdrawal };
  });
}

/** An order's withdrawals, oldest first (the back office's order page). */
export async function listWithdrawals(db: Executor, orderId: string): Promise<Withdrawal[]> {
  const rows = await db.selectFrom('withdrawals').selectAll().where('order_id', '=', orderId).orderBy('created_at').execute();
  return rows.map(toWithdrawal);
}

// ---------------------------------------------------------------------------------------------------

function orderRows(db: Executor) {
  return db
    .selectFrom('orders')
    .select(['id', 'user_id', 'user_email', 'shipping_full_name', 'created_at', 'delivered_at', 'cancelled_at', 'shipping_status', 'standard_delivery_cents', 'guest_key', 'paid_with'])
    .where('payment_status', '=', 'succeeded');
}
type OrderRow = Awaited<ReturnType<ReturnType<typeof orderRows>['executeTakeFirstOrThrow']>>;

async function withLines(db: Executor, row: OrderRow, now: Date): Promise<WithdrawableOrder> {
  const [lines, earlier] = await Promise.all([
    db.selectFrom('order_lines').select(['position', 'product_id', 'title', 'variant_label', 'quantity', 'unit_price_cents', 'discount_cents']).where('order_id', '=', row.id).orderBy('position').execute(),
    listWithdrawals(db, row.id),
  ]);
  const withdrawn = withdrawnPositions(
    earlier.flatMap((w) => w.lines),
    lines.map((l) => ({ position: l.position, productId: l.product_id })),
  );
  const remaining = lines.filter((l) => !withdrawn.includes(l.position));
  const closesAt = withdrawalClosesAt(row.delivered_at);
  const status: WithdrawableOrder['status'] =
    row.cancelled_at || row.shipping_status === 'cancelled'
      ? 'cancelled'
      : remaining.length === 0
        ? 'withdrawn'
        : closesAt && now.toISOString() > closesAt
          ? 'closed'
          : 'open';
  return {
    id: row.id,
    label: orderLabel(row.id),
    paidWith: row.paid_with ?? null,
    email: row.user_email,
    fullName: row.shipping_full_name,
    createdAt: row.created_at,
    deliveredAt: row.delivered_at,
    lines: remaining.map((l) => ({
      position: l.position,
      productId: l.product_id,
      title: lineName(l.title, l.variant_label),
      quantity: l.quantity,
      unitPriceCents: l.unit_price_cents,
      paidCents: l.unit_price_cents * l.quantity - Number(l.discount_cents),
    })),
    closesAt,
    status,
    standardDeliveryCents: Number(row.standard_delivery_cents),
    guestKey: row.guest_key,
  };
}

type WithdrawalRow = Selectable<WithdrawalsTable>;

/** One withdrawal by id, with its order's id (the owner's refund action). */
export async function getWithdrawal(db: Executor, id: string): Promise<Withdrawal | null> {
  const row = await db.selectFrom('withdrawals').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toWithdrawal(row) : null;
}

function toWithdrawal(row: WithdrawalRow): Withdrawal {
  let lines: Withdrawal['lines'] = [];
  try {
    lines = JSON.parse(row.lines) as Withdrawal['lines'];
  } catch {
    lines = [];
  }
  return {
    id: row.id,
    orderId: row.order_id,
    name: row.name,
    email: row.email,
    lines,
    reason: row.reason,
    locale: row.locale,
    createdAt: row.created_at,
    refundDueAt: new Date(new Date(row.created_at).getTime() + WITHDRAWAL_DAYS * DAY_MS).toISOString(),
    amountCents: lines.reduce((sum, line) => sum + (line.paidCents ?? (line.unitPriceCents ?? 0) * line.quantity), 0) + Number(row.delivery_cents),
    deliveryCents: Number(row.delivery_cents),
    refundedCents: row.refunded_cents,
    refundedAt: row.refunded_at,
  };
}
