/**
 * Cancelling a paid order gives the money back through the provider that took it. The refund is asked for
 * first (with an idempotency key fixed by the order's state, so two admins clicking at once get one refund);
 * only when the provider has made it does one transaction cancel the order, record the refund and the
 * activity, and queue the customer's mail. A refused or unreachable refund leaves the order as it was.
 * Stripe confirms each refund later with a signed `charge.refunded` event (`recordRefundEvent`), which also
 * records refunds made outside Kopi, such as in Stripe's dashboard.
 */
import type { Logger } from 'pino';
import { type Executor, inTransaction, now } from '~/db/database.server';
import { newId } from '~/db/ids.server';
import { type Actor, recordActivity } from '~/modules/activity/index.server';
import { queueMail } from '~/modules/mail/index.server';
import { findOrderRecord, getOrderRecordLines, orderLabel, vatPartsOf } from '~/modules/orders/index.server';
import { type VatPart, refundVat, sumByRate } from '~/modules/tax/index.server';
import { correctRefundedInvoices } from '~/modules/invoices/index.server';
import { type PaymentProvider, PaymentUnavailableError, type ProviderRefund } from '~/modules/payments/index.server';
import { getWithdrawal, withdrawalRefundMail } from '~/modules/withdrawals/index.server';
import { returnToStock } from '~/modules/stock/index.server';
import { bumpStoredCatalogVersion, markCatalogChanged } from '~/modules/catalog/index.server';
import { cancellationMail, replacedPaidMail, stockShortMail } from './fulfilment-mail.server';

const idPattern = /^[A-Za-z0-9_-]{1,64}$/;
/** The statuses an order can be cancelled from. */
export const cancellableFrom = ['processing', 'shipped'] as const;
export const canCancel = (from: string) => (cancellableFrom as readonly string[]).includes(from);

export type CancelOutcome =
  | { ok: true; refundedCents: number }
  | { ok: false; reason: 'not_found' | 'not_allowed'; from?: string }
  | { ok: false; reason: 'refund_failed'; code: 'declined' | 'not_refundable'; message: string }
  | { ok: false; reason: 'refund_unavailable' };

export type RefundServices = { db: Executor; payments: PaymentProvider; publicUrl?: string; log?: Logger };

export type CancelOptions = {
  /** The goods go back to stock (the owner is asked; an order never packed always does). */
  backToStock?: boolean;
  /**
   * 'stock_short': the order was paid after its coffee was gone (the customer gets an apology); 'replaced': it was
   * paid although a newer order of its cart had replaced it (the customer is told the newer one stands).
   */
  reason?: 'stock_short' | 'replaced';
};

/** Who cancels an order paid after its coffee was gone. */
export const shopActor: Actor = { id: null, email: 'Kopi' };

export async function cancelOrder(services: RefundServices, actor: Actor, id: string, options: CancelOptions = {}): Promise<CancelOutcome> {
  if (!idPattern.test(id)) return { ok: false, reason: 'not_found' };
  const { db, payments, log } = services;
  const order = await db
    .selectFrom('orders')
    .select(['payment_status', 'shipping_status', 'payment_provider', 'payment_intent_id', 'total_cents', 'refunded_cents', 'stock_short_at', 'replaced_at', 'currency'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!order || order.payment_status !== 'succeeded') return { ok: false, reason: 'not_found' };
  if (!canCancel(order.shipping_status)) return { ok: false, reason: 'not_allowed', from: order.shipping_status };
  if (options.reason === 'stock_short' && !order.stock_short_at) return { ok: false, reason: 'not_allowed', from: order.shipping_status };
  if (options.reason === 'replaced' && !order.replaced_at) return { ok: false, reason: 'not_allowed', from: order.shipping_status };

  const amountCents = order.total_cents - order.refunded_cents;
  let refund: ProviderRefund | null = null;
  if (amountCents > 0) {
    if (order.payment_provider !== payments.name || !order.payment_intent_id) {
      log?.error({ orderId: id, paidWith: order.payment_provider, configured: payments.name }, 'the order was paid through another payment provider');
      return { ok: false, reason: 'refund_unavailable' };
    }
    try {
      const result = await payments.refund({
        paymentId: order.payment_intent_id,
        orderId: id,
        amountCents,
        idempotencyKey: `kopi-cancel-${id}-${order.refunded_cents}`,
      });
      if (!result.ok) return { ok: false, reason: 'refund_failed', code: result.code, message: result.message };
      refund = { id: result.id, amountCents: result.amountCents, status: result.status };
    } catch (error) {
      if (!(error instanceof PaymentUnavailableError)) throw error;
      log?.warn({ orderId: id, errorName: error.name, cause: (error.cause as Error)?.message }, 'refund failed: the payment service did not answer');
      return { ok: false, reason: 'refund_unavailable' };
    }
  }

  let stockShown = false;
  return inTransaction(db, async (trx) => {
    const at = now();
    const updated = await trx
      .updateTable('orders')
      .set({ shipping_status: 'cancelled', cancelled_at: at, refunded_cents: order.refunded_cents + (refund?.amountCents ?? 0) })
      .where('id', '=', id)
      .where('payment_status', '=', 'succeeded')
      .where('shipping_status', 'in', cancellableFrom)
      .where('refunded_cents', '=', order.refunded_cents)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) {
      // Another admin (or the provider's refund event) got there first, with the same refund.
      const current = await trx.selectFrom('orders').select('shipping_status').where('id', '=', id).executeTakeFirstOrThrow();
      return { ok: false, reason: 'not_allowed', from: current.shipping_status } as const;
    }
    if (refund) await insertRefund(trx, { orderId: id, provider: payments.name, refund, createdBy: actor.id, at });
    // An order that was never served took nothing out of stock.
    const restocked = options.backToStock === true && order.stock_short_at === null && order.replaced_at === null;
    if (restocked && (await returnToStock(trx, id, { actor: actor.email }))) {
      await bumpStoredCatalogVersion(trx);
      stockShown = true;
    }
    await recordActivity(trx, actor, {
      action: 'order.cancelled',
      subjectType: 'order',
      subjectId: id,
      subjectLabel: orderLabel(id),
      details: {
        from: order.shipping_status,
        to: 'cancelled',
        refundCents: refund?.amountCents ?? 0,
        currency: order.currency,
        refundId: refund?.id ?? null,
        ...(options.reason ? { reason: options.reason } : { backToStock: restocked }),
      },
    });
    const record = (await findOrderRecord(trx, id))!;
    const refunded = refund?.amountCents ?? 0;
    await queueMail(
      trx,
      options.reason === 'stock_short'
        ? stockShortMail(record, refunded, await soldOutNames(trx, id), { publicUrl: services.publicUrl })
        : options.reason === 'replaced'
          ? replacedPaidMail(record, refunded, { publicUrl: services.publicUrl })
          : cancellationMail(record, refunded, { publicUrl: services.publicUrl }),
    );
    return { ok: true, refundedCents: refunded } as const;
  })
    .then(async (outcome) => {
      if (outcome.ok) await correctAfterRefund(services, id);
      return outcome;
    })
    .finally(() => {
      if (stockShown) markCatalogChanged();
    });
}

/** What sold out under an order paid too late, as its timeline recorded it. */
async function soldOutNames(trx: Executor, orderId: string): Promise<string[]> {
  const row = await trx.selectFrom('activity_log').select('details').where('subject_id', '=', orderId).where('action', '=', 'order.stock_short').orderBy('created_at', 'desc').executeTakeFirst();
  try {
    const details = JSON.parse(row?.details ?? '{}') as { lines?: { name?: unknown }[] };
    return (details.lines ?? []).flatMap((line) => (typeof line.name === 'string' ? [line.name] : []));
  } catch {
    return [];
  }
}

/**
 * Refunds in full, and cancels, every paid order that will never be shipped and is not refunded yet: paid after
 * its coffee was gone, or paid although a newer order of its cart replaced it (right after such a payment, and by
 * each node's sweep when the provider did not answer). Returns how many were.
 */
export async function refundUnservedOrders(services: RefundServices, orderIds?: string[]): Promise<number> {
  const due = await services.db
    .selectFrom('orders')
    .select(['id', 'replaced_at'])
    .where((eb) => eb.or([eb('stock_short_at', 'is not', null), eb('replaced_at', 'is not', null)]))
    .where('payment_status', '=', 'succeeded')
    .where('shipping_status', '=', 'processing')
    .$if(orderIds !== undefined, (qb) => qb.where('id', 'in', orderIds!.length ? orderIds! : ['']))
    .limit(100)
    .execute();
  let refunded = 0;
  for (const { id, replaced_at } of due) {
    const outcome = await cancelOrder(services, shopActor, id, { reason: replaced_at ? 'replaced' : 'stock_short' });
    if (outcome.ok) refunded += 1;
    else services.log?.warn({ orderId: id, outcome }, 'an order that will not be shipped is not refunded yet');
  }
  return refunded;
}

export type RefundEventOutcome = 'refund_confirmed' | 'refund_recorded' | 'order_cancelled';

/**
 * The provider says how much of a payment is refunded (and, when it lists them, which refunds): Kopi's
 * pending refunds become confirmed; a refund Kopi did not make (the provider's dashboard, or a process that
 * stopped between the provider's answer and its commit) is recorded; a fully refunded order that is still
 * open is cancelled and its customer told. Runs inside the event's transaction.
 */
export async function recordRefundEvent(
  trx: Executor,
  { orderId, provider, amountRefundedCents, refunds, publicUrl }: { orderId: string; provider: string; amountRefundedCents: number; refunds: ProviderRefund[] | null; publicUrl?: string },
): Promise<RefundEventOutcome> {
  const at = now();
  const providerActor: Actor = { id: null, email: provider === 'stripe' ? 'Stripe' : provider };
  if (refunds) {
    for (const refund of refunds) {
      const known = await trx
        .updateTable('refunds')
        .set({ status: refund.status, confirmed_at: refund.status === 'pending' ? null : at })
        .where('provider_refund_id', '=', refund.id)
        .executeTakeFirst();
      if (Number(known.numUpdatedRows) === 0 && refund.status !== 'failed') {
        await insertRefund(trx, { orderId, provider, refund, createdBy: null, at });
      }
    }
  } else {
    await trx.updateTable('refunds').set({ status: 'succeeded', confirmed_at: at }).where('order_id', '=', orderId).where('status', '=', 'pending').execute();
  }

  const known = await trx
    .selectFrom('refunds')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount_cents'), eb.lit(0)).as('n'))
    .where('order_id', '=', orderId)
    .where('status', '<>', 'failed')
    .executeTakeFirstOrThrow();
  const unknownCents = amountRefundedCents - Number(known.n);
  if (unknownCents > 0) {
    await insertRefund(trx, { orderId, provider, refund: { id: '', amountCents: unknownCents, status: 'succeeded' }, createdBy: null, at });
  }
  const order = await trx.selectFrom('orders').select(['total_cents', 'refunded_cents', 'shipping_status', 'currency']).where('id', '=', orderId).executeTakeFirstOrThrow();
  const refundedCents = Math.max(order.refunded_cents, amountRefundedCents);
  if (refundedCents === order.refunded_cents) return 'refund_confirmed';

  const closes = refundedCents >= order.total_cents && canCancel(order.shipping_status);
  await trx
    .updateTable('orders')
    .set({ refunded_cents: refundedCents, ...(closes ? { shipping_status: 'cancelled', cancelled_at: at } : {}) })
    .where('id', '=', orderId)
    .execute();
  await recordActivity(trx, providerActor, {
    action: closes ? 'order.cancelled' : 'order.refunded',
    subjectType: 'order',
    subjectId: orderId,
    subjectLabel: orderLabel(orderId),
    details: { refundCents: refundedCents - order.refunded_cents, currency: order.currency, ...(closes ? { from: order.shipping_status, to: 'cancelled' } : {}) },
  });
  if (!closes) return 'refund_recorded';
  const record = (await findOrderRecord(trx, orderId))!;
  await queueMail(trx, cancellationMail(record, refundedCents - order.refunded_cents, { publicUrl }));
  return 'order_cancelled';
}

/** The refunds of one order, oldest first (the order's page and timeline). */
export async function listRefunds(db: Executor, orderId: string) {
  const rows = await db.selectFrom('refunds').selectAll().where('order_id', '=', orderId).orderBy('created_at').execute();
  return rows.map((r) => ({
    id: r.id,
    providerRefundId: r.provider_refund_id,
    amountCents: r.amount_cents,
    status: r.status as ProviderRefund['status'],
    createdAt: r.created_at,
    confirmedAt: r.confirmed_at,
  }));
}

/**
 * The VAT in a refund: spread over the rates of what it gives back — the withdrawn lines (`positions`) and, with
 * the withdrawal that completes the order, its delivery; or the whole order with its delivery — in proportion to
 * what was charged at each (docs/decisions/0027).
 */
async function refundTax(trx: Executor, orderId: string, amountCents: number, positions?: readonly number[]): Promise<VatPart[]> {
  const [order, lines] = await Promise.all([findOrderRecord(trx, orderId), getOrderRecordLines(trx, orderId)]);
  if (positions) {
    const returned = lines.filter((l) => positions.includes(l.position)).flatMap((l) => (l.vat ? [l.vat] : []));
    const linesCents = returned.reduce((sum, p) => sum + p.grossCents, 0);
    // Beyond the lines' cost, the refund is the delivery's: back at the rates the delivery was charged at (under
    // OSS it follows all the order's goods, not only the lines withdrawn last).
    if (returned.length > 0 && amountCents > linesCents && order && order.deliveryVat.length > 0) {
      return sumByRate([...refundVat(returned, linesCents), ...refundVat(order.deliveryVat, amountCents - linesCents)]);
    }
    if (returned.length > 0) return refundVat(returned, amountCents);
  }
  // What is left of the order's charge per rate after its earlier refunds: a second refund (a cancellation after a
  // withdrawal of the 19% line) is spread over what remains, and the last one returns exactly the rest.
  const charged = sumByRate([...lines.flatMap((l) => (l.vat ? [l.vat] : [])), ...(order?.deliveryVat ?? [])]);
  const earlier = await trx.selectFrom('refunds').select('tax').where('order_id', '=', orderId).where('status', '<>', 'failed').execute();
  const refunded = sumByRate(earlier.flatMap((r) => vatPartsOf(r.tax)));
  const left = charged
    .map((part) => {
      const back = refunded.find((r) => r.rateBp === part.rateBp);
      const grossCents = Math.max(0, part.grossCents - (back?.grossCents ?? 0));
      const vatCents = Math.max(0, Math.min(grossCents, part.vatCents - (back?.vatCents ?? 0)));
      return { rateBp: part.rateBp, grossCents, netCents: grossCents - vatCents, vatCents };
    })
    .filter((part) => part.grossCents > 0);
  return refundVat(left.length > 0 ? left : charged, amountCents);
}

async function insertRefund(
  trx: Executor,
  { orderId, provider, refund, createdBy, at, positions }: { orderId: string; provider: string; refund: ProviderRefund; createdBy: string | null; at: string; positions?: readonly number[] },
): Promise<void> {
  const tax = await refundTax(trx, orderId, refund.amountCents, positions);
  await trx
    .insertInto('refunds')
    .values({
      id: newId(),
      order_id: orderId,
      provider,
      provider_refund_id: refund.id || null,
      amount_cents: refund.amountCents,
      status: refund.status,
      created_by: createdBy,
      created_at: at,
      confirmed_at: refund.status === 'succeeded' ? at : null,
      vat_cents: tax.reduce((sum, p) => sum + p.vatCents, 0),
      tax: JSON.stringify(tax),
    })
    .onConflict((oc) => oc.column('provider_refund_id').doNothing())
    .execute();
}

/** An invoiced order's refunds get their correcting invoices once recorded (never at the refund's expense: the sweep retries). */
async function correctAfterRefund(services: RefundServices, orderId: string): Promise<void> {
  await correctRefundedInvoices(services.db, { orderId, log: services.log });
}

export type WithdrawalRefundOutcome =
  | { ok: true; refundedCents: number }
  | { ok: false; reason: 'not_found' | 'already_refunded' }
  | { ok: false; reason: 'refund_failed'; code: 'declined' | 'not_refundable'; message: string }
  | { ok: false; reason: 'refund_unavailable' };

/**
 * Refunds what a withdrawal's lines cost (with the standard delivery when it completes the order's withdrawal),
 * through the provider that took the payment, once: the idempotency key is the withdrawal's, and the
 * withdrawal is marked refunded in the same transaction that records the refund and queues the mail. The
 * order keeps its status (a delivered order stays delivered, partly or fully refunded).
 */
export async function refundWithdrawal(
  services: RefundServices,
  actor: Actor,
  orderId: string,
  withdrawalId: string,
  { backToStock = false }: { backToStock?: boolean } = {},
): Promise<WithdrawalRefundOutcome> {
  if (!idPattern.test(orderId) || !idPattern.test(withdrawalId)) return { ok: false, reason: 'not_found' };
  const { db, payments, log } = services;
  const [withdrawal, order] = await Promise.all([
    getWithdrawal(db, withdrawalId),
    db.selectFrom('orders').select(['payment_status', 'payment_provider', 'payment_intent_id', 'total_cents', 'refunded_cents', 'currency']).where('id', '=', orderId).executeTakeFirst(),
  ]);
  if (!withdrawal || withdrawal.orderId !== orderId || !order || order.payment_status !== 'succeeded') return { ok: false, reason: 'not_found' };
  if (withdrawal.refundedAt) return { ok: false, reason: 'already_refunded' };
  const amountCents = Math.min(withdrawal.amountCents, order.total_cents - order.refunded_cents);
  let refund: ProviderRefund | null = null;
  if (amountCents > 0) {
    if (order.payment_provider !== payments.name || !order.payment_intent_id) {
      log?.error({ orderId, paidWith: order.payment_provider, configured: payments.name }, 'the order was paid through another payment provider');
      return { ok: false, reason: 'refund_unavailable' };
    }
    try {
      const result = await payments.refund({ paymentId: order.payment_intent_id, orderId, amountCents, idempotencyKey: `kopi-withdrawal-${withdrawalId}` });
      if (!result.ok) return { ok: false, reason: 'refund_failed', code: result.code, message: result.message };
      refund = { id: result.id, amountCents: result.amountCents, status: result.status };
    } catch (error) {
      if (!(error instanceof PaymentUnavailableError)) throw error;
      log?.warn({ orderId, errorName: error.name, cause: (error.cause as Error)?.message }, 'refund failed: the payment service did not answer');
      return { ok: false, reason: 'refund_unavailable' };
    }
  }
  let stockShown = false;
  return inTransaction(db, async (trx) => {
    const at = now();
    const marked = await trx
      .updateTable('withdrawals')
      .set({ refunded_cents: refund?.amountCents ?? 0, refunded_at: at })
      .where('id', '=', withdrawalId)
      .where('refunded_at', 'is', null)
      .executeTakeFirst();
    // Another admin's click got there first, with the same refund (the same idempotency key).
    if (Number(marked.numUpdatedRows) !== 1) return { ok: false, reason: 'already_refunded' } as const;
    if (refund) {
      await trx
        .updateTable('orders')
        .set((eb) => ({ refunded_cents: eb('refunded_cents', '+', refund.amountCents) }))
        .where('id', '=', orderId)
        .execute();
      const positions = withdrawal.lines.flatMap((line) => (line.position === undefined ? [] : [line.position]));
      await insertRefund(trx, { orderId, provider: payments.name, refund, createdBy: actor.id, at, positions: positions.length > 0 ? positions : undefined });
    }
    // The goods came back and the owner resells them: those lines, that many of each.
    const returned = withdrawal.lines.filter((line) => line.position !== undefined).map((line) => ({ position: line.position!, quantity: line.quantity }));
    const restocked = backToStock && returned.length > 0;
    if (restocked && (await returnToStock(trx, orderId, { lines: returned, actor: actor.email }))) {
      await bumpStoredCatalogVersion(trx);
      stockShown = true;
    }
    await recordActivity(trx, actor, {
      action: 'order.refunded',
      subjectType: 'order',
      subjectId: orderId,
      subjectLabel: orderLabel(orderId),
      details: { withdrawalId, refundCents: refund?.amountCents ?? 0, currency: order.currency, refundId: refund?.id ?? null, backToStock: restocked },
    });
    const record = (await findOrderRecord(trx, orderId))!;
    await queueMail(trx, withdrawalRefundMail(withdrawal, record, refund?.amountCents ?? 0, { publicUrl: services.publicUrl }));
    return { ok: true, refundedCents: refund?.amountCents ?? 0 } as const;
  })
    .then(async (outcome) => {
      if (outcome.ok) await correctAfterRefund(services, orderId);
      return outcome;
    })
    .finally(() => {
      if (stockShown) markCatalogChanged();
    });
}
