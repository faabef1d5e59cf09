/**
 * Fair holds and replaced orders on SQLite and PostgreSQL (docs/decisions/0031): no cart, customer or client
 * address can hold a coffee away from everyone else — not by many carts, not by going to payment again and
 * again — while a café's 20 kg order is still held; and an order a newer one replaced cannot be paid any more,
 * or is refunded in full when it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '~/db/database.server';
import { newId } from '~/db/ids.server';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { addToCart } from '~/modules/cart/index.server';
import { createProduct, getProduct, variantsOf } from '~/modules/catalog/index.server';
import { type PaymentServices, payWithCard, startAsyncPayment, startPayment, sweepPayments } from '~/modules/checkout/index.server';
import { orderLabel } from '~/modules/orders/index.server';
import { TEST_CARDS, answerTestBank, createTestPaymentProvider, type PaymentProvider } from '~/modules/payments/index.server';
import { address, cartLines, courier, mails, pickup, storage } from '../../../tests/fixtures/shop';
import { HOLD_LIMITS, addBatch, correctStock, holdClient, reserveStock, setStockMode, stockOf, takeStock } from './index.server';

const owner = { id: null, email: 'owner@kopi.test' };
const card = { number: TEST_CARDS.success, expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: '123' };
const address1 = 'ip:203.0.113.7';
const minutes = (at: Date, n: number) => new Date(at.getTime() + n * 60_000);

describe.each(testDatabases())('fair holds on %s', (_kind, open) => {
  let handle: TestDatabase;
  let db: DB;
  let provider: PaymentProvider;
  let services: PaymentServices;
  beforeAll(async () => {
    handle = await open();
    db = handle.db;
    provider = createTestPaymentProvider(db);
    services = { db, payments: provider, contactTo: 'shop@kopi.test', publicUrl: 'https://kopi.test', kickMail: () => {} };
  });
  afterAll(() => handle.close());

  /** Capsules in packs of ten (55 g), 224 packs counted. */
  async function capsules(name: string, packs = 224) {
    const id = await createProduct(db, { category: 'capsulesAndPods', options: ['pack'], variants: [{ packCount: 10, netWeightGrams: 55, priceCents: 450 }], translations: { en: { name, description: '' } } });
    await setStockMode(db, owner, { productId: id, label: name }, { mode: 'units', sellWithinDays: null });
    const [pack] = (await variantsOf(db, [id])).get(id)!;
    await correctStock(db, owner, { productId: id, label: name }, { variantId: pack.id, units: packs, reason: 'count' });
    return { id, pack: pack.id };
  }

  /** Beans in 1 kg bags, `kg` of them roasted. */
  async function beans(name: string, kg: number) {
    const id = await createProduct(db, { category: 'wholeBean', options: ['size'], variants: [{ netWeightGrams: 1000, priceCents: 4000 }], translations: { en: { name, description: '' } } });
    await setStockMode(db, owner, { productId: id, label: name }, { mode: 'batches', sellWithinDays: null });
    await addBatch(db, owner, { productId: id, label: name }, { roastedOn: new Date().toISOString().slice(0, 10), grams: kg * 1000 });
    const [bag] = (await variantsOf(db, [id])).get(id)!;
    return { id, bag: bag.id };
  }

  /** A cookie-less guest's new cart: every request without the cart cookie makes one. */
  async function guestCart(variantId: string, quantity: number) {
    const id = newId();
    const at = new Date().toISOString();
    await db.insertInto('carts').values({ id, user_id: null, created_at: at, updated_at: at }).execute();
    const added = await addToCart(db, id, variantId, quantity);
    if (!added.ok) throw new Error(JSON.stringify(added));
    return id;
  }
  const proceed = (cartId: string, client: string | null = address1, delivery: typeof pickup | typeof courier = pickup) =>
    startPayment(db, provider, { userId: null, email: 'guest@example.test', locale: 'en', currency: 'EUR', cartId, address, delivery, client });
  const holdOf = async (orderId: string) => {
    const [row, holds] = await Promise.all([
      db.selectFrom('orders').select('hold_refused').where('id', '=', orderId).executeTakeFirstOrThrow(),
      db.selectFrom('stock_reservations').select('expires_at').where('order_id', '=', orderId).where('status', '=', 'live').execute(),
    ]);
    return { refused: row.hold_refused, held: holds.length > 0 };
  };
  const left = async (productId: string, variantId: string) => (await stockOf(db, [productId])).get(productId)!.variants[variantId];

  it('carts from one address hold at most three orders and half of a coffee: it is never sold out to others', async () => {
    const pods = await capsules('Hoarded');
    // Three carts of 75 packs each, from one address, as the probe did: only the first is held.
    const orders = [];
    for (let i = 0; i < 3; i++) {
      const started = await proceed(await guestCart(pods.pack, 75));
      expect(started.ok).toBe(true);
      if (started.ok) orders.push(started.orderId);
    }
    expect(await holdOf(orders[0])).toEqual({ refused: null, held: true });
    expect(await holdOf(orders[1])).toEqual({ refused: 'amount', held: false });
    expect(await holdOf(orders[2])).toEqual({ refused: 'amount', held: false });
    expect(await left(pods.id, pods.pack)).toBe(224 - 75);
    const product = await getProduct(db, storage, pods.id, 'en');
    expect(product?.soldOut).toBe(false);

    // Twenty fresh carts of one pack each from that address: no more than three of its carts hold at once.
    const small = [];
    for (let i = 0; i < 20; i++) {
      const started = await proceed(await guestCart(pods.pack, 1));
      if (started.ok) small.push(await holdOf(started.orderId));
    }
    expect(small).toHaveLength(20);
    expect(small.filter((h) => h.held)).toHaveLength(HOLD_LIMITS.clientCarts - 1);
    expect(small.filter((h) => h.refused === 'client')).toHaveLength(20 - (HOLD_LIMITS.clientCarts - 1));
    // Another address is not affected; and a refused hold still lets its order be paid while the coffee lasts.
    const elsewhere = await proceed(await guestCart(pods.pack, 2), 'ip:198.51.100.20');
    expect(elsewhere.ok && (await holdOf(elsewhere.orderId))).toEqual({ refused: null, held: true });
    const unheldCart = await guestCart(pods.pack, 1);
    const unheld = await proceed(unheldCart);
    if (!unheld.ok) throw new Error(unheld.reason);
    expect((await holdOf(unheld.orderId)).refused).toBe('client');
    const before = (await left(pods.id, pods.pack))!;
    expect(await payWithCard(services, { userId: null, cartId: unheldCart, orderId: unheld.orderId, card, client: address1 })).toEqual({ ok: true, orderId: unheld.orderId });
    expect(await left(pods.id, pods.pack)).toBe(before - 1);
  });

  it('a café’s 20 kg order is held; one more than half of what is left goes on unheld and is paid', async () => {
    const coffee = await beans('Café blend', 60);
    const cafe = await proceed(await guestCart(coffee.bag, 20), 'ip:192.0.2.10');
    expect(cafe.ok && (await holdOf(cafe.orderId))).toEqual({ refused: null, held: true });
    expect(await left(coffee.id, coffee.bag)).toBe(40);
    const bigCart = await guestCart(coffee.bag, 21);
    const big = await proceed(bigCart, 'ip:192.0.2.11');
    if (!big.ok) throw new Error(big.reason);
    expect(await holdOf(big.orderId)).toEqual({ refused: 'amount', held: false });
    expect(await left(coffee.id, coffee.bag)).toBe(40);
    expect(await payWithCard(services, { userId: null, cartId: bigCart, orderId: big.orderId, card, client: 'ip:192.0.2.11' })).toEqual({ ok: true, orderId: big.orderId });
    expect(await left(coffee.id, coffee.bag)).toBe(19);
    // More than one order may hold at all, however much there is.
    const plenty = await beans('Plenty', 200);
    const over = await reserveStock(db, newId(), [{ productId: plenty.id, variantId: plenty.bag, quantity: HOLD_LIMITS.orderGrams / 1000 + 1, netWeightGrams: 1000 }], { holder: { cart: newId() } });
    expect(over).toMatchObject({ ok: true, until: null, refused: 'amount' });
    // The last bags can always be held: below the floor, half of what is left does not apply.
    const last = await beans('Last bag', 1);
    const lastCart = await proceed(await guestCart(last.bag, 1), 'ip:192.0.2.12');
    expect(lastCart.ok && (await holdOf(lastCart.orderId))).toEqual({ refused: null, held: true });
  });

  it('counts a client by its address, but not a loopback one (a test here, or a proxy the shop does not trust)', () => {
    expect(holdClient('203.0.113.7')).toBe('ip:203.0.113.7');
    expect(holdClient('::ffff:203.0.113.7')).toBe('ip:203.0.113.7');
    expect(holdClient('127.0.0.1')).toBeNull();
    expect(holdClient('::1')).toBeNull();
    expect(holdClient('::ffff:127.0.0.1')).toBeNull();
    expect(holdClient('unknown')).toBeNull();
  });

  it('going to payment again does not renew a hold for ever: a stretch of two reservation times, then a rest', async () => {
    const coffee = await beans('Renewed', 10);
    const lines = [{ productId: coffee.id, variantId: coffee.bag, quantity: 1, netWeightGrams: 1000 }];
    const holder = { cart: newId(), client: 'ip:192.0.2.50' };
    const orderId = newId();
    const t0 = minutes(new Date(), 60);
    const at = async (n: number) => {
      const reserved = await reserveStock(db, orderId, lines, { now: minutes(t0, n), minutes: 15, holder });
      if (!reserved.ok) throw new Error('short');
      return reserved.until ? (reserved.until.getTime() - t0.getTime()) / 60_000 : reserved.refused;
    };
    expect(await at(0)).toBe(15);
    expect(await at(10)).toBe(25);
    // Proceeding again and again: the hold ends with the stretch, half an hour after it began.
    expect(await at(20)).toBe(30);
    expect(await at(29)).toBe(30);
    expect(await at(31)).toBe('time');
    // The cart, and its address with another cart, rest: a new stretch begins only a reservation time after its holds ended.
    expect(await at(40)).toBe('time');
    const other = await reserveStock(db, newId(), lines, { now: minutes(t0, 40), minutes: 15, holder: { cart: newId(), client: holder.client } });
    expect(other).toMatchObject({ ok: true, until: null, refused: 'time' });
    expect(await at(46)).toBe(61);
  });

  it('a holder who pays was not hoarding: the next checkout of that cart and address holds for the full time', async () => {
    const coffee = await beans('Regular', 10);
    const lines = [{ productId: coffee.id, variantId: coffee.bag, quantity: 1, netWeightGrams: 1000, position: 0 }];
    const holder = { cart: newId(), user: newId(), client: 'ip:192.0.2.55' };
    const t0 = minutes(new Date(), 120);
    const first = newId();
    expect(await reserveStock(db, first, lines, { now: t0, minutes: 15, holder })).toMatchObject({ ok: true, refused: null });
    expect(await reserveStock(db, first, lines, { now: minutes(t0, 20), minutes: 15, holder })).toMatchObject({ ok: true, until: minutes(t0, 30) });
    expect(await takeStock(db, first, lines, { now: minutes(t0, 21), user: holder.user })).toMatchObject({ ok: true });
    const next = await reserveStock(db, newId(), lines, { now: minutes(t0, 25), minutes: 15, holder });
    expect(next).toMatchObject({ ok: true, until: minutes(t0, 40), refused: null });
  });

  it('a replaced order’s bank page can no longer pay it, and its card form cannot: one paid order per cart', async () => {
    const coffee = await beans('Replaced', 5);
    const cartId = await guestCart(coffee.bag, 1);
    const first = await proceed(cartId, 'ip:192.0.2.60', pickup);
    if (!first.ok) throw new Error(first.reason);
    const bank = await startAsyncPayment(services, { userId: null, cartId, orderId: first.orderId, method: 'przelewy24' });
    expect(bank).toMatchObject({ ok: true, redirectUrl: `/test-bank/${first.paymentId}` });
    // Another tab changes the delivery: a new order replaces the first, whose payment is cancelled.
    const second = await proceed(cartId, 'ip:192.0.2.60', courier);
    if (!second.ok) throw new Error(second.reason);
    expect(second.orderId).not.toBe(first.orderId);
    const replaced = await db.selectFrom('orders').select(['payment_status', 'payment_cancelled_at']).where('id', '=', first.orderId).executeTakeFirstOrThrow();
    expect(replaced.payment_status).toBe('replaced');
    expect(replaced.payment_cancelled_at).not.toBeNull();
    expect((await db.selectFrom('test_payments').select('status').where('id', '=', first.paymentId).executeTakeFirstOrThrow()).status).toBe('canceled');
    expect(await answerTestBank(db, first.paymentId, true)).toBe(false);
    expect(await payWithCard(services, { userId: null, cartId, orderId: first.orderId, card })).toEqual({ ok: false, code: 'not_pending' });
    // Going back to the first delivery makes a new order, not the cancelled one again.
    const third = await proceed(cartId, 'ip:192.0.2.60', pickup);
    if (!third.ok) throw new Error(third.reason);
    expect([first.orderId, second.orderId]).not.toContain(third.orderId);
    expect(await payWithCard(services, { userId: null, cartId, orderId: third.orderId, card })).toEqual({ ok: true, orderId: third.orderId });
    const paid = await db.selectFrom('orders').select('id').where('cart_id', '=', cartId).where('payment_status', '=', 'succeeded').execute();
    expect(paid.map((o) => o.id)).toEqual([third.orderId]);
  });

  it('a replaced order its bank paid before it could be cancelled is refunded in full by the sweep, with a mail', async () => {
    const coffee = await beans('Paid twice', 5);
    const cartId = await guestCart(coffee.bag, 1);
    const email = `twice.${newId().slice(0, 6).toLowerCase()}@example.test`;
    const start = (delivery: typeof pickup | typeof courier) => startPayment(db, provider, { userId: null, email, locale: 'pl', currency: 'EUR', cartId, address, delivery, client: 'ip:192.0.2.70' });
    const first = await start(pickup);
    if (!first.ok) throw new Error(first.reason);
    await startAsyncPayment(services, { userId: null, cartId, orderId: first.orderId, method: 'przelewy24' });
    // The bank approved it, but nobody came back to the shop yet when the cart made a new order.
    expect(await answerTestBank(db, first.paymentId, true)).toBe(true);
    const second = await start(courier);
    if (!second.ok) throw new Error(second.reason);
    expect((await db.selectFrom('orders').select('payment_cancelled_at').where('id', '=', first.orderId).executeTakeFirstOrThrow()).payment_cancelled_at).toBeNull();
    const stockBefore = await left(coffee.id, coffee.bag);
    await sweepPayments(services);
    const refunded = await db.selectFrom('orders').select(['payment_status', 'shipping_status', 'refunded_cents', 'total_cents']).where('id', '=', first.orderId).executeTakeFirstOrThrow();
    expect(refunded).toMatchObject({ payment_status: 'succeeded', shipping_status: 'cancelled', refunded_cents: refunded.total_cents });
    expect((await db.selectFrom('test_refunds').select('amount_cents').where('payment_id', '=', first.paymentId).execute()).map((r) => r.amount_cents)).toEqual([refunded.total_cents]);
    const sent = (await mails(db)).filter((m) => m.to_address === email);
    expect(sent.map((m) => m.subject)).toEqual([`Zwróciliśmy płatność za zamówienie Kopi ${orderLabel(first.orderId)}`]);
    // Nothing left stock, no invoice, the cart still has its coffee for the newer order; a second sweep changes nothing.
    expect(await left(coffee.id, coffee.bag)).toBe(stockBefore);
    expect(await cartLines(db, cartId)).toEqual([[coffee.id, 1]]);
    await sweepPayments(services);
    expect((await db.selectFrom('test_refunds').select('id').where('payment_id', '=', first.paymentId).execute())).toHaveLength(1);
    expect(await payWithCard(services, { userId: null, cartId, orderId: second.orderId, card })).toEqual({ ok: true, orderId: second.orderId });
  });
});
