import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '~/db/database.server';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { getProfile, updateProfile } from '~/modules/accounts/index.server';
import { defaultVariantOf } from '~/modules/cart/index.server';
import { deleteProduct, updateProduct } from '~/modules/catalog/index.server';
import { getOrderForUser, orderLabel } from '~/modules/orders/index.server';
import { countEvents } from '~/modules/analytics/index.server';
import { type FakeStripe, paymentIntentJson, startFakeStripe } from '../../../tests/doubles/fake-stripe';
import { TEST_CARDS, createStripePaymentProvider, createTestPaymentProvider, type PaymentProvider } from '~/modules/payments/index.server';
import { toPaymentEvent } from '~/modules/payments/stripe-provider.server';
import {
  type PaymentServices,
  cartFingerprint,
  confirmOrderPayment,
  handlePaymentEvent,
  parseShippingForm,
  parseTestCardForm,
  payWithCard,
  reviewCheckout,
  settlePayment,
  startPayment,
} from './index.server';
import { address, courier, pickup, cartLines, createCoffee, createUser, fillCart, mails, storage } from '../../../tests/fixtures/shop';

const card = (number: string) => ({ number, expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: '123' });
const mail = { contactTo: 'shop@kopi.test', publicUrl: 'https://kopi.test' };

/** A Stripe event as the Stripe provider hands it to the shop (verified and translated into Kopi's terms). */
function intentEvent(id: string, type: string, intent: Record<string, unknown>) {
  return toPaymentEvent({ id, object: 'event', type, created: 1, livemode: false, api_version: null, pending_webhooks: 1, request: null, data: { object: intent } } as unknown as Stripe.Event);
}

describe('checkout forms', () => {
  it('parses the shipping address and reports missing fields', () => {
    expect(parseShippingForm({ fullName: ' Ola ', address: 'a', city: 'b', zipCode: 'c' })).toEqual({
      ok: true,
      data: { fullName: 'Ola', address: 'a', city: 'b', zipCode: 'c' },
    });
    expect(parseShippingForm({ fullName: '', address: 'a', city: '', zipCode: 'c' })).toEqual({
      ok: false,
      fieldErrors: { fullName: 'checkout.errors.fullNameRequired', city: 'checkout.errors.cityRequired' },
    });
  });
  it('parses the test card form', () => {
    expect(parseTestCardForm({ cardNumber: '4242 4242 4242 4242', cardExpiry: '12 / 34', cardCvc: '123' })).toEqual({
      ok: true,
      data: { number: '4242424242424242', expMonth: 12, expYear: 2034, cvc: '123' },
    });
    // A numeric keypad has no slash: the digits alone, as the browser without JavaScript sends them.
    for (const [cardExpiry, expYear] of [['1230', 2030], ['122031', 2031], ['12/2032', 2032]] as const) {
      expect(parseTestCardForm({ cardNumber: '4242424242424242', cardExpiry, cardCvc: '123' })).toMatchObject({ ok: true, data: { expMonth: 12, expYear } });
    }
    for (const cardExpiry of ['123', '12345', '1330', '0030', '12/3']) {
      expect(parseTestCardForm({ cardNumber: '4242424242424242', cardExpiry, cardCvc: '123' }), cardExpiry).toMatchObject({ ok: false });
    }
    expect(parseTestCardForm({ cardNumber: '4242', cardExpiry: '13/30', cardCvc: '1' })).toEqual({
      ok: false,
      fieldErrors: { cardNumber: 'checkout.errors.invalid_number', cardExpiry: 'checkout.errors.invalid_expiry', cardCvc: 'checkout.errors.invalid_cvc' },
    });
  });
});

describe.each(testDatabases())('checkout on %s', (_kind, open) => {
  let handle: TestDatabase;
  let db: DB;
  let provider: PaymentProvider;
  let services: PaymentServices & { kicks: number };
  let gayo: string;
  let java: string;
  beforeAll(async () => {
    handle = await open();
    db = handle.db;
    provider = createTestPaymentProvider(db);
    services = servicesFor(provider);
    gayo = await createCoffee(db, 'Gayo', 1250, ['products/gayo']);
    java = await createCoffee(db, 'Java <Estate>', 899);
  });
  afterAll(() => handle.close());

  const servicesFor = (payments: PaymentProvider) => {
    const s = { db, payments, ...mail, kicks: 0, kickMail: () => void s.kicks++ };
    return s;
  };

  async function customer(items: Array<[string, number]>) {
    const user = await createUser(db);
    const cartId = await fillCart(db, user.id, items);
    return { ...user, userId: user.id, cartId };
  }
  const start = (c: Awaited<ReturnType<typeof customer>>, extra: Partial<Parameters<typeof startPayment>[2]> = {}) =>
    startPayment(db, provider, { userId: c.id, email: c.email, locale: 'en', currency: 'EUR', cartId: c.cartId, address, delivery: pickup, ...extra });
  const ordersOf = (userId: string) => db.selectFrom('orders').selectAll().where('user_id', '=', userId).execute();
  const mailsTo = async (to: string) => (await mails(db)).filter((m) => m.to_address === to);

  it('reviews the cart at current prices with the profile address', async () => {
    const c = await customer([[gayo, 2]]);
    let review = await reviewCheckout(db, storage, { userId: c.id, cartId: c.cartId, locale: 'en', currency: 'EUR' });
    expect(review.cart.totalCents).toBe(2500);
    expect(review.addressComplete).toBe(false);
    expect(review.address).toEqual({ fullName: '', address: '', city: '', zipCode: '' });
    await updateProfile(db, c.id, { ...(await getProfile(db, c.id)), ...address });
    review = await reviewCheckout(db, storage, { userId: c.id, cartId: c.cartId, locale: 'en', currency: 'EUR' });
    expect(review.addressComplete).toBe(true);
    expect(review.address).toEqual(address);
  });

  it('refuses an empty cart and an incomplete address', async () => {
    const c = await customer([]);
    expect(await start(c)).toEqual({ ok: false, reason: 'empty_cart' });
    expect(await start({ ...c, cartId: null as never })).toEqual({ ok: false, reason: 'empty_cart' });
    const d = await customer([[gayo, 1]]);
    expect(await start(d, { address: { ...address, city: ' ' }, delivery: courier })).toEqual({ ok: false, reason: 'address_incomplete' });
    // A pickup needs only the name.
    expect(await start(d, { address: { ...address, fullName: ' ' } })).toEqual({ ok: false, reason: 'address_incomplete' });
    expect(await ordersOf(d.id)).toHaveLength(0);
  });

  it('creates a pending order priced on the server and saves the address to the profile', async () => {
    const c = await customer([
      [gayo, 2],
      [java, 1],
    ]);
    // 33.99 € of goods without weights: the parcel is its packaging, the courier's first band, 4.99 €.
    const result = await start(c, { expectedTotalCents: 3898, delivery: { ...courier, phone: '+48600100200' } });
    if (!result.ok) throw new Error(result.reason);
    expect(result).toMatchObject({ amountCents: 3898, pricesChanged: false, removedVariantIds: [] });
    expect(result.paymentId).toMatch(/^tp_/);
    const [order] = await ordersOf(c.id);
    expect(order).toMatchObject({
      id: result.orderId,
      user_email: c.email,
      total_cents: 3898,
      goods_cents: 3399,
      delivery_cents: 499,
      delivery_kind: 'courier',
      delivery_method_id: courier.methodId,
      delivery_country: 'PL',
      shipping_phone: '+48600100200',
      currency: 'EUR',
      payment_provider: 'test',
      payment_intent_id: result.paymentId,
      payment_status: 'pending',
      shipping_status: 'processing',
      shipping_city: 'Kraków',
      paid_at: null,
    });
    const lines = await db.selectFrom('order_lines').selectAll().where('order_id', '=', order.id).orderBy('position').execute();
    expect(lines.map((l) => [l.product_id, l.title, l.unit_price_cents, l.quantity, l.image])).toEqual([
      [gayo, 'Gayo', 1250, 2, 'products/gayo'],
      [java, 'Java <Estate>', 899, 1, null],
    ]);
    expect(await getProfile(db, c.id)).toMatchObject({ ...address, deliveryAddress: address.address, deliveryCity: address.city });
    // Going back and proceeding again reuses the order and its payment.
    const again = await start(c, { address: { ...address, address: 'ul. Nowa 1' }, delivery: { ...courier, phone: '+48600100200' } });
    expect(again).toMatchObject({ ok: true, orderId: result.orderId, paymentId: result.paymentId, clientSecret: result.clientSecret });
    expect((await ordersOf(c.id))[0].shipping_address).toBe('ul. Nowa 1');
    expect(await db.selectFrom('test_payments').select('id').where('order_id', '=', result.orderId).execute()).toHaveLength(1);
  });

  it('two tabs paying the same cart: one order, one payment, one charge', async () => {
    const c = await customer([[gayo, 1]]);
    const results = await Promise.all([start(c), start(c), start(c)]);
    const ids = new Set(results.map((r) => (r.ok ? `${r.orderId}/${r.paymentId}` : r.reason)));
    expect(ids.size).toBe(1);
    expect(await ordersOf(c.id)).toHaveLength(1);
    const orderId = results[0].ok ? results[0].orderId : '';
    expect(await db.selectFrom('test_payments').select('id').where('order_id', '=', orderId).execute()).toHaveLength(1);
    const paid = await Promise.all([
      payWithCard(services, { userId: c.id, orderId, card: card(TEST_CARDS.success) }),
      payWithCard(services, { userId: c.id, orderId, card: card(TEST_CARDS.success) }),
    ]);
    expect(paid.filter((p) => p.ok)).toHaveLength(1);
    expect(paid.find((p) => !p.ok)).toEqual({ ok: false, code: 'already_paid' });
    expect(await mailsTo(c.email)).toHaveLength(1);
  });

  it('a different cart makes a different order', async () => {
    const c = await customer([[gayo, 1]]);
    const first = await start(c);
    await fillCart(db, c.id, [[java, 1]]);
    const second = await start(c);
    expect(first.ok && second.ok && first.orderId !== second.orderId).toBe(true);
    expect(second.ok && second.amountCents).toBe(2149);
  });

  it('prices changed between cart and payment: the server amount wins', async () => {
    const product = await createCoffee(db, 'Toraja', 1000);
    const c = await customer([[product, 2]]);
    const seen = (await reviewCheckout(db, storage, { userId: c.id, cartId: c.cartId, locale: 'en', currency: 'EUR' })).cart.totalCents;
    expect(seen).toBe(2000);
    await updateProduct(db, product, { category: 'wholeBean', priceCents: 1500, translations: { en: { name: 'Toraja', description: '' } } });
    const result = await start(c, { expectedTotalCents: seen });
    expect(result).toMatchObject({ ok: true, amountCents: 3000, pricesChanged: true });
    const payment = result.ok ? await provider.retrievePayment(result.paymentId) : null;
    expect(payment?.amountCents).toBe(3000);
  });

  it('a product deleted while in the cart: the line is dropped and reported', async () => {
    const doomed = await createCoffee(db, 'Flores', 700);
    const c = await customer([
      [gayo, 1],
      [doomed, 3],
    ]);
    const doomedVariant = (await defaultVariantOf(db, doomed))!;
    await deleteProduct(db, doomed);
    const result = await start(c);
    expect(result).toMatchObject({ ok: true, amountCents: 1250, removedVariantIds: [doomedVariant] });
    expect(await cartLines(db, c.cartId)).toEqual([[gayo, 1]]);
  });

  it('pays with the test card: order paid, cart emptied, mails queued in the customer language', async () => {
    const c = await customer([
      [gayo, 2],
      [java, 1],
    ]);
    const started = await startPayment(db, provider, { userId: c.id, email: c.email, locale: 'pl', currency: 'EUR', cartId: c.cartId, address, delivery: courier });
    if (!started.ok) throw new Error(started.reason);
    // Declined and insufficient funds leave the cart and the pending order intact.
    for (const [number, code] of [
      [TEST_CARDS.declined, 'card_declined'],
      [TEST_CARDS.insufficientFunds, 'insufficient_funds'],
      ['4242424242424241', 'invalid_number'],
    ] as const) {
      expect(await payWithCard(services, { userId: c.id, orderId: started.orderId, card: card(number) })).toEqual({ ok: false, code });
    }
    expect((await ordersOf(c.id))[0].payment_status).toBe('pending');
    expect(await cartLines(db, c.cartId)).toEqual([
      [gayo, 2],
      [java, 1],
    ]);
    expect(await mailsTo(c.email)).toHaveLength(0);

    // Someone else cannot pay (or see) this order.
    const stranger = await createUser(db);
    expect(await payWithCard(services, { userId: stranger.id, orderId: started.orderId, card: card(TEST_CARDS.success) })).toEqual({
      ok: false,
      code: 'not_found',
    });

    // A quantity added after starting the payment stays in the cart.
    await fillCart(db, c.id, [[gayo, 1]]);
    expect(await payWithCard(services, { userId: c.id, orderId: started.orderId, card: card(TEST_CARDS.success) })).toEqual({
      ok: true,
      orderId: started.orderId,
    });
    const [order] = await ordersOf(c.id);
    expect(order.payment_status).toBe('succeeded');
    expect(order.shipping_status).toBe('processing');
    expect(order.paid_at).not.toBeNull();
    expect(await cartLines(db, c.cartId)).toEqual([[gayo, 1]]);

    const [confirmation] = await mailsTo(c.email);
    const label = started.orderId.slice(-6).toUpperCase();
    expect(confirmation.subject).toBe(`Twoje zamówienie Kopi ${label}`);
    expect(confirmation.text_body).toContain('2 × Gayo PL');
    expect(confirmation.text_body).toContain('Produkty: 33,99');
    expect(confirmation.text_body).toContain('Dostawa: Kurier — 4,99');
    expect(confirmation.text_body).toContain('38,98');
    expect(confirmation.text_body).toContain('ul. Kwiatowa 5');
    expect(confirmation.text_body).toContain('30-001 Kraków');
    expect(confirmation.html_body).toContain('Java &lt;Estate&gt; PL');
    expect(confirmation.html_body).not.toContain('<Estate>');
    expect(confirmation.status).toBe('queued');
    const shop = (await mailsTo(mail.contactTo)).filter((m) => m.subject.includes(label));
    expect(shop).toHaveLength(1);
    expect(shop[0].text_body).toContain(c.email);

    expect(await payWithCard(services, { userId: c.id, orderId: started.orderId, card: card(TEST_CARDS.success) })).toEqual({
      ok: false,
      code: 'already_paid',
    });
    const view = await getOrderForUser(db, storage, c.id, started.orderId);
    expect(view).toMatchObject({ paymentStatus: 'succeeded', totalCents: 3898, goodsCents: 3399, delivery: { kind: 'courier', priceCents: 499, country: 'PL', point: null }, label });
    expect(await getOrderForUser(db, storage, stranger.id, started.orderId)).toBeNull();
  });

  it('markOrderPaid three times: one paid order, one set of mails, cart emptied once', async () => {
    const c = await customer([[gayo, 3]]);
    const started = await start(c);
    if (!started.ok) throw new Error(started.reason);
    await fillCart(db, c.id, [[gayo, 3]]); // now 6 in the cart; 3 were ordered
    const kicksBefore = services.kicks;
    const results = await Promise.all([1, 2, 3].map(() => settlePayment(services, (_trx, markPaid) => markPaid(started.paymentId))));
    expect(results.filter((r) => r.ok && !r.alreadyPaid)).toHaveLength(1);
    expect(results.filter((r) => r.ok && r.alreadyPaid)).toHaveLength(2);
    expect(await cartLines(db, c.cartId)).toEqual([[gayo, 3]]);
    expect(await mailsTo(c.email)).toHaveLength(1);
    expect(services.kicks - kicksBefore).toBe(1); // the mail worker is woken once, after the commit that queued the mails
    expect(await settlePayment(services, (_trx, markPaid) => markPaid('tp_unknown'))).toEqual({ ok: false, reason: 'not_found' });
  });

  it('records the purchase for analytics when paid, only for a shopper who consented (a visitor id), once', async () => {
    const visitorId = 'Vm9sdW50ZWVyLXZpc2l0b3I';
    const events = () => db.selectFrom('analytics_events').selectAll().where('visitor_id', '=', visitorId).orderBy('name').execute();
    const c = await customer([[gayo, 2]]);
    const started = await start(c, { visitorId });
    if (!started.ok) throw new Error(started.reason);
    expect(await events()).toEqual([]);
    await payWithCard(services, { userId: c.id, orderId: started.orderId, card: card(TEST_CARDS.success) });
    await payWithCard(services, { userId: c.id, orderId: started.orderId, card: card(TEST_CARDS.success) });
    const recorded = await events();
    expect(recorded.map((e) => e.name)).toEqual(['checkout_completed', 'purchase']);
    expect(recorded.every((e) => e.user_id === c.id)).toBe(true);
    expect(JSON.parse(recorded[1].props)).toEqual({
      transaction_id: started.orderId,
      currency: 'EUR',
      value: 2500,
      items: [{ product_id: gayo, quantity: 2, value: 2500 }],
    });

    const purchasesBefore = await countEvents(db, 'purchase');
    const d = await customer([[gayo, 1]]);
    const withoutConsent = await start(d);
    if (!withoutConsent.ok) throw new Error(withoutConsent.reason);
    await payWithCard(services, { userId: d.id, orderId: withoutConsent.orderId, card: card(TEST_CARDS.success) });
    expect(await countEvents(db, 'purchase')).toBe(purchasesBefore);
  });

  it('mail server down at payment time: the order is paid and the mail waits in the outbox', async () => {
    // Delivery is the outbox worker's job; paying only queues. Nothing here talks to SMTP.
    const c = await customer([[java, 1]]);
    const started = await start(c);
    if (!started.ok) throw new Error(started.reason);
    expect(await payWithCard(services, { userId: c.id, orderId: started.orderId, card: card(TEST_CARDS.success) })).toMatchObject({ ok: true });
    expect((await ordersOf(c.id))[0].payment_status).toBe('succeeded');
    expect((await mailsTo(c.email)).map((m) => m.status)).toEqual(['queued']);
  });

  describe('with Stripe', () => {
    let fake: FakeStripe;
    let stripe: PaymentProvider;
    let stripeServices: PaymentServices;
    beforeAll(async () => {
      fake = await startFakeStripe();
      stripe = createStripePaymentProvider({ secretKey: 'sk_test_kopi', publishableKey: 'pk_test_kopi', webhookSecret: 'whsec_x', apiUrl: fake.url });
      stripeServices = servicesFor(stripe);
    });
    afterAll(() => fake.close());

    const startStripe = async (items: Array<[string, number]>) => {
      const c = await customer(items);
      const started = await startPayment(db, stripe, { userId: c.id, email: c.email, locale: 'en', currency: 'EUR', cartId: c.cartId, address, delivery: pickup });
      if (!started.ok) throw new Error(started.reason);
      return { c, started };
    };
    const succeeded = (paymentId: string, amount: number, currency = 'eur') =>
      paymentIntentJson({ id: paymentId, amount, currency, metadata: {}, status: 'succeeded', amountReceived: amount });

    it('starts a PaymentIntent for the order with the publishable key', async () => {
      const { started } = await startStripe([[gayo, 1]]);
      expect(started).toMatchObject({ amountCents: 1250, publishableKey: 'pk_test_kopi' });
      expect(started.paymentId).toMatch(/^pi_/);
      const request = fake.requests.at(-1)!;
      expect(request.body.get('metadata[order_id]')).toBe(started.orderId);
      expect(request.headers['idempotency-key']).toBe(`kopi-order-${started.orderId}`);
    });

    it('webhook delivered three times, or before the browser returns: one paid order', async () => {
      const { c, started } = await startStripe([[gayo, 2]]);
      const event = intentEvent('evt_paid_1', 'payment_intent.succeeded', succeeded(started.paymentId, 2500));
      const outcomes = await Promise.all([1, 2, 3].map(() => handlePaymentEvent(stripeServices, event)));
      expect(outcomes.sort()).toEqual(['duplicate', 'duplicate', 'paid']);
      // The same payment confirmed by another event (Stripe may send several) changes nothing.
      expect(await handlePaymentEvent(stripeServices, intentEvent('evt_paid_2', 'payment_intent.succeeded', succeeded(started.paymentId, 2500)))).toBe('already_paid');
      expect((await ordersOf(c.id))[0].payment_status).toBe('succeeded');
      expect(await cartLines(db, c.cartId)).toEqual([]);
      expect(await mailsTo(c.email)).toHaveLength(1);
      // The browser returns afterwards.
      fake.setStatus(started.paymentId, 'succeeded');
      expect(await confirmOrderPayment(stripeServices, { userId: c.id, orderId: started.orderId })).toEqual({ status: 'paid', orderId: started.orderId });
      expect(await mailsTo(c.email)).toHaveLength(1);
    });

    it('the browser returns before the webhook: paid on return, the webhook changes nothing', async () => {
      const { c, started } = await startStripe([[java, 1]]);
      expect(await confirmOrderPayment(stripeServices, { userId: c.id, paymentId: started.paymentId })).toEqual({ status: 'pending', orderId: started.orderId, awaitingBank: false });
      fake.setStatus(started.paymentId, 'succeeded');
      const stranger = await createUser(db);
      expect(await confirmOrderPayment(stripeServices, { userId: stranger.id, orderId: started.orderId })).toEqual({ status: 'not_found' });
      expect(await confirmOrderPayment(stripeServices, { userId: c.id, paymentId: started.paymentId })).toEqual({ status: 'paid', orderId: started.orderId });
      expect(await handlePaymentEvent(stripeServices, intentEvent('evt_late', 'payment_intent.succeeded', succeeded(started.paymentId, 899)))).toBe('already_paid');
      expect(await mailsTo(c.email)).toHaveLength(1);
    });

    it('a failed payment leaves the cart and the pending order intact', async () => {
      const { c, started } = await startStripe([[gayo, 1]]);
      const failed = paymentIntentJson({ id: started.paymentId, amount: 1250, currency: 'eur', metadata: {}, status: 'requires_payment_method' });
      expect(await handlePaymentEvent(stripeServices, intentEvent('evt_fail', 'payment_intent.payment_failed', failed))).toBe('payment_failed');
      expect((await ordersOf(c.id))[0].payment_status).toBe('pending');
      expect(await cartLines(db, c.cartId)).toEqual([[gayo, 1]]);
      const recorded = await db.selectFrom('payment_events').selectAll().where('event_id', '=', 'evt_fail').executeTakeFirst();
      expect(recorded).toMatchObject({ order_id: started.orderId, type: 'payment_failed' });
    });

    it('a paid amount that differs from the order total does not mark it paid', async () => {
      const { c, started } = await startStripe([[gayo, 1]]);
      expect(await handlePaymentEvent(stripeServices, intentEvent('evt_short', 'payment_intent.succeeded', succeeded(started.paymentId, 100)))).toBe('amount_mismatch');
      expect(await handlePaymentEvent(stripeServices, intentEvent('evt_usd', 'payment_intent.succeeded', succeeded(started.paymentId, 1250, 'usd')))).toBe('amount_mismatch');
      expect((await ordersOf(c.id))[0].payment_status).toBe('pending');
      expect(await handlePaymentEvent(stripeServices, intentEvent('evt_other', 'payment_intent.succeeded', succeeded('pi_not_ours', 1250)))).toBe('unknown_payment');
      expect(await handlePaymentEvent(stripeServices, intentEvent('evt_misc', 'charge.refunded', {}))).toBe('ignored');
    });

    /** Confirms the PaymentIntent as Stripe.js does when the customer pays with BLIK or Przelewy24. */
    const confirmAs = async (paymentId: string, form: Record<string, string>) => {
      const response = await fetch(`${fake.url}/v1/payment_intents/${paymentId}/confirm`, {
        method: 'POST',
        headers: { authorization: 'Bearer sk_test_kopi', 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form),
      });
      return { status: response.status, intent: (await response.json()) as Record<string, unknown> };
    };
    /** A webhook as Stripe signs it, through the provider's own verification. */
    const signed = (event: Record<string, unknown>) => {
      const payload = JSON.stringify(event);
      return stripe.parseWebhook!(Buffer.from(payload), Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_x' }));
    };
    const startInZloty = async () => {
      const c = await customer([[gayo, 1]]);
      const started = await startPayment(db, stripe, { userId: c.id, email: c.email, locale: 'pl', currency: 'PLN', cartId: c.cartId, address, delivery: pickup });
      if (!started.ok) throw new Error(started.reason);
      return { c, started };
    };

    it('BLIK in złoty: waiting for the banking app, then paid once from the signed webhook; never in euros', async () => {
      const { c, started } = await startInZloty();
      expect(fake.requests.at(-1)!.body.get('currency')).toBe('pln');
      const confirmed = await confirmAs(started.paymentId, { 'payment_method_data[type]': 'blik', 'payment_method_options[blik][code]': '777123' });
      expect(confirmed.intent).toMatchObject({ status: 'requires_action', next_action: { type: 'blik_authorize' } });
      expect(await confirmOrderPayment(stripeServices, { userId: c.id, orderId: started.orderId })).toEqual({ status: 'pending', orderId: started.orderId, awaitingBank: true });
      const event = signed(fake.settle(started.paymentId, 'succeeded')!);
      expect(await Promise.all([1, 2].map(() => handlePaymentEvent(stripeServices, event)))).toEqual(expect.arrayContaining(['paid', 'duplicate']));
      expect((await ordersOf(c.id))[0]).toMatchObject({ payment_status: 'succeeded', currency: 'PLN' });
      expect(await mailsTo(c.email)).toHaveLength(1);

      const { started: inEuros } = await startStripe([[gayo, 1]]);
      const refused = await confirmAs(inEuros.paymentId, { 'payment_method_data[type]': 'blik', 'payment_method_options[blik][code]': '777123' });
      expect(refused.status).toBe(400);
    });

    it('BLIK declined in the app, or never confirmed: the order stays pending and says why', async () => {
      const { c, started } = await startInZloty();
      await confirmAs(started.paymentId, { 'payment_method_data[type]': 'blik', 'payment_method_options[blik][code]': '111222' });
      expect(await handlePaymentEvent(stripeServices, signed(fake.settle(started.paymentId, 'declined')!))).toBe('payment_failed');
      expect(await confirmOrderPayment(stripeServices, { userId: c.id, orderId: started.orderId })).toEqual({ status: 'failed', orderId: started.orderId, failure: 'declined' });
      await confirmAs(started.paymentId, { 'payment_method_data[type]': 'blik', 'payment_method_options[blik][code]': '000000' });
      fake.settle(started.paymentId, 'expired');
      expect(await confirmOrderPayment(stripeServices, { userId: c.id, orderId: started.orderId })).toEqual({ status: 'failed', orderId: started.orderId, failure: 'expired' });
      expect((await ordersOf(c.id))[0].payment_status).toBe('pending');
    });

    it('Przelewy24: redirected to the bank; approved is paid (on return, before the webhook), declined is not', async () => {
      const { c, started } = await startStripe([[gayo, 1]]);
      const confirmed = await confirmAs(started.paymentId, { 'payment_method_data[type]': 'p24', return_url: 'https://kopi.test/checkout?step=waiting' });
      expect(confirmed.intent).toMatchObject({ status: 'requires_action', next_action: { type: 'redirect_to_url', redirect_to_url: { return_url: 'https://kopi.test/checkout?step=waiting' } } });
      const event = fake.settle(started.paymentId, 'succeeded')!;
      expect(await confirmOrderPayment(stripeServices, { userId: c.id, orderId: started.orderId })).toEqual({ status: 'paid', orderId: started.orderId });
      expect(await handlePaymentEvent(stripeServices, signed(event))).toBe('already_paid');

      const { c: other, started: declined } = await startStripe([[java, 1]]);
      await confirmAs(declined.paymentId, { 'payment_method_data[type]': 'p24', return_url: 'https://kopi.test/checkout?step=waiting' });
      expect(await handlePaymentEvent(stripeServices, signed(fake.settle(declined.paymentId, 'declined')!))).toBe('payment_failed');
      expect(await confirmOrderPayment(stripeServices, { userId: other.id, orderId: declined.orderId })).toMatchObject({ status: 'failed', failure: 'declined' });
    });

    it('a replaced order’s PaymentIntent is cancelled at Stripe; one paid first is refunded in full, with a mail', async () => {
      // Przelewy24 started for the pickup order, then the delivery changed in another tab: a new order replaces it.
      const { c, started: first } = await startStripe([[gayo, 1]]);
      await confirmAs(first.paymentId, { 'payment_method_data[type]': 'p24', return_url: 'https://kopi.test/checkout?step=waiting' });
      const second = await startPayment(db, stripe, { userId: c.id, email: c.email, locale: 'en', currency: 'EUR', cartId: c.cartId, address, delivery: courier });
      if (!second.ok) throw new Error(second.reason);
      expect(second.orderId).not.toBe(first.orderId);
      expect(fake.requests.some((r) => r.method === 'POST' && r.path === `/v1/payment_intents/${first.paymentId}/cancel`)).toBe(true);
      expect(fake.intents.get(first.paymentId)).toMatchObject({ status: 'canceled' });
      // The first order's bank page can no longer pay it.
      expect(fake.settle(first.paymentId, 'succeeded')).toBeNull();
      const row = await db.selectFrom('orders').select(['payment_status', 'replaced_at', 'payment_cancelled_at']).where('id', '=', first.orderId).executeTakeFirstOrThrow();
      expect(row.payment_status).toBe('replaced');
      expect(row.payment_cancelled_at).not.toBeNull();

      // Paid at Stripe before Kopi could cancel it: the third order's replacement finds it paid, and its event refunds it.
      await confirmAs(second.paymentId, { 'payment_method_data[type]': 'p24', return_url: 'https://kopi.test/checkout?step=waiting' });
      const paidFirst = fake.settle(second.paymentId, 'succeeded')!;
      const third = await startPayment(db, stripe, { userId: c.id, email: c.email, locale: 'en', currency: 'PLN', cartId: c.cartId, address, delivery: pickup });
      if (!third.ok) throw new Error(third.reason);
      expect((await db.selectFrom('orders').select('payment_cancelled_at').where('id', '=', second.orderId).executeTakeFirstOrThrow()).payment_cancelled_at).toBeNull();
      expect(await handlePaymentEvent(stripeServices, signed(paidFirst))).toBe('paid');
      const refunded = await db.selectFrom('orders').select(['payment_status', 'shipping_status', 'refunded_cents', 'total_cents']).where('id', '=', second.orderId).executeTakeFirstOrThrow();
      expect(refunded).toMatchObject({ payment_status: 'succeeded', shipping_status: 'cancelled', refunded_cents: refunded.total_cents });
      expect(fake.requests.filter((r) => r.path === '/v1/refunds').map((r) => r.body.get('payment_intent'))).toContain(second.paymentId);
      const told = await mailsTo(c.email);
      expect(told.map((m) => m.subject)).toEqual([`Your payment for Kopi order ${orderLabel(second.orderId)} was given back`]);
      // The cart keeps its coffee for the order that counts, which pays as usual.
      expect(await cartLines(db, c.cartId)).toEqual([[gayo, 1]]);
      fake.setStatus(third.paymentId, 'succeeded');
      expect(await confirmOrderPayment(stripeServices, { userId: c.id, orderId: third.orderId })).toEqual({ status: 'paid', orderId: third.orderId });
      expect(await cartLines(db, c.cartId)).toEqual([]);
    });
  });

  it('fingerprints depend on lines and amount only', () => {
    const courier = { methodId: 'c', country: 'PL', priceCents: 499, point: null };
    const a = cartFingerprint([{ variantId: 'p', quantity: 1, unitPriceCents: 100 }], 'EUR', 100, courier);
    expect(cartFingerprint([{ variantId: 'p', quantity: 1, unitPriceCents: 100 }], 'EUR', 100, courier)).toBe(a);
    expect(cartFingerprint([{ variantId: 'p', quantity: 2, unitPriceCents: 100 }], 'EUR', 200, courier)).not.toBe(a);
    expect(cartFingerprint([{ variantId: 'p', quantity: 1, unitPriceCents: 101 }], 'EUR', 101, courier)).not.toBe(a);
    // The same amounts in złoty are another order.
    expect(cartFingerprint([{ variantId: 'p', quantity: 1, unitPriceCents: 100 }], 'PLN', 100, courier)).not.toBe(a);
    // The same goods going another way, or to another locker, are another order.
    expect(cartFingerprint([{ variantId: 'p', quantity: 1, unitPriceCents: 100 }], 'EUR', 100, { ...courier, priceCents: 0 })).not.toBe(a);
    expect(cartFingerprint([{ variantId: 'p', quantity: 1, unitPriceCents: 100 }], 'EUR', 100, { ...courier, country: 'CZ' })).not.toBe(a);
    expect(cartFingerprint([{ variantId: 'p', quantity: 1, unitPriceCents: 100 }], 'EUR', 100, { ...courier, methodId: 'l', point: 'KRA01M' })).not.toBe(
      cartFingerprint([{ variantId: 'p', quantity: 1, unitPriceCents: 100 }], 'EUR', 100, { ...courier, methodId: 'l', point: 'KRA08N' }),
    );
    // Taxed as before, but with prices now following the buyer's VAT (Portugal's 23% leaves them as they were): another order.
    const line = [{ variantId: 'p', quantity: 1, unitPriceCents: 100 }];
    const pt = { ...courier, country: 'PT' };
    expect(cartFingerprint(line, 'EUR', 100, pt, null, { country: 'PT', rates: [2300], pricesFollowRate: true })).not.toBe(cartFingerprint(line, 'EUR', 100, pt, null, { country: 'PT', rates: [2300] }));
    expect(cartFingerprint(line, 'EUR', 100, pt, null, { country: 'PT', rates: [2300], pricesFollowRate: false })).toBe(cartFingerprint(line, 'EUR', 100, pt, null, { country: 'PT', rates: [2300] }));
  });
});
