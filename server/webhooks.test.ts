import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import pino from 'pino';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '~/db/database.server';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { startPayment } from '~/modules/checkout/index.server';
import { address, pickup, cartLines, createCoffee, createUser, fillCart, mails } from '../tests/fixtures/shop';
import { type FakeStripe, paymentIntentJson, startFakeStripe } from '../tests/doubles/fake-stripe';
import { createStripePaymentProvider, createTestPaymentProvider, type PaymentProvider } from '~/modules/payments/index.server';
import { stripeWebhookRouter } from './webhooks';

const SECRET = 'whsec_kopi_webhook_test';
const log = pino({ level: 'silent' });

describe.each(testDatabases())('POST /webhooks/stripe on %s', (_kind, open) => {
  let handle: TestDatabase;
  let db: DB;
  let fake: FakeStripe;
  let provider: PaymentProvider;
  let server: Server;
  let base: string;
  let kicks = 0;

  beforeAll(async () => {
    handle = await open();
    db = handle.db;
    fake = await startFakeStripe();
    provider = createStripePaymentProvider({ secretKey: 'sk_test_kopi', publishableKey: 'pk_test_kopi', webhookSecret: SECRET, apiUrl: fake.url });
    const app = express();
    app.use(stripeWebhookRouter({ db, payments: provider, log, kickMail: () => kicks++, contactTo: 'shop@kopi.test' }));
    app.use(express.json());
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await fake.close();
    await handle.close();
  });

  async function pendingStripeOrder() {
    const product = await createCoffee(db, 'Kintamani', 1399);
    const user = await createUser(db);
    const cartId = await fillCart(db, user.id, [[product, 2]]);
    const started = await startPayment(db, provider, { userId: user.id, email: user.email, locale: 'en', currency: 'EUR', cartId, address, delivery: pickup });
    if (!started.ok) throw new Error(started.reason);
    return { user, cartId, started, product };
  }
  const succeededEvent = (id: string, paymentId: string, amount: number) =>
    JSON.stringify({
      id,
      object: 'event',
      api_version: '2025-01-27.acacia',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type: 'payment_intent.succeeded',
      data: { object: paymentIntentJson({ id: paymentId, amount, currency: 'eur', metadata: {}, status: 'succeeded', amountReceived: amount }) },
    });
  const post = (payload: string, signature?: string) =>
    fetch(`${base}/webhooks/stripe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
      body: payload,
    });
  const orderStatus = async (orderId: string) =>
    (await db.selectFrom('orders').select('payment_status').where('id', '=', orderId).executeTakeFirstOrThrow()).payment_status;

  it('marks the order paid once, however often the event is delivered', async () => {
    const { user, cartId, started } = await pendingStripeOrder();
    const payload = succeededEvent('evt_3x', started.paymentId, 2798);
    const sign = () => Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET });
    const responses = await Promise.all([post(payload, sign()), post(payload, sign()), post(payload, sign())]);
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);
    const outcomes = (await Promise.all(responses.map((r) => r.json() as Promise<{ outcome: string }>))).map((b) => b.outcome).sort();
    expect(outcomes).toEqual(['duplicate', 'duplicate', 'paid']);
    expect(await orderStatus(started.orderId)).toBe('succeeded');
    expect(await cartLines(db, cartId)).toEqual([]);
    expect((await mails(db)).filter((m) => m.to_address === user.email)).toHaveLength(1);
    expect(kicks).toBeGreaterThanOrEqual(1);
  });

  it('rejects forged, stale and missing signatures with 400 and changes nothing', async () => {
    const { user, cartId, started, product } = await pendingStripeOrder();
    const payload = succeededEvent('evt_forged', started.paymentId, 2798);
    const forged = Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_attacker' });
    const stale = Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET, timestamp: Math.floor(Date.now() / 1000) - 600 });
    const tampered = Stripe.webhooks.generateTestHeaderString({ payload: payload.replace('2798', '1'), secret: SECRET });
    for (const signature of [forged, stale, tampered, 't=1,v1=abc', undefined]) {
      const response = await post(payload, signature);
      expect(response.status).toBe(400);
    }
    expect(await orderStatus(started.orderId)).toBe('pending');
    expect(await cartLines(db, cartId)).toEqual([[product, 2]]);
    expect((await mails(db)).filter((m) => m.to_address === user.email)).toHaveLength(0);
    expect(await db.selectFrom('payment_events').select('event_id').where('event_id', '=', 'evt_forged').execute()).toHaveLength(0);
    // The same event, correctly signed, still goes through afterwards.
    const good = Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET });
    expect((await post(payload, good)).status).toBe(200);
    expect(await orderStatus(started.orderId)).toBe('succeeded');
  });

  it('answers 500 on an unexpected error so Stripe retries, and processes the retry', async () => {
    const { started } = await pendingStripeOrder();
    const payload = succeededEvent('evt_retry', started.paymentId, 2798);
    const broken = express();
    const failingDb = new Proxy(db, {
      get(target, prop, receiver) {
        if (prop === 'transaction') return () => ({ execute: async () => Promise.reject(new Error('database down')) });
        if (prop === 'isTransaction') return false;
        return Reflect.get(target, prop, receiver);
      },
    });
    broken.use(stripeWebhookRouter({ db: failingDb, payments: provider, log, kickMail: () => {}, contactTo: 'shop@kopi.test' }));
    const brokenServer = broken.listen(0, '127.0.0.1');
    await new Promise((resolve) => brokenServer.once('listening', resolve));
    const url = `http://127.0.0.1:${(brokenServer.address() as AddressInfo).port}/webhooks/stripe`;
    const sign = () => Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET });
    const failed = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': sign() }, body: payload });
    expect(failed.status).toBe(500);
    await new Promise((resolve) => brokenServer.close(resolve));
    expect(await orderStatus(started.orderId)).toBe('pending');
    expect((await post(payload, sign())).status).toBe(200);
    expect(await orderStatus(started.orderId)).toBe('succeeded');
  });

  it('is not found when Stripe is not the payment provider', async () => {
    const app = express();
    app.use(stripeWebhookRouter({ db, payments: createTestPaymentProvider(db), log, kickMail: () => {}, contactTo: 'shop@kopi.test' }));
    const s = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => s.once('listening', resolve));
    const response = await fetch(`http://127.0.0.1:${(s.address() as AddressInfo).port}/webhooks/stripe`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(404);
    await new Promise((resolve) => s.close(resolve));
  });
});
