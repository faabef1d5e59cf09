/**
 * Cancelling with a refund on SQLite and PostgreSQL: the test provider records the refund; Stripe is asked
 * through its Refunds API (its documented request, an idempotency key) against a local stand-in, and its
 * signed `charge.refunded` events confirm refunds, each event once. A refused or unreachable refund leaves
 * the order as it was; two admins at once make one refund, one change and one mail.
 */
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DB } from '~/db/database.server';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { type PaymentServices, handlePaymentEvent, payWithCard, settlePayment, startPayment } from '~/modules/checkout/index.server';
import { address, createCoffee, createUser, fillCart, courier, freeCourier } from '../../../tests/fixtures/shop';
import { listOrders } from '~/modules/orders/index.server';
import { type PaymentProvider, PaymentUnavailableError, TEST_CARDS, createStripePaymentProvider, createTestPaymentProvider } from '~/modules/payments/index.server';
import { type FakeStripe, chargeJson, startFakeStripe } from '../../../tests/doubles/fake-stripe';
import { cancelOrder, getOwnerOrder, moveOrder } from './index.server';
import { nullStorage } from '~/modules/storage/null-storage';

const owner = { id: 'owner-1', email: 'owner@kopi.test' };
const other = { id: 'owner-2', email: 'other@kopi.test' };
const card = (number: string) => ({ number, expMonth: 12, expYear: 2040, cvc: '123' });
const WEBHOOK_SECRET = 'whsec_kopi_refunds';

describe.each(testDatabases())('cancelling with a refund on %s', (_kind, open) => {
  let handle: TestDatabase;
  let db: DB;
  let coffee: string;
  let fake: FakeStripe;
  let testPayments: PaymentProvider;
  let stripe: ReturnType<typeof createStripePaymentProvider>;

  beforeAll(async () => {
    handle = await open();
    db = handle.db;
    await freeCourier(db);
    coffee = await createCoffee(db, 'Gayo', 1250);
    testPayments = createTestPaymentProvider(db);
    fake = await startFakeStripe();
    stripe = createStripePaymentProvider({ secretKey: 'sk_test_kopi', publishableKey: 'pk_test_kopi', webhookSecret: WEBHOOK_SECRET, apiUrl: fake.url });
  });
  afterAll(async () => {
    await fake.close();
    await handle.close();
  });
  beforeEach(() => {
    fake.failWith = 0;
    fake.refundStatus = 'succeeded';
  });

  const services = (payments: PaymentProvider): PaymentServices => ({ db, payments, contactTo: 'shop@kopi.test', kickMail: () => {}, publicUrl: 'https://kopi.test/' });

  /** A customer's order of `quantity` bags paid with `number` through the test provider's card form. */
  async function paidWithCard(quantity: number, number: string = TEST_CARDS.success, locale: 'en' | 'pl' = 'en') {
    const user = await createUser(db);
    const started = await startPayment(db, testPayments, { userId: user.id, email: user.email, locale, currency: 'EUR', cartId: await fillCart(db, user.id, [[coffee, quantity]]), address, delivery: courier });
    if (!started.ok) throw new Error(started.reason);
    const paid = await payWithCard(services(testPayments), { userId: user.id, orderId: started.orderId, card: card(number) });
    if (!paid.ok) throw new Error(paid.code);
    return { id: started.orderId, user };
  }

  /** The same, paid through Stripe (the stand-in marks the PaymentIntent succeeded, its webhook settles the order). */
  async function paidWithStripe(quantity: number) {
    const user = await createUser(db);
    const started = await startPayment(db, stripe, { userId: user.id, email: user.email, locale: 'pl', currency: 'EUR', cartId: await fillCart(db, user.id, [[coffee, quantity]]), address, delivery: courier });
    if (!started.ok) throw new Error(started.reason);
    fake.setStatus(started.paymentId, 'succeeded');
    await settlePayment(services(stripe), (_trx, markPaid) => markPaid(started.paymentId));
    return { id: started.orderId, paymentId: started.paymentId, user };
  }

  const order = (id: string) => db.selectFrom('orders').select(['shipping_status', 'refunded_cents', 'cancelled_at']).where('id', '=', id).executeTakeFirstOrThrow();
  const refundsOf = (id: string) => db.selectFrom('refunds').select(['amount_cents', 'status', 'provider_refund_id', 'created_by']).where('order_id', '=', id).orderBy('created_at').execute();
  const cancelMails = (email: string) =>
    db.selectFrom('mail_outbox').select(['subject', 'text_body']).where('to_address', '=', email).where('subject', 'like', '%cancel%').execute();
  const anulowane = (email: string) =>
    db.selectFrom('mail_outbox').select(['subject', 'text_body']).where('to_address', '=', email).where('subject', 'like', '%anulowane%').execute();
  const activity = (id: string) => db.selectFrom('activity_log').select(['action', 'actor_email', 'details']).where('subject_id', '=', id).orderBy('created_at').execute();

  function signedEvent(type: string, object: unknown) {
    const payload = JSON.stringify({ id: `evt_${Math.random().toString(36).slice(2)}`, object: 'event', api_version: '2025-09-30.clover', created: 1700000000, livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null }, type, data: { object } });
    return stripe.parseWebhook(Buffer.from(payload), Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }));
  }

  it('test provider: cancelling a processing order refunds it in full, mails the customer once in their language, and My Orders shows it', async () => {
    const { id, user } = await paidWithCard(2, TEST_CARDS.success, 'pl');
    expect(await cancelOrder(services(testPayments), owner, id)).toEqual({ ok: true, refundedCents: 2500 });
    expect(await order(id)).toMatchObject({ shipping_status: 'cancelled', refunded_cents: 2500 });
    expect(await refundsOf(id)).toEqual([expect.objectContaining({ amount_cents: 2500, status: 'succeeded', created_by: owner.id })]);
    expect((await refundsOf(id))[0].provider_refund_id).toMatch(/^tr_/);
    expect(await db.selectFrom('test_refunds').select('amount_cents').where('payment_id', 'in', db.selectFrom('orders').select('payment_intent_id').where('id', '=', id)).execute()).toEqual([{ amount_cents: 2500 }]);
    const mails = await anulowane(user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].text_body).toContain('Zwróciliśmy 25,00');
    expect((await activity(id)).map((a) => [a.action, a.actor_email, JSON.parse(a.details).refundCents])).toEqual([['order.cancelled', owner.email, 2500]]);
    const [view] = (await listOrders(db, nullStorage, user.id, { limit: 10 })).orders;
    expect(view).toMatchObject({ shippingStatus: 'cancelled', refundedCents: 2500 });
    const page = await getOwnerOrder(db, nullStorage, id);
    expect(page?.timeline.find((e) => e.kind === 'cancelled')).toMatchObject({ by: owner.email, amountCents: 2500 });
  });

  it('cancels from shipped; refuses after delivery, after cancelling, and for an unpaid or unknown order', async () => {
    const shipped = await paidWithCard(1);
    expect(await moveOrder({ db }, owner, shipped.id, { to: 'shipped', carrier: 'dpd', trackingNumber: '' })).toEqual({ ok: true });
    expect(await cancelOrder(services(testPayments), owner, shipped.id)).toEqual({ ok: true, refundedCents: 1250 });
    expect(await cancelOrder(services(testPayments), owner, shipped.id)).toEqual({ ok: false, reason: 'not_allowed', from: 'cancelled' });
    expect(await moveOrder({ db }, owner, shipped.id, { to: 'delivered' })).toMatchObject({ ok: false, reason: 'not_allowed', from: 'cancelled' });

    const delivered = await paidWithCard(1);
    await moveOrder({ db }, owner, delivered.id, { to: 'shipped', carrier: 'dpd', trackingNumber: '' });
    await moveOrder({ db }, owner, delivered.id, { to: 'delivered' });
    expect(await cancelOrder(services(testPayments), owner, delivered.id)).toEqual({ ok: false, reason: 'not_allowed', from: 'delivered' });
    expect(await refundsOf(delivered.id)).toEqual([]);

    const user = await createUser(db);
    const pending = await startPayment(db, testPayments, { userId: user.id, email: user.email, locale: 'en', currency: 'EUR', cartId: await fillCart(db, user.id, [[coffee, 1]]), address, delivery: courier });
    if (!pending.ok) throw new Error(pending.reason);
    expect(await cancelOrder(services(testPayments), owner, pending.orderId)).toEqual({ ok: false, reason: 'not_found' });
    expect(await cancelOrder(services(testPayments), owner, 'nope')).toEqual({ ok: false, reason: 'not_found' });
    expect(await cancelOrder(services(testPayments), owner, '../x')).toEqual({ ok: false, reason: 'not_found' });
  });

  it('two admins cancelling at once make one refund, one change and one mail', async () => {
    const { id, user } = await paidWithCard(3);
    const outcomes = await Promise.all([cancelOrder(services(testPayments), owner, id), cancelOrder(services(testPayments), other, id)]);
    expect(outcomes.filter((o) => o.ok)).toEqual([{ ok: true, refundedCents: 3750 }]);
    expect(outcomes.filter((o) => !o.ok)).toEqual([{ ok: false, reason: 'not_allowed', from: 'cancelled' }]);
    expect(await refundsOf(id)).toHaveLength(1);
    const paymentId = (await db.selectFrom('orders').select('payment_intent_id').where('id', '=', id).executeTakeFirstOrThrow()).payment_intent_id!;
    expect(await db.selectFrom('test_refunds').selectAll().where('payment_id', '=', paymentId).execute()).toHaveLength(1);
    expect(await cancelMails(user.email)).toHaveLength(1);
    expect((await activity(id)).map((a) => a.action)).toEqual(['order.cancelled']);
  });

  it('a refused refund leaves the order as it was and says why; so does a payment service that does not answer', async () => {
    const { id, user } = await paidWithCard(1, TEST_CARDS.refundFails);
    expect(await cancelOrder(services(testPayments), owner, id)).toEqual({ ok: false, reason: 'refund_failed', code: 'declined', message: "The card's bank refused the refund." });
    const down: PaymentProvider = {
      ...testPayments,
      refund: () => Promise.reject(new PaymentUnavailableError('connection refused')),
    };
    const other = await paidWithCard(1);
    expect(await cancelOrder(services(down), owner, other.id)).toEqual({ ok: false, reason: 'refund_unavailable' });
    for (const orderId of [id, other.id]) {
      expect(await order(orderId)).toEqual({ shipping_status: 'processing', refunded_cents: 0, cancelled_at: null });
      expect(await refundsOf(orderId)).toEqual([]);
      expect(await activity(orderId)).toEqual([]);
    }
    expect(await cancelMails(user.email)).toEqual([]);
  });

  it('Stripe: refunds through the Refunds API with an idempotency key; its signed charge.refunded confirms it, once', async () => {
    fake.refundStatus = 'pending';
    const { id, paymentId, user } = await paidWithStripe(2);
    fake.requests.length = 0;
    expect(await cancelOrder(services(stripe), owner, id)).toEqual({ ok: true, refundedCents: 2500 });
    const request = fake.requests.find((r) => r.path === '/v1/refunds')!;
    expect(request.method).toBe('POST');
    expect(request.headers['idempotency-key']).toBe(`kopi-cancel-${id}-0`);
    expect(Object.fromEntries(request.body)).toMatchObject({ payment_intent: paymentId, amount: '2500', reason: 'requested_by_customer', 'metadata[order_id]': id });
    const [refund] = await refundsOf(id);
    expect(refund).toMatchObject({ amount_cents: 2500, status: 'pending' });
    expect(refund.provider_refund_id).toMatch(/^re_/);
    expect(await anulowane(user.email)).toHaveLength(1);

    const event = signedEvent('charge.refunded', chargeJson({ paymentIntent: paymentId, amount: 2500, amountRefunded: 2500 }));
    expect(event).toMatchObject({ kind: 'refunded', paymentId, amountRefundedCents: 2500, refunds: null });
    expect(await handlePaymentEvent(services(stripe), event)).toBe('refund_confirmed');
    expect(await handlePaymentEvent(services(stripe), event)).toBe('duplicate');
    expect(await refundsOf(id)).toEqual([expect.objectContaining({ amount_cents: 2500, status: 'succeeded' })]);
    expect(await order(id)).toMatchObject({ shipping_status: 'cancelled', refunded_cents: 2500 });
    expect(await anulowane(user.email)).toHaveLength(1);
    expect((await getOwnerOrder(db, nullStorage, id))?.timeline.map((e) => e.kind)).toContain('refund_confirmed');
  });

  it('Stripe: two admins cancelling at once send one idempotency key, so Stripe makes one refund; one change, one mail', async () => {
    const { id, user } = await paidWithStripe(1);
    fake.requests.length = 0;
    const outcomes = await Promise.all([cancelOrder(services(stripe), owner, id), cancelOrder(services(stripe), other, id)]);
    expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
    const keys = fake.requests.filter((r) => r.path === '/v1/refunds').map((r) => r.headers['idempotency-key']);
    expect(new Set(keys)).toEqual(new Set([`kopi-cancel-${id}-0`]));
    expect([...fake.refunds.values()].filter((r) => (r.metadata as Record<string, string>)?.order_id === id)).toHaveLength(1);
    expect(await refundsOf(id)).toHaveLength(1);
    expect(await anulowane(user.email)).toHaveLength(1);
  });

  it('Stripe: a refund made in its dashboard is recorded from charge.refunded; a full one cancels the order and mails the customer', async () => {
    const partly = await paidWithStripe(2);
    expect(await handlePaymentEvent(services(stripe), signedEvent('charge.refunded', chargeJson({ paymentIntent: partly.paymentId, amount: 2500, amountRefunded: 1000 })))).toBe('refund_recorded');
    expect(await order(partly.id)).toMatchObject({ shipping_status: 'processing', refunded_cents: 1000 });
    expect(await refundsOf(partly.id)).toEqual([{ amount_cents: 1000, status: 'succeeded', provider_refund_id: null, created_by: null }]);
    // The rest, later: the order is now fully refunded, so it is cancelled.
    expect(await handlePaymentEvent(services(stripe), signedEvent('charge.refunded', chargeJson({ paymentIntent: partly.paymentId, amount: 2500, amountRefunded: 2500 })))).toBe('order_cancelled');
    expect(await order(partly.id)).toMatchObject({ shipping_status: 'cancelled', refunded_cents: 2500 });
    expect((await refundsOf(partly.id)).map((r) => r.amount_cents)).toEqual([1000, 1500]);
    expect((await activity(partly.id)).map((a) => [a.action, a.actor_email])).toEqual([
      ['order.refunded', 'Stripe'],
      ['order.cancelled', 'Stripe'],
    ]);
    expect(await anulowane(partly.user.email)).toHaveLength(1);
    // Cancelling it in Kopi now is refused: there is nothing left to do.
    expect(await cancelOrder(services(stripe), owner, partly.id)).toEqual({ ok: false, reason: 'not_allowed', from: 'cancelled' });
  });

  it('Stripe: a refused refund (already refunded at Stripe) and an outage leave the order unchanged', async () => {
    const { id, paymentId } = await paidWithStripe(1);
    fake.refunds.set('re_dashboard', { id: 're_dashboard', object: 'refund', amount: 1250, payment_intent: paymentId, status: 'succeeded' });
    const refused = await cancelOrder(services(stripe), owner, id);
    expect(refused).toMatchObject({ ok: false, reason: 'refund_failed', code: 'not_refundable' });
    expect((refused as { message: string }).message).toMatch(/already been refunded/);
    fake.refunds.delete('re_dashboard');
    fake.failWith = 500;
    const quick = createStripePaymentProvider({ secretKey: 'sk_test_kopi', publishableKey: 'pk', webhookSecret: WEBHOOK_SECRET, apiUrl: fake.url, timeoutMs: 2000 });
    expect(await cancelOrder(services(quick), owner, id)).toEqual({ ok: false, reason: 'refund_unavailable' });
    expect(await order(id)).toEqual({ shipping_status: 'processing', refunded_cents: 0, cancelled_at: null });
    expect(await refundsOf(id)).toEqual([]);
  });
});
