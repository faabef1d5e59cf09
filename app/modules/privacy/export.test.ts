/**
 * A customer's data as one document (docs/decisions/0029) on SQLite and PostgreSQL: the account's download holds
 * every kind of record linked to it and a summary that counts them; what is kept only under the address (a guest's
 * order, a message sent signed out) is in the owner's export by email, never in the customer's own; the
 * customer's downloads are rate-limited and logged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '~/db/database.server';
import { newId } from '~/db/ids.server';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { createSession, signUp, updateProfile } from '~/modules/accounts/index.server';
import { listActivity } from '~/modules/activity/index.server';
import { recordEvent } from '~/modules/analytics/index.server';
import { defaultVariantOf } from '~/modules/cart/index.server';
import { payWithCard, startPayment } from '~/modules/checkout/index.server';
import { submitContactMessage } from '~/modules/contact/index.server';
import { moveOrder, refundWithdrawal } from '~/modules/fulfilment/index.server';
import { type InvoiceBuyer, sellerOf } from '~/modules/invoices/index.server';
import { LIMITS } from '~/modules/limits/index.server';
import { TEST_CARDS, createTestPaymentProvider } from '~/modules/payments/index.server';
import { saveReview } from '~/modules/reviews/index.server';
import { findOwnOrderForWithdrawal, requestWithdrawal } from '~/modules/withdrawals/index.server';
import { address, createCoffee, fillCart, freeCourier } from '../../../tests/fixtures/shop';
import { type CustomerData, customerDataRequest, exportCustomerData, ownerDataRequest, recordConsent, countCustomerData } from './index.server';

const owner = { id: null, email: 'owner@kopi.test' };
const card = { number: TEST_CARDS.success, expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: '123' };
const seller = sellerOf({ legalName: 'Kopi Palarnia sp. z o.o.', address: 'ul. Mokotowska 12\n00-640 Warszawa', taxId: 'PL 526-025-02-74', email: 'sklep@kopi.test' })!;
const cafe: InvoiceBuyer = { name: 'Kawiarnia Żółć sp. z o.o.', taxId: '7250018200', country: 'PL', address: 'ul. Piotrkowska 100', zipCode: '90-004', city: 'Łódź' };
const courier = { country: 'PL', methodId: 'method-pl-courier', phone: '+48 600 100 200' };
const GOOGLE = 'https://accounts.google.com';
const quiet = { info() {}, warn() {}, error() {} } as never;

let counter = 0;
const uniqueEmail = (name: string) => `${name}.${Date.now().toString(36)}.${++counter}@example.test`;

/** The summary's kinds and the document's arrays they count. */
const kinds = ['orders', 'invoices', 'reviews', 'messages', 'withdrawals', 'backInStock', 'consents', 'analyticsEvents', 'mails', 'sessions', 'cart'] as const;
const counted = (data: CustomerData) => Object.fromEntries(kinds.map((k) => [k, data[k].length]));

describe.each(testDatabases())('exporting a customer’s data on %s', (_kind, open) => {
  let handle: TestDatabase;
  let db: DB;
  let provider: ReturnType<typeof createTestPaymentProvider>;
  let gayo = '';
  let java = '';
  let toraja = '';

  beforeAll(async () => {
    handle = await open();
    db = handle.db;
    await freeCourier(db);
    provider = createTestPaymentProvider(db);
    gayo = await createCoffee(db, 'Gayo', 1250);
    java = await createCoffee(db, 'Java', 900);
    toraja = await createCoffee(db, 'Toraja', 1400);
  });
  afterAll(() => handle.close());

  async function account(name: string) {
    const email = uniqueEmail(name.split(' ')[0]!.toLowerCase());
    const signed = await signUp(db, { name, email, password: 'correct horse battery' });
    if (!signed.ok) throw new Error(signed.reason);
    return { userId: signed.userId, email, name };
  }

  /** A customer with one of everything (two devices, two statistics events), the order invoiced, withdrawn from in part and refunded. */
  async function customerWithHistory(name: string) {
    const who = await account(name);
    const { userId, email } = who;
    await createSession(db, userId);
    await createSession(db, userId);
    await db.insertInto('user_identities').values({ provider: GOOGLE, subject: `google-${userId}`, user_id: userId, email, created_at: '2026-01-02T03:04:05.000Z' }).execute();

    const cartId = await fillCart(db, userId, [[gayo, 1], [java, 1]]);
    const started = await startPayment(db, provider, { userId, email, locale: 'en', currency: 'EUR', cartId, address, delivery: courier, invoiceBuyer: cafe });
    if (!started.ok) throw new Error(started.reason);
    const orderId = started.orderId;
    const paid = await payWithCard({ db, payments: provider, contactTo: 'shop@kopi.test', kickMail: () => {}, seller }, { userId, orderId, card });
    if (!paid.ok) throw new Error(paid.code);
    await moveOrder({ db, publicUrl: 'https://kopi.test/' }, owner, orderId, { to: 'shipped', carrier: 'inpost', trackingNumber: '6200123456789' });
    await moveOrder({ db, publicUrl: 'https://kopi.test/' }, owner, orderId, { to: 'delivered' });
    const withdrawable = (await findOwnOrderForWithdrawal(db, userId, orderId))!;
    const javaLine = withdrawable.lines.find((l) => l.productId === java)!;
    const asked = await requestWithdrawal(db, withdrawable, { name, email, positions: [javaLine.position], reason: 'Too strong', locale: 'en' }, { contactTo: 'shop@kopi.test' });
    if (!asked.ok) throw new Error(asked.reason);
    expect(await refundWithdrawal({ db, payments: provider, publicUrl: 'https://kopi.test/', log: quiet }, owner, orderId, asked.withdrawal.id)).toMatchObject({ ok: true });
    expect(await saveReview(db, { userId, displayName: name }, gayo, { rating: 4, body: 'Cherries.', locale: 'en' })).toMatchObject({ ok: true });

    // Saved after checkout, which keeps its own address in the profile.
    await updateProfile(db, userId, { fullName: name, address: 'ul. Długa 1', city: 'Gdańsk', zipCode: '80-001', deliveryAddress: 'ul. Krótka 2', deliveryCity: 'Sopot', deliveryZipCode: '81-001', paymentMethod: 'blik' });
    await fillCart(db, userId, [[toraja, 3]]);
    const contact = { name, email, subject: 'Grind size', message: 'Which grind for a moka pot?' };
    expect(await submitContactMessage(db, { input: contact, locale: 'en', contactTo: 'shop@kopi.test', userId })).toMatchObject({ ok: true });
    const variantId = (await defaultVariantOf(db, toraja))!;
    await db.insertInto('stock_alerts').values({ id: newId(), variant_id: variantId, email, locale: 'pl', token: newId(), created_at: new Date().toISOString(), notified_at: null, user_id: userId }).execute();
    await recordEvent(db, { name: 'page_view', props: { page_path: '/en/coffee' }, path: '/en/coffee', visitorId: `v-${userId}`, userId });
    await recordEvent(db, { name: 'login', props: { method: 'password' }, path: '/en/auth/login', visitorId: `v-${userId}`, userId });
    await recordConsent(db, { visitorId: `v-${userId}`, userId, analytics: true, version: '2026-11-28' });
    return { ...who, orderId, variantId };
  }

  /**
   * What is kept only under the customer's address, by someone not signed in: a message, a back-in-stock request
   * and a guest's order with the address typed in another case.
   */
  async function keptUnderAddress(email: string) {
    const shout = email.toUpperCase();
    expect(await submitContactMessage(db, { input: { name: 'Someone', email: shout, subject: 'Signed out', message: 'Written without signing in' }, locale: 'en', contactTo: 'shop@kopi.test' })).toMatchObject({ ok: true });
    const guestOrder = newId();
    const at = new Date().toISOString();
    await db
      .insertInto('orders')
      .values({
        id: guestOrder,
        user_id: null,
        user_email: shout,
        locale: 'en',
        cart_id: null,
        total_cents: 1400,
        currency: 'EUR',
        payment_provider: 'test',
        payment_intent_id: null,
        payment_client_secret: null,
        cart_fingerprint: `guest-${guestOrder}`,
        payment_status: 'succeeded',
        shipping_status: 'delivered',
        shipping_full_name: 'Guest Buyer',
        shipping_address: 'ul. Obca 3',
        shipping_city: 'Poznań',
        shipping_zip_code: '60-001',
        created_at: at,
        paid_at: at,
        visitor_id: null,
        carrier: null,
        tracking_number: null,
        shipped_at: null,
        delivered_at: at,
        cancelled_at: null,
        stock_short_at: null,
        delivery_kind: null,
        delivery_method_id: null,
        delivery_country: 'PL',
        delivery_point: null,
        delivery_point_address: null,
        shipment_id: null,
        shipment_size: null,
        shipment_started_at: null,
        guest_key: `key-${guestOrder}`,
        tax_country: 'PL',
        delivery_tax: null,
      })
      .execute();
    return guestOrder;
  }

  it('the customer’s download holds every kind of record linked to the account, counted in its summary', async () => {
    const ola = await customerWithHistory('Ola Nowak');
    const guestOrder = await keptUnderAddress(ola.email);
    // Someone else's records are never in it.
    const other = await customerWithHistory('Jan Lis');

    const now = new Date('2026-11-28T12:00:00.000Z');
    const outcome = await customerDataRequest(db, ola.userId, LIMITS, now);
    if (!outcome.ok) throw new Error(outcome.reason);
    const data = outcome.data;
    expect(data.exportedAt).toBe(now.toISOString());

    expect(data.account).toMatchObject({ id: ola.userId, email: ola.email, name: 'Ola Nowak', photoUrl: null });
    expect(data.account!.signInMethods).toEqual([{ method: 'password' }, { method: 'openid', provider: GOOGLE, email: ola.email, linkedAt: '2026-01-02T03:04:05.000Z' }]);
    // Never the password itself, nor its hash.
    expect(JSON.stringify(data)).not.toContain('$argon2');
    expect(data.profile).toMatchObject({
      billing: { fullName: 'Ola Nowak', address: 'ul. Długa 1', city: 'Gdańsk', zipCode: '80-001' },
      delivery: { address: 'ul. Krótka 2', city: 'Sopot', zipCode: '81-001' },
      paymentPreference: 'blik',
    });
    expect(data.sessions).toHaveLength(2);
    expect(data.cart).toEqual([{ sku: expect.any(String), productId: toraja, quantity: 3, addedAt: expect.any(String), discountCode: null }]);

    expect(data.orders.map((o) => o.id)).toEqual([ola.orderId]);
    const [order] = data.orders;
    expect(order).toMatchObject({ email: ola.email, payment: 'succeeded', shipping: 'delivered', totalCents: 1250 + 900, refundedCents: 900, shipTo: { fullName: address.fullName, phone: courier.phone }, invoiceBuyer: cafe, anonymisedAt: null });
    expect(order!.lines.map((l) => [l.productId, l.quantity, l.unitPriceCents])).toEqual(
      expect.arrayContaining([
        [gayo, 1, 1250],
        [java, 1, 900],
      ]),
    );
    expect(order!.lines).toHaveLength(2);
    expect(order!.lines.every((l) => l.vatRateBp === 2300 && (l.vatCents ?? 0) > 0)).toBe(true);
    expect(order!.refunds).toMatchObject([{ amountCents: 900, status: 'succeeded' }]);
    const invoices = await db.selectFrom('invoices').select(['number', 'kind']).where('order_id', '=', ola.orderId).orderBy('issued_at').execute();
    expect(invoices.map((i) => i.kind)).toEqual(['invoice', 'correction']);
    expect(data.invoices.map((i) => [i.number, i.kind, i.orderId])).toEqual(invoices.map((i) => [i.number, i.kind, ola.orderId]));
    expect(data.withdrawals).toMatchObject([{ orderId: ola.orderId, name: 'Ola Nowak', email: ola.email, reason: 'Too strong', refundedCents: 900 }]);
    expect(data.reviews).toMatchObject([{ productId: gayo, orderId: ola.orderId, rating: 4, body: 'Cherries.', signedAs: 'Ola N.' }]);
    // Linked to the account: the message and the request made signed in. Not what was written signed out under the address.
    expect(data.messages).toMatchObject([{ subject: 'Grind size', message: 'Which grind for a moka pot?' }]);
    expect(data.backInStock).toMatchObject([{ productId: toraja, email: ola.email, language: 'pl', notifiedAt: null }]);
    expect(data.consents).toMatchObject([{ statistics: true, bannerVersion: '2026-11-28', visitorId: `v-${ola.userId}` }]);
    expect(data.analyticsEvents.map((e) => [e.name, e.path, e.props])).toEqual([
      ['page_view', '/en/coffee', { page_path: '/en/coffee' }],
      ['login', '/en/auth/login', { method: 'password' }],
    ]);
    // Mail goes to an address, not an account: a customer's own download does not list it (the owner's does).
    expect(data.mails).toEqual([]);
    const mailed = await db.selectFrom('mail_outbox').select('subject').where('to_address', '=', ola.email).execute();
    expect(mailed.length).toBeGreaterThanOrEqual(4);
    const asked = await ownerDataRequest(db, owner, { userId: ola.userId, email: ola.email });
    if (!asked.ok) throw new Error(asked.reason);
    expect(asked.data.mails.map((m) => m.subject).sort()).toEqual(mailed.map((m) => m.subject).sort());
    expect(asked.data.mails.some((m) => m.subject.includes(invoices[0]!.number))).toBe(true);

    expect(data.summary).toEqual({ orders: 1, invoices: 2, reviews: 1, messages: 1, withdrawals: 1, backInStock: 1, consents: 1, analyticsEvents: 2, mails: 0, sessions: 2, cart: 1 });
    expect(data.summary).toEqual(counted(data));
    // The profile's data tab counts the same without reading it all.
    expect(await countCustomerData(db, ola.userId)).toEqual(data.summary);

    const text = JSON.stringify(data);
    for (const absent of [guestOrder, 'Written without signing in', 'Guest Buyer', other.userId, other.email, other.orderId]) expect(text).not.toContain(absent);
  });

  it('the owner’s export by address adds what was kept under it without an account: a guest’s order, a message sent signed out', async () => {
    const ewa = await customerWithHistory('Ewa Lis');
    const guestOrder = await keptUnderAddress(ewa.email);

    const own = await exportCustomerData(db, { userId: ewa.userId, email: ewa.email, byEmail: false });
    expect(own.orders.map((o) => o.id)).toEqual([ewa.orderId]);
    expect(own.messages.map((m) => m.subject)).toEqual(['Grind size']);

    // The owner typed the address in another case: it still matches.
    const asked = await ownerDataRequest(db, owner, { userId: ewa.userId, email: ` ${ewa.email.toUpperCase()} ` });
    if (!asked.ok) throw new Error(asked.reason);
    const data = asked.data;
    expect(data.account?.id).toBe(ewa.userId);
    expect(data.orders.map((o) => o.id).sort()).toEqual([ewa.orderId, guestOrder].sort());
    expect(data.orders.find((o) => o.id === guestOrder)).toMatchObject({ email: ewa.email.toUpperCase(), shipTo: { fullName: 'Guest Buyer', city: 'Poznań' }, totalCents: 1400 });
    expect(data.messages.map((m) => m.subject).sort()).toEqual(['Grind size', 'Signed out']);
    expect(data.summary).toMatchObject({ orders: 2, messages: 2, reviews: 1, invoices: 2 });
    expect(data.summary).toEqual(counted(data));
    expect((await listActivity(db, { limit: 1 }))[0]).toMatchObject({ action: 'customer.exported', actorEmail: owner.email, subjectType: 'customer', subjectId: ewa.userId, subjectLabel: ewa.email });

    // A request for the address alone (no account): the guest's records and the account's orders under it, no account.
    const byAddress = await ownerDataRequest(db, owner, { userId: null, email: ewa.email });
    if (!byAddress.ok) throw new Error(byAddress.reason);
    expect(byAddress.data.account).toBeNull();
    expect(byAddress.data.profile).toBeNull();
    expect(byAddress.data.sessions).toEqual([]);
    expect(byAddress.data.reviews).toEqual([]);
    expect(byAddress.data.orders.map((o) => o.id).sort()).toEqual([ewa.orderId, guestOrder].sort());
    expect(byAddress.data.messages.map((m) => m.subject).sort()).toEqual(['Grind size', 'Signed out']);

    // An account id with someone else's address is refused.
    expect(await ownerDataRequest(db, owner, { userId: ewa.userId, email: 'someone.else@example.test' })).toEqual({ ok: false, reason: 'not_found' });
  });

  it('the customer may download five times an hour; each download is logged, the sixth refused', async () => {
    const tom = await account('Tom Kowal');
    const start = new Date();
    for (let i = 0; i < 5; i += 1) expect(await customerDataRequest(db, tom.userId, LIMITS, new Date(start.getTime() + i * 60_000))).toMatchObject({ ok: true });
    expect(await customerDataRequest(db, tom.userId, LIMITS, new Date(start.getTime() + 10 * 60_000))).toEqual({ ok: false, reason: 'rate_limited' });
    const logged = await listActivity(db, { subjectType: 'customer', subjectId: tom.userId });
    expect(logged).toHaveLength(5);
    expect(logged.every((e) => e.action === 'customer.exported' && e.actorEmail === 'customer' && e.subjectLabel === tom.email)).toBe(true);
    // Another customer is not held back by Tom's downloads.
    const ola = await account('Ola Kowal');
    expect(await customerDataRequest(db, ola.userId, LIMITS, new Date(start.getTime() + 10 * 60_000))).toMatchObject({ ok: true });
    // An hour after the first, one more.
    expect(await customerDataRequest(db, tom.userId, LIMITS, new Date(start.getTime() + 61 * 60_000))).toMatchObject({ ok: true });
    expect(await listActivity(db, { subjectType: 'customer', subjectId: tom.userId })).toHaveLength(6);
  });
});
