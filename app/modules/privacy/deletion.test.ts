/**
 * Deleting a customer's account (docs/decisions/0029) on SQLite and PostgreSQL: the account becomes an empty
 * tombstone, everything about the person goes or is unlinked, orders and invoices stay as tax law needs them
 * (without the person), reviews are kept unsigned or removed with the coffee's figures recounted; admins,
 * customers with a parcel on its way and a second deletion are refused without changing anything.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '~/db/database.server';
import { newId } from '~/db/ids.server';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { getSessionUser, logIn, createSession, requestPasswordReset, signUp, updateProfile } from '~/modules/accounts/index.server';
import { listActivity } from '~/modules/activity/index.server';
import { recordEvent } from '~/modules/analytics/index.server';
import { defaultVariantOf } from '~/modules/cart/index.server';
import { payWithCard, startPayment } from '~/modules/checkout/index.server';
import { submitContactMessage } from '~/modules/contact/index.server';
import { type Shipx, moveOrder, refundWithdrawal, shipmentLabel } from '~/modules/fulfilment/index.server';
import { routeArgs } from '~/http/test-args';
import { type InvoiceBuyer, sellerOf } from '~/modules/invoices/index.server';
import { TEST_CARDS, createTestPaymentProvider } from '~/modules/payments/index.server';
import { saveReview } from '~/modules/reviews/index.server';
import { findOwnOrderForWithdrawal, requestWithdrawal } from '~/modules/withdrawals/index.server';
import * as orderLabelRoute from '~/routes/admin/order-label';
import { orderLabel } from '~/modules/orders/orders.types';
import { address, createCoffee, fillCart, freeCourier } from '../../../tests/fixtures/shop';
import { deleteAccount, eraseGuest, recordConsent } from './index.server';

const owner = { id: null, email: 'owner@kopi.test' };
const password = 'correct horse battery';
const card = { number: TEST_CARDS.success, expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: '123' };
const seller = sellerOf({ legalName: 'Kopi Palarnia sp. z o.o.', address: 'ul. Mokotowska 12\n00-640 Warszawa', taxId: 'PL 526-025-02-74', email: 'sklep@kopi.test' })!;
const cafe: InvoiceBuyer = { name: 'Kawiarnia Żółć sp. z o.o.', taxId: '7250018200', country: 'PL', address: 'ul. Piotrkowska 100', zipCode: '90-004', city: 'Łódź' };
const courier = { country: 'PL', methodId: 'method-pl-courier', phone: '+48 600 100 200' };
const CONFIRMATION = 'Your Kopi account has been deleted';
const quiet = { info() {}, warn() {}, error() {} } as never;

let counter = 0;
const uniqueEmail = (name: string) => `${name}.${Date.now().toString(36)}.${++counter}@example.test`;

describe.each(testDatabases())('deleting an account on %s', (_kind, open) => {
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

  const services = () => ({ db, payments: provider, contactTo: 'shop@kopi.test', publicUrl: 'https://kopi.test/', kickMail: () => {}, seller });
  const fulfil = () => ({ db, publicUrl: 'https://kopi.test/' });

  /** A customer who signed up with a password. */
  async function account(name: string) {
    const email = uniqueEmail(name.split(' ')[0]!.toLowerCase());
    const signed = await signUp(db, { name, email, password });
    if (!signed.ok) throw new Error(signed.reason);
    return { userId: signed.userId, email, name };
  }

  /** A paid order of these products (one of each), moved on as far as `until`. */
  async function order(who: { userId: string; email: string }, products: string[], { until = 'delivered', invoice = false }: { until?: 'processing' | 'shipped' | 'delivered'; invoice?: boolean } = {}) {
    const cartId = await fillCart(db, who.userId, products.map((id) => [id, 1] as [string, number]));
    const started = await startPayment(db, provider, { userId: who.userId, email: who.email, locale: 'en', currency: 'EUR', cartId, address, delivery: courier, invoiceBuyer: invoice ? cafe : null });
    if (!started.ok) throw new Error(started.reason);
    const paid = await payWithCard(services(), { userId: who.userId, orderId: started.orderId, card });
    if (!paid.ok) throw new Error(paid.code);
    if (until !== 'processing') await moveOrder(fulfil(), owner, started.orderId, { to: 'shipped', carrier: 'inpost', trackingNumber: '6200123456789' });
    if (until === 'delivered') await moveOrder(fulfil(), owner, started.orderId, { to: 'delivered' });
    return started.orderId;
  }

  /**
   * A customer with everything the shop can hold about one: profile, two devices, a Google identity, a reset link,
   * a cart, a delivered order (invoiced, one coffee withdrawn from and refunded) and a review of the other coffee,
   * a message and a back-in-stock request made signed in, one message sent signed out with the same address,
   * analytics events, a cookie choice and mail.
   */
  async function customerWithHistory(name: string, { rating = 5 } = {}) {
    const who = await account(name);
    const { userId, email } = who;
    await updateProfile(db, userId, { fullName: name, address: 'ul. Długa 1', city: 'Gdańsk', zipCode: '80-001', deliveryAddress: 'ul. Krótka 2', deliveryCity: 'Sopot', deliveryZipCode: '81-001', paymentMethod: 'blik' });
    const tokens = [await createSession(db, userId), await createSession(db, userId)];
    await db.insertInto('user_identities').values({ provider: 'https://accounts.google.com', subject: `google-${userId}`, user_id: userId, email, created_at: new Date().toISOString() }).execute();
    expect(await requestPasswordReset(db, { email, locale: 'en', publicUrl: new URL('https://kopi.test/') })).toEqual({ ok: true });

    const orderId = await order(who, [gayo, java], { invoice: true });
    const withdrawable = (await findOwnOrderForWithdrawal(db, userId, orderId))!;
    const javaLine = withdrawable.lines.find((l) => l.productId === java)!;
    const asked = await requestWithdrawal(db, withdrawable, { name, email, positions: [javaLine.position], reason: 'Too strong for me', locale: 'en' }, { contactTo: 'shop@kopi.test' });
    if (!asked.ok) throw new Error(asked.reason);
    expect(await refundWithdrawal({ db, payments: provider, publicUrl: 'https://kopi.test/', log: quiet }, owner, orderId, asked.withdrawal.id)).toMatchObject({ ok: true, refundedCents: 900 });
    expect(await saveReview(db, { userId, displayName: name }, gayo, { rating, body: 'Cherries and wine.', locale: 'en' })).toMatchObject({ ok: true });

    const cartId = await fillCart(db, userId, [[toraja, 2]]);
    const contact = { name, email, subject: 'Grind size', message: 'Which grind for a moka pot?' };
    expect(await submitContactMessage(db, { input: contact, locale: 'en', contactTo: 'shop@kopi.test', userId })).toMatchObject({ ok: true });
    expect(await submitContactMessage(db, { input: { ...contact, subject: 'Signed out', message: 'Written without signing in' }, locale: 'en', contactTo: 'shop@kopi.test' })).toMatchObject({ ok: true });
    const variantId = (await defaultVariantOf(db, toraja))!;
    await db.insertInto('stock_alerts').values({ id: newId(), variant_id: variantId, email, locale: 'en', token: newId(), created_at: new Date().toISOString(), notified_at: null, user_id: userId }).execute();
    await recordEvent(db, { name: 'page_view', props: { page_path: '/en/coffee' }, path: '/en/coffee', visitorId: `v-${userId}`, userId });
    await recordEvent(db, { name: 'login', props: { method: 'password' }, path: '/en/auth/login', visitorId: `v-${userId}`, userId });
    await recordConsent(db, { visitorId: `v-${userId}`, userId, analytics: true, version: '2026-11-28' });
    // A mail already sent, its address as the customer typed it once (upper case).
    await db
      .insertInto('mail_outbox')
      .values({ id: newId(), to_address: email.toUpperCase(), subject: 'Old news', text_body: 'Hello', html_body: null, reply_to: null, status: 'sent', next_attempt_at: new Date().toISOString(), last_error: null, created_at: new Date().toISOString(), sent_at: new Date().toISOString(), claim_token: null })
      .execute();
    return { ...who, tokens, orderId, withdrawalId: asked.withdrawal.id, cartId };
  }

  const count = async (table: 'sessions' | 'user_identities' | 'password_reset_tokens' | 'profiles' | 'carts' | 'stock_alerts' | 'contact_messages' | 'analytics_events' | 'consents' | 'reviews', userId: string) =>
    Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow()).n);
  const mailsTo = (email: string) =>
    db
      .selectFrom('mail_outbox')
      .select(['subject', 'status'])
      .where((eb) => eb(eb.fn('lower', ['to_address']), '=', email.toLowerCase()))
      .orderBy('created_at')
      .execute();
  const sentTo = (email: string) =>
    db
      .selectFrom('mail_outbox')
      .select(['text_body', 'html_body', 'attachments'])
      .where('status', '=', 'sent')
      .where((eb) => eb(eb.fn('lower', ['to_address']), '=', email.toLowerCase()))
      .execute();
  const orderTotals = async () => {
    const row = await db
      .selectFrom('orders')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('total_cents').as('total'), eb.fn.sum<number>('refunded_cents').as('refunded'), eb.fn.sum<number>('vat_cents').as('vat')])
      .executeTakeFirstOrThrow();
    return { n: Number(row.n), total: Number(row.total), refunded: Number(row.refunded), vat: Number(row.vat) };
  };
  const figures = async (productId: string) => {
    const row = await db.selectFrom('products').select(['rating', 'review_count']).where('id', '=', productId).executeTakeFirstOrThrow();
    return { rating: Number(row.rating), reviewCount: Number(row.review_count) };
  };
  /** Everything a refused deletion must leave as it was. */
  async function snapshot(userId: string, email: string) {
    return {
      user: await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst(),
      sessions: await db.selectFrom('sessions').selectAll().where('user_id', '=', userId).orderBy('id').execute(),
      profile: await db.selectFrom('profiles').selectAll().where('user_id', '=', userId).executeTakeFirst(),
      orders: await db.selectFrom('orders').selectAll().where('user_id', '=', userId).orderBy('id').execute(),
      reviews: await db.selectFrom('reviews').selectAll().where('user_id', '=', userId).orderBy('id').execute(),
      mails: await mailsTo(email),
      activity: (await listActivity(db, { subjectType: 'customer', subjectId: userId })).length,
    };
  }

  it('keeps an empty tombstone, removes or unlinks the person everywhere, and keeps orders and invoices as tax law needs them', async () => {
    const ola = await customerWithHistory('Ola Nowak');
    const bystander = await customerWithHistory('Jan Lis', { rating: 2 });

    expect(await logIn(db, { email: ola.email, password })).toEqual({ ok: true, userId: ola.userId });
    for (const table of ['sessions', 'analytics_events'] as const) expect(await count(table, ola.userId)).toBe(2);
    for (const table of ['user_identities', 'password_reset_tokens', 'profiles', 'carts', 'stock_alerts', 'contact_messages', 'consents', 'reviews'] as const) expect(await count(table, ola.userId)).toBe(1);
    expect((await mailsTo(ola.email)).length).toBeGreaterThanOrEqual(6);
    const orderBefore = await db.selectFrom('orders').selectAll().where('id', '=', ola.orderId).executeTakeFirstOrThrow();
    expect(orderBefore).toMatchObject({ user_email: ola.email, shipping_full_name: address.fullName, shipping_phone: courier.phone, tracking_number: '6200123456789', refunded_cents: 900 });
    expect(orderBefore.invoice_buyer).not.toBeNull();
    const linesBefore = await db.selectFrom('order_lines').selectAll().where('order_id', '=', ola.orderId).orderBy('position').execute();
    const refundsBefore = await db.selectFrom('refunds').selectAll().where('order_id', '=', ola.orderId).execute();
    const invoicesBefore = await db.selectFrom('invoices').selectAll().where('order_id', '=', ola.orderId).orderBy('issued_at').execute();
    expect(linesBefore).toHaveLength(2);
    expect(refundsBefore).toHaveLength(1);
    expect(invoicesBefore.map((i) => i.kind)).toEqual(['invoice', 'correction']);
    expect(invoicesBefore.every((i) => i.pdf && i.buyer.includes(cafe.name))).toBe(true);
    const withdrawalBefore = await db.selectFrom('withdrawals').selectAll().where('id', '=', ola.withdrawalId).executeTakeFirstOrThrow();
    const reviewBefore = await db.selectFrom('reviews').selectAll().where('user_id', '=', ola.userId).executeTakeFirstOrThrow();
    expect(reviewBefore.author_name).toBe('Ola N.');
    const gayoBefore = await figures(gayo);
    expect(gayoBefore).toEqual({ rating: 3.5, reviewCount: 2 });
    const totalsBefore = await orderTotals();
    const bystanderBefore = await snapshot(bystander.userId, bystander.email);

    const now = new Date();
    expect(await deleteAccount(db, { userId: ola.userId, reviews: 'keep', locale: 'en', now })).toEqual({ ok: true, orders: 1, reviews: 1 });
    const at = now.toISOString();

    // The tombstone: the id, and nothing about the person.
    expect(await db.selectFrom('users').selectAll().where('id', '=', ola.userId).executeTakeFirst()).toMatchObject({
      email: `deleted:${ola.userId}`,
      display_name: '',
      password_hash: null,
      photo_url: null,
      disabled: 1,
      deleted_at: at,
    });
    // Signed out everywhere, no way back in.
    for (const table of ['sessions', 'user_identities', 'password_reset_tokens', 'profiles', 'carts', 'stock_alerts', 'contact_messages'] as const) expect(await count(table, ola.userId)).toBe(0);
    expect(await db.selectFrom('cart_lines').select('variant_id').where('cart_id', '=', ola.cartId).execute()).toEqual([]);
    for (const token of ola.tokens) expect(await getSessionUser(db, token)).toBeNull();
    expect(await logIn(db, { email: ola.email, password })).toEqual({ ok: false, reason: 'invalid_credentials' });
    // Statistics and cookie choices stay, linked to nobody.
    expect(await count('analytics_events', ola.userId)).toBe(0);
    expect(await db.selectFrom('analytics_events').select('user_id').where('visitor_id', '=', `v-${ola.userId}`).execute()).toEqual([{ user_id: null }, { user_id: null }]);
    expect(await count('consents', ola.userId)).toBe(0);
    expect(await db.selectFrom('consents').select(['user_id', 'analytics']).where('visitor_id', '=', `v-${ola.userId}`).execute()).toEqual([{ user_id: null, analytics: 1 }]);
    // The message sent signed out was not the account's: it stays.
    expect(await db.selectFrom('contact_messages').select(['subject', 'user_id']).where('email', '=', ola.email).execute()).toEqual([{ subject: 'Signed out', user_id: null }]);

    // The order: everything tax law needs, nothing about who or where.
    expect(await db.selectFrom('orders').selectAll().where('id', '=', ola.orderId).executeTakeFirstOrThrow()).toEqual({
      ...orderBefore,
      user_email: '',
      shipping_full_name: '',
      shipping_address: '',
      shipping_city: '',
      shipping_zip_code: '',
      shipping_phone: '',
      delivery_point: null,
      delivery_point_address: null,
      tracking_number: null,
      guest_key: null,
      visitor_id: null,
      invoice_buyer: null,
      payment_client_secret: null,
      cart_id: null,
      anonymised_at: at,
      anonymised_by: 'deletion',
    });
    expect(await db.selectFrom('order_lines').selectAll().where('order_id', '=', ola.orderId).orderBy('position').execute()).toEqual(linesBefore);
    expect(await db.selectFrom('refunds').selectAll().where('order_id', '=', ola.orderId).execute()).toEqual(refundsBefore);
    // Invoices are documents of their own: unchanged, PDF and buyer included, until their retention ends.
    expect(await db.selectFrom('invoices').selectAll().where('order_id', '=', ola.orderId).orderBy('issued_at').execute()).toEqual(invoicesBefore);
    expect(await db.selectFrom('withdrawals').selectAll().where('id', '=', ola.withdrawalId).executeTakeFirstOrThrow()).toEqual({ ...withdrawalBefore, name: '', email: '', reason: null });
    // The review stays, signed "A customer"; the coffee's figures do not move.
    expect(await db.selectFrom('reviews').selectAll().where('user_id', '=', ola.userId).executeTakeFirstOrThrow()).toEqual({ ...reviewBefore, author_name: '' });
    expect(await figures(gayo)).toEqual(gayoBefore);
    // The dashboard's figures are the same.
    expect(await orderTotals()).toEqual(totalsBefore);

    // Mail already sent to the address loses its text; mail still queued goes out (sign-up proves no address, so
    // it may be someone else's); the confirmation of the deletion is queued once.
    expect((await mailsTo(ola.email)).filter((m) => m.subject === CONFIRMATION)).toEqual([{ subject: CONFIRMATION, status: 'queued' }]);
    const sent = await sentTo(ola.email);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent).toEqual(sent.map(() => ({ text_body: '', html_body: null, attachments: null })));
    expect((await mailsTo(ola.email)).some((m) => m.status === 'queued' && m.subject !== CONFIRMATION)).toBe(true);
    const logged = await listActivity(db, { subjectType: 'customer', subjectId: ola.userId });
    expect(logged).toMatchObject([{ action: 'customer.deleted', actorEmail: 'customer', subjectLabel: '', details: { orders: 1, reviews: 'keep' } }]);

    // Another customer's data is untouched.
    expect(await snapshot(bystander.userId, bystander.email)).toEqual(bystanderBefore);
  });

  it('an order whose customer was deleted fetches no InPost label (410), and the log forgets its parcel’s numbers', async () => {
    const admin = { id: 'u-admin', email: owner.email, displayName: 'Owner', isAdmin: true, photoUrl: null };
    const asked: string[] = [];
    const shipx = { label: async (id: string) => (asked.push(id), { ok: true as const, value: new TextEncoder().encode('%PDF-').buffer as ArrayBuffer }) } as unknown as Shipx;
    const label = (id: string) =>
      orderLabelRoute.loader(routeArgs(new Request(`http://localhost/admin/orders/${id}/label`), { app: { db, shipx, log: pino({ level: 'silent' }) }, shopper: { user: admin }, params: { id } }) as never) as Promise<Response>;
    /** A delivered order shipped through InPost, as createShipment leaves it and its log. */
    async function shippedByInpost(who: { userId: string; email: string }, shipmentId: string) {
      const orderId = await order(who, [java]);
      await db.updateTable('orders').set({ shipment_id: shipmentId, shipment_size: 'small' }).where('id', '=', orderId).execute();
      await db.insertInto('activity_log').values({ id: newId(), actor_id: null, actor_email: owner.email, action: 'order.shipment', subject_type: 'order', subject_id: orderId, subject_label: orderId, details: JSON.stringify({ shipmentId, size: 'small', service: 'courier' }), created_at: new Date().toISOString() }).execute();
      return orderId;
    }
    const parcelLog = async (orderId: string) =>
      (await db.selectFrom('activity_log').select(['action', 'details']).where('subject_id', '=', orderId).where('action', 'in', ['order.shipment', 'order.shipped']).orderBy('action').execute()).map((e) => ({ action: e.action, ...JSON.parse(e.details) }));
    const ewa = await account('Ewa Paczka');
    const other = await account('Jan Paczka');
    const orderId = await shippedByInpost(ewa, 'shp-ewa');
    const otherOrder = await shippedByInpost(other, 'shp-jan');
    const otherLog = await parcelLog(otherOrder);

    // Before: the label comes from ShipX; the log says which shipment and which parcel.
    expect((await label(orderId)).status).toBe(200);
    expect(await parcelLog(orderId)).toEqual([
      { action: 'order.shipment', shipmentId: 'shp-ewa', size: 'small', service: 'courier' },
      { action: 'order.shipped', from: 'processing', to: 'shipped', carrier: 'inpost', trackingNumber: '6200123456789' },
    ]);
    expect(await deleteAccount(db, { userId: ewa.userId, reviews: 'keep', locale: 'en' })).toMatchObject({ ok: true });
    asked.length = 0;

    // After: InPost is not asked for the person's name, address and phone; the page says why, cleanly.
    expect(await shipmentLabel({ db, shipx }, orderId)).toEqual({ ok: false, reason: 'anonymised' });
    const refused = await label(orderId);
    expect([refused.status, (await refused.text()).trim()]).toEqual([410, 'This order’s customer details were removed, so its InPost label (their name, address and phone) is no longer available.']);
    expect(asked).toEqual([]);
    // The shipment id itself stays on the order (what was sent, and to whom InPost knows); the log keeps what was done.
    expect(await db.selectFrom('orders').select(['shipment_id', 'carrier']).where('id', '=', orderId).executeTakeFirstOrThrow()).toEqual({ shipment_id: 'shp-ewa', carrier: 'inpost' });
    expect(await parcelLog(orderId)).toEqual([
      { action: 'order.shipment', size: 'small', service: 'courier' },
      { action: 'order.shipped', from: 'processing', to: 'shipped', carrier: 'inpost' },
    ]);
    // Another customer's order keeps its label and its log.
    expect((await label(otherOrder)).status).toBe(200);
    expect(asked).toEqual(['shp-jan']);
    expect(await parcelLog(otherOrder)).toEqual(otherLog);
  });

  it('a withdrawal made before the deletion is refunded after it: the refund, its VAT and the correcting invoice are right, nobody is mailed', async () => {
    const zofia = await account('Zofia Zwrot');
    const orderId = await order(zofia, [gayo, java], { invoice: true });
    const withdrawable = (await findOwnOrderForWithdrawal(db, zofia.userId, orderId))!;
    const javaLine = withdrawable.lines.find((l) => l.productId === java)!;
    const asked = await requestWithdrawal(db, withdrawable, { name: zofia.name, email: zofia.email, positions: [javaLine.position], reason: '', locale: 'en' }, { contactTo: 'shop@kopi.test' });
    if (!asked.ok) throw new Error(asked.reason);
    expect(await deleteAccount(db, { userId: zofia.userId, reviews: 'keep', locale: 'en' })).toMatchObject({ ok: true, orders: 1 });

    const orderBefore = await db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
    expect(orderBefore).toMatchObject({ user_email: '', shipping_full_name: '', anonymised_by: 'deletion', refunded_cents: 0 });
    const [invoice, ...none] = await db.selectFrom('invoices').selectAll().where('order_id', '=', orderId).execute();
    expect(none).toEqual([]);
    expect(JSON.parse(invoice!.buyer)).toMatchObject({ name: cafe.name, taxId: cafe.taxId });
    const mailsBefore = await mailsTo(zofia.email);
    const javaVat = (await db.selectFrom('order_lines').select('vat_cents').where('order_id', '=', orderId).where('position', '=', javaLine.position).executeTakeFirstOrThrow()).vat_cents!;
    expect(javaVat).toBeGreaterThan(0);

    expect(await refundWithdrawal({ db, payments: provider, publicUrl: 'https://kopi.test/', log: quiet }, owner, orderId, asked.withdrawal.id)).toMatchObject({ ok: true, refundedCents: 900 });

    // The refund: what the withdrawn coffee cost, with its VAT.
    const refunds = await db.selectFrom('refunds').select(['id', 'amount_cents', 'vat_cents', 'status']).where('order_id', '=', orderId).execute();
    expect(refunds).toEqual([{ id: expect.any(String), amount_cents: 900, vat_cents: javaVat, status: 'succeeded' }]);
    // The correcting invoice (KOR) corrects the kept invoice, for its buyer — the invoice is a document of its own.
    const correction = await db.selectFrom('invoices').selectAll().where('order_id', '=', orderId).where('kind', '=', 'correction').executeTakeFirstOrThrow();
    expect(correction).toMatchObject({ corrects_id: invoice!.id, refund_id: refunds[0]!.id, gross_cents: -900, vat_cents: -javaVat, buyer: invoice!.buyer });
    expect(correction.number).toMatch(/^KOR\/\d{4}\/\d{5}$/);
    expect(correction.pdf).not.toBeNull();
    // Nobody is mailed at the deleted address, and no mail is queued without an address.
    expect(await mailsTo(zofia.email)).toEqual(mailsBefore);
    expect(await db.selectFrom('mail_outbox').select('id').where('to_address', '=', '').execute()).toEqual([]);
    // The order's amounts are as they were; only what was refunded moved.
    expect(await db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow()).toEqual({ ...orderBefore, refunded_cents: 900 });
  });

  it('removes the reviews when asked, and the coffee’s stars and count are recounted', async () => {
    const coffee = await createCoffee(db, 'Kerinci', 1300);
    const piotr = await account('Piotr Zieliński');
    const ewa = await account('Ewa Lis');
    await order(piotr, [coffee]);
    await order(ewa, [coffee]);
    expect(await saveReview(db, { userId: piotr.userId, displayName: piotr.name }, coffee, { rating: 5, body: 'Great', locale: 'pl' })).toMatchObject({ ok: true });
    expect(await saveReview(db, { userId: ewa.userId, displayName: ewa.name }, coffee, { rating: 2, body: 'Too sour', locale: 'en' })).toMatchObject({ ok: true });
    expect(await figures(coffee)).toEqual({ rating: 3.5, reviewCount: 2 });

    expect(await deleteAccount(db, { userId: piotr.userId, reviews: 'remove', locale: 'pl' })).toEqual({ ok: true, orders: 1, reviews: 1 });
    expect(await count('reviews', piotr.userId)).toBe(0);
    expect(await db.selectFrom('reviews').select(['user_id', 'author_name']).where('product_id', '=', coffee).execute()).toEqual([{ user_id: ewa.userId, author_name: 'Ewa L.' }]);
    expect(await figures(coffee)).toEqual({ rating: 2, reviewCount: 1 });
    // The confirmation in the customer's language.
    expect((await mailsTo(piotr.email)).filter((m) => m.subject.startsWith('Twoje konto'))).toEqual([{ subject: 'Twoje konto w Kopi zostało usunięte', status: 'queued' }]);
    expect((await listActivity(db, { subjectType: 'customer', subjectId: piotr.userId }))[0]).toMatchObject({ action: 'customer.deleted', details: { orders: 1, reviews: 'remove' } });
  });

  it('refuses an admin’s account and a customer’s with a paid parcel not yet delivered, changing nothing', async () => {
    const admin = await account('Anna Admin');
    await db.updateTable('users').set({ is_admin: 1 }).where('id', '=', admin.userId).execute();
    await createSession(db, admin.userId);
    const adminBefore = await snapshot(admin.userId, admin.email);
    expect(await deleteAccount(db, { userId: admin.userId, reviews: 'keep', locale: 'en' })).toEqual({ ok: false, reason: 'admin' });
    expect(await snapshot(admin.userId, admin.email)).toEqual(adminBefore);

    // Paid and still being packed, then on its way: the address is needed until it arrives.
    const waiting = await account('Tomasz Czekający');
    await createSession(db, waiting.userId);
    await updateProfile(db, waiting.userId, { fullName: 'Tomasz C', address: 'ul. Długa 1', city: 'Gdańsk', zipCode: '80-001', deliveryAddress: '', deliveryCity: '', deliveryZipCode: '', paymentMethod: 'creditCard' });
    const orderId = await order(waiting, [java], { until: 'processing' });
    const before = await snapshot(waiting.userId, waiting.email);
    expect(before.orders).toMatchObject([{ id: orderId, payment_status: 'succeeded', shipping_status: 'processing', user_email: waiting.email }]);
    expect(await deleteAccount(db, { userId: waiting.userId, reviews: 'keep', locale: 'en' })).toEqual({ ok: false, reason: 'open_orders', order: { label: orderLabel(orderId), pickup: false } });
    expect(await snapshot(waiting.userId, waiting.email)).toEqual(before);

    await moveOrder(fulfil(), owner, orderId, { to: 'shipped', carrier: 'inpost', trackingNumber: '6200123456780' });
    const shipped = await snapshot(waiting.userId, waiting.email);
    expect(await deleteAccount(db, { userId: waiting.userId, reviews: 'keep', locale: 'en' })).toMatchObject({ ok: false, reason: 'open_orders' });
    expect(await snapshot(waiting.userId, waiting.email)).toEqual(shipped);

    // Once it has arrived, the account can go.
    await moveOrder(fulfil(), owner, orderId, { to: 'delivered' });
    expect(await deleteAccount(db, { userId: waiting.userId, reviews: 'keep', locale: 'en' })).toEqual({ ok: true, orders: 1, reviews: 0 });
    expect(await deleteAccount(db, { userId: 'no-such-account', reviews: 'keep', locale: 'en' })).toEqual({ ok: false, reason: 'not_found' });
  });

  it('by the owner (who checked who asks): mail about the address and what was kept under it as a guest go too', async () => {
    const jan = await customerWithHistory('Jan Owner-Asked');
    const guestOrder = newId();
    await db
      .insertInto('orders')
      .values({ id: guestOrder, user_id: null, user_email: jan.email.toUpperCase(), locale: 'pl', cart_id: null, total_cents: 1400, currency: 'EUR', payment_provider: 'test', payment_intent_id: null, payment_client_secret: null, cart_fingerprint: 'x', payment_status: 'failed', shipping_status: 'processing', shipping_full_name: 'Jan Guest', shipping_address: 'ul. Długa 1', shipping_city: 'Poznań', shipping_zip_code: '60-001', created_at: new Date().toISOString(), paid_at: null, visitor_id: null })
      .execute();
    await db.insertInto('activity_log').values({ id: newId(), actor_id: null, actor_email: owner.email, action: 'message.deleted', subject_type: 'message', subject_id: null, subject_label: 'Hello', details: JSON.stringify({ from: jan.email }), created_at: new Date().toISOString() }).execute();

    expect(await deleteAccount(db, { userId: jan.userId, reviews: 'keep', locale: 'en', owner })).toMatchObject({ ok: true });
    // Every mail about the address is gone; the confirmation goes in the language of the customer's last order (English).
    expect(await mailsTo(jan.email)).toEqual([{ subject: CONFIRMATION, status: 'queued' }]);
    expect(await db.selectFrom('mail_outbox').select('id').where((eb) => eb(eb.fn('lower', ['reply_to']), '=', jan.email.toLowerCase())).execute()).toEqual([]);
    // What the same person wrote or ordered without signing in goes too.
    expect(await db.selectFrom('contact_messages').select('id').where('email', '=', jan.email).execute()).toEqual([]);
    expect(await db.selectFrom('orders').select(['user_email', 'shipping_full_name', 'anonymised_by']).where('id', '=', guestOrder).executeTakeFirstOrThrow()).toEqual({ user_email: '', shipping_full_name: '', anonymised_by: 'deletion' });
    // The owner's log keeps what was done, not to whom.
    const log = await db.selectFrom('activity_log').select(['details', 'subject_label']).execute();
    expect(JSON.stringify(log).toLowerCase()).not.toContain(jan.email.toLowerCase());
    expect(await listActivity(db, { subjectType: 'customer', subjectId: jan.userId })).toMatchObject([{ action: 'customer.deleted', actorEmail: owner.email }]);
  });

  it('a guest’s request by mail: the owner erases what is kept under the address, not while a parcel is on its way', async () => {
    const address = uniqueEmail('guest');
    const order = async (status: { payment: string; shipping: string }) => {
      const id = newId();
      await db
        .insertInto('orders')
        .values({ id, user_id: null, user_email: address, locale: 'pl', cart_id: null, total_cents: 1400, currency: 'EUR', payment_provider: 'test', payment_intent_id: null, payment_client_secret: null, cart_fingerprint: id, payment_status: status.payment, shipping_status: status.shipping, shipping_full_name: 'Ewa Gość', shipping_address: 'ul. Długa 1', shipping_city: 'Poznań', shipping_zip_code: '60-001', created_at: new Date().toISOString(), paid_at: status.payment === 'succeeded' ? new Date().toISOString() : null, visitor_id: null, guest_key: newId() })
        .execute();
      return id;
    };
    const delivered = await order({ payment: 'succeeded', shipping: 'delivered' });
    const onItsWay = await order({ payment: 'succeeded', shipping: 'shipped' });
    expect(await submitContactMessage(db, { input: { name: 'Ewa', email: address, subject: 'Gift', message: 'Gift wrap?' }, locale: 'pl', contactTo: 'shop@kopi.test' })).toMatchObject({ ok: true });

    expect(await eraseGuest(db, { email: '', owner, locale: 'en' })).toEqual({ ok: false, reason: 'not_found' });
    expect(await eraseGuest(db, { email: 'nobody.at.all@example.test', owner, locale: 'en' })).toEqual({ ok: false, reason: 'not_found' });
    const someone = await account('Has Account');
    expect(await eraseGuest(db, { email: someone.email, owner, locale: 'en' })).toEqual({ ok: false, reason: 'has_account' });
    expect(await eraseGuest(db, { email: address, owner, locale: 'en' })).toEqual({ ok: false, reason: 'open_orders' });
    expect(await db.selectFrom('orders').select('user_email').where('id', '=', delivered).executeTakeFirstOrThrow()).toEqual({ user_email: address });

    await db.updateTable('orders').set({ shipping_status: 'delivered' }).where('id', '=', onItsWay).execute();
    expect(await eraseGuest(db, { email: ` ${address.toUpperCase()} `, owner, locale: 'en' })).toEqual({ ok: true, orders: 2 });
    const rows = await db.selectFrom('orders').select(['user_email', 'shipping_full_name', 'shipping_address', 'guest_key', 'total_cents', 'anonymised_by']).where('id', 'in', [delivered, onItsWay]).execute();
    expect(rows).toEqual([0, 1].map(() => ({ user_email: '', shipping_full_name: '', shipping_address: '', guest_key: null, total_cents: 1400, anonymised_by: 'deletion' })));
    expect(await db.selectFrom('contact_messages').select('id').where('email', '=', address).execute()).toEqual([]);
    // The shop's copy of the message (answering to the guest) is gone; the guest is told, in the language they ordered in.
    expect(await db.selectFrom('mail_outbox').select('id').where('reply_to', '=', address).execute()).toEqual([]);
    expect(await mailsTo(address)).toEqual([{ subject: 'Twoje dane w Kopi zostały usunięte', status: 'queued' }]);
    expect(await eraseGuest(db, { email: address, owner, locale: 'en' })).toEqual({ ok: false, reason: 'not_found' });
  });

  it('two deletions at once: one deletes, the other finds the account gone and changes nothing', async () => {
    const marta = await customerWithHistory('Marta Kowal');
    const totalsBefore = await orderTotals();
    const outcomes = await Promise.all([1, 2].map(() => deleteAccount(db, { userId: marta.userId, reviews: 'keep', locale: 'en' })));
    expect(outcomes.filter((o) => o.ok)).toEqual([{ ok: true, orders: 1, reviews: 1 }]);
    expect(outcomes.filter((o) => !o.ok)).toEqual([{ ok: false, reason: 'not_found' }]);
    // One confirmation, one log entry.
    expect((await mailsTo(marta.email)).filter((m) => m.subject === CONFIRMATION)).toEqual([{ subject: CONFIRMATION, status: 'queued' }]);
    expect((await listActivity(db, { subjectType: 'customer', subjectId: marta.userId })).map((e) => e.action)).toEqual(['customer.deleted']);
    expect(await db.selectFrom('users').select(['email', 'deleted_at']).where('id', '=', marta.userId).executeTakeFirstOrThrow()).toMatchObject({ email: `deleted:${marta.userId}`, deleted_at: expect.any(String) });
    expect(await orderTotals()).toEqual(totalsBefore);
    // And a third, later, is refused the same way.
    const after = await snapshot(marta.userId, marta.email);
    expect(await deleteAccount(db, { userId: marta.userId, reviews: 'remove', locale: 'en' })).toEqual({ ok: false, reason: 'not_found' });
    expect(await snapshot(marta.userId, marta.email)).toEqual(after);
  });
});
