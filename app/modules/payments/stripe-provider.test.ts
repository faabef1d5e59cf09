import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeStripe, startFakeStripe } from '../../../tests/doubles/fake-stripe';
import { createPaymentProvider, createStripePaymentProvider, type StripePaymentProvider } from './index.server';

const WEBHOOK_SECRET = 'whsec_test_kopi_secret';

describe('stripe provider', () => {
  let fake: FakeStripe;
  let provider: StripePaymentProvider;
  beforeAll(async () => {
    fake = await startFakeStripe();
    provider = createStripePaymentProvider({ secretKey: 'sk_test_kopi', publishableKey: 'pk_test_kopi', webhookSecret: WEBHOOK_SECRET, apiUrl: fake.url });
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.requests.length = 0;
    fake.failWith = 0;
  });

  it('creates a PaymentIntent in cents and euros, with metadata and the idempotency key', async () => {
    const result = await provider.createPayment({
      orderId: 'ord_123',
      amountCents: 2149,
      currency: 'EUR',
      customerEmail: 'ola@example.com',
      idempotencyKey: 'kopi-order-ord_123',
      metadata: { customer_id: 'user_1' },
    });
    expect(result.paymentId).toMatch(/^pi_/);
    expect(result.clientSecret).toBe(`${result.paymentId}_secret_Y9ZpTf0QdF0kzLmS0DtlNq2xm`);
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v1/payment_intents');
    expect(request.headers['idempotency-key']).toBe('kopi-order-ord_123');
    expect(request.headers.authorization).toBe('Bearer sk_test_kopi');
    expect(request.headers['content-type']).toContain('application/x-www-form-urlencoded');
    expect(request.body.get('amount')).toBe('2149');
    expect(request.body.get('currency')).toBe('eur');
    expect(request.body.get('automatic_payment_methods[enabled]')).toBe('true');
    expect(request.body.get('metadata[order_id]')).toBe('ord_123');
    expect(request.body.get('metadata[customer_email]')).toBe('ola@example.com');
    expect(request.body.get('metadata[customer_id]')).toBe('user_1');
  });

  it('gets the same PaymentIntent back for the same idempotency key', async () => {
    const input = { orderId: 'ord_9', amountCents: 500, currency: 'EUR' as const, customerEmail: 'a@example.com', idempotencyKey: 'kopi-order-ord_9', metadata: {} };
    const [a, b] = await Promise.all([provider.createPayment(input), provider.createPayment(input)]);
    expect(a).toEqual(b);
  });

  it('retrieves the status and amount', async () => {
    const { paymentId } = await provider.createPayment({ orderId: 'o2', amountCents: 1250, currency: 'EUR', customerEmail: 'a@example.com', idempotencyKey: 'k-o2', metadata: {} });
    expect(await provider.retrievePayment(paymentId)).toEqual({ status: 'requires_payment_method', amountCents: 1250, currency: 'eur' });
    fake.setStatus(paymentId, 'succeeded');
    expect(await provider.retrievePayment(paymentId)).toEqual({ status: 'succeeded', amountCents: 1250, currency: 'eur' });
    fake.setStatus(paymentId, 'requires_capture');
    expect((await provider.retrievePayment(paymentId)).status).toBe('processing');
    expect(fake.requests.at(-1)?.path).toBe(`/v1/payment_intents/${paymentId}`);
  });

  it('reports an outage as unavailable', async () => {
    const down = createStripePaymentProvider({ secretKey: 'sk_test_kopi', publishableKey: 'pk', webhookSecret: WEBHOOK_SECRET, apiUrl: fake.url });
    fake.failWith = 500;
    await expect(down.createPayment({ orderId: 'o3', amountCents: 100, currency: 'EUR', customerEmail: 'a@example.com', idempotencyKey: 'k-o3', metadata: {} })).rejects.toThrow(
      /did not create/,
    );
    expect(await down.checkHealth()).toBe(false);
    fake.failWith = 0;
    expect(await down.checkHealth()).toBe(true);
    const badKey = createStripePaymentProvider({ secretKey: 'sk_test_wrong', publishableKey: 'pk', webhookSecret: WEBHOOK_SECRET, apiUrl: fake.url });
    expect(await badKey.checkHealth()).toBe(false);
  });

  it('verifies webhook signatures offline: good, forged, stale', () => {
    const payload = JSON.stringify({ id: 'evt_1', object: 'event', type: 'payment_intent.succeeded', data: { object: { id: 'pi_1', object: 'payment_intent' } } });
    const good = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    expect(provider.parseWebhook(Buffer.from(payload), good).id).toBe('evt_1');
    const forged = Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_someone_else' });
    expect(() => provider.parseWebhook(Buffer.from(payload), forged)).toThrow();
    const stale = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp: Math.floor(Date.now() / 1000) - 3600 });
    expect(() => provider.parseWebhook(Buffer.from(payload), stale)).toThrow();
    expect(() => provider.parseWebhook(Buffer.from(payload.replace('pi_1', 'pi_2')), good)).toThrow();
  });

  it('refuses a signed event dated ahead of the clock by more than the tolerance, however its header is written', () => {
    const payload = JSON.stringify({ id: 'evt_2', object: 'event', type: 'payment_intent.succeeded', data: { object: { id: 'pi_1', object: 'payment_intent' } } });
    const now = Math.floor(Date.now() / 1000);
    const signed = (timestamp: number) => Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp });
    // A clock a minute apart is fine either way.
    expect(provider.parseWebhook(Buffer.from(payload), signed(now + 60)).id).toBe('evt_2');
    expect(provider.parseWebhook(Buffer.from(payload), signed(now - 60)).id).toBe('evt_2');
    // Ten minutes ahead: refused, as ten minutes behind is.
    expect(() => provider.parseWebhook(Buffer.from(payload), signed(now + 600))).toThrow(/tolerance/);
    expect(() => provider.parseWebhook(Buffer.from(payload), signed(now - 600))).toThrow(/tolerance/);
    // A second t= before the signed one does not hide it.
    expect(() => provider.parseWebhook(Buffer.from(payload), `t=${now},${signed(now + 600)}`)).toThrow();
  });

  it('is chosen by the configuration', () => {
    const stripe = createPaymentProvider(
      { payments: { provider: 'stripe', stripeSecretKey: 'sk_test_kopi', stripePublishableKey: 'pk_test_kopi', stripeWebhookSecret: WEBHOOK_SECRET } },
      null as never,
    );
    expect(stripe.name).toBe('stripe');
    expect(stripe.publishableKey).toBe('pk_test_kopi');
    expect(() => createPaymentProvider({ payments: { provider: 'stripe' } }, null as never)).toThrow(/STRIPE_SECRET_KEY/);
    expect(createPaymentProvider({ payments: { provider: 'test' } }, null as never).name).toBe('test');
  });
});
