import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '~/db/database.server';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { addToCart, ensureUserCart, getCart, setLineQuantity } from '~/modules/cart/index.server';
import { createProduct, getProduct, storedCatalogVersion, variantsOf } from '~/modules/catalog/index.server';
import { type PaymentServices, handlePaymentEvent, payWithCard, settlePayment, startPayment } from '~/modules/checkout/index.server';
import { changeStock } from '~/modules/backoffice/index.server';
import { cancelOrder, getOwnerOrder } from '~/modules/fulfilment/index.server';
import { TEST_CARDS, createTestPaymentProvider, type PaymentProvider } from '~/modules/payments/index.server';
import { address, pickup, createUser, mails, storage } from '../../../tests/fixtures/shop';
import {
  addBatch,
  correctStock,
  getStockOverview,
  lowStock,
  releaseExpiredReservations,
  releaseStock,
  reserveStock,
  refreshAgingStock,
  returnToStock,
  setStockMode,
  stockOf,
  takeStock,
} from './index.server';
import { LOW_STOCK } from './stock.types';

const owner = { id: null, email: 'owner@kopi.test' };
const card = { number: TEST_CARDS.success, expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: '123' };
const minutesFrom = (at: Date, minutes: number) => new Date(at.getTime() + minutes * 60_000);
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

describe.each(testDatabases())('stock on %s', (_kind, open) => {
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

  /** A coffee in 250 g and 1 kg, its stock kept in roast batches. */
  async function beans(name: string, batches: Array<[roastedOn: string, grams: number]> = []) {
    const id = await createProduct(db, {
      category: 'wholeBean',
      options: ['size'],
      variants: [
        { netWeightGrams: 250, priceCents: 1500 },
        { netWeightGrams: 1000, priceCents: 5000 },
      ],
      translations: { en: { name, description: '' } },
    });
    const subject = { productId: id, label: name };
    await setStockMode(db, owner, subject, { mode: 'batches', sellWithinDays: null });
    for (const [roastedOn, grams] of batches) await addBatch(db, owner, subject, { roastedOn, grams });
    const [small, large] = [...((await variantsOf(db, [id])).get(id) ?? [])].sort((a, b) => a.priceCents - b.priceCents);
    return { id, subject, small: small.id, large: large.id };
  }

  /** Capsules in packs of 10 and 50, counted in units. */
  async function capsules(name: string, units: [number, number]) {
    const id = await createProduct(db, {
      category: 'capsulesAndPods',
      options: ['pack'],
      variants: [
        { packCount: 10, netWeightGrams: 55, priceCents: 450 },
        { packCount: 50, netWeightGrams: 275, priceCents: 1900 },
      ],
      translations: { en: { name, description: '' } },
    });
    const subject = { productId: id, label: name };
    await setStockMode(db, owner, subject, { mode: 'units', sellWithinDays: null });
    const [ten, fifty] = [...((await variantsOf(db, [id])).get(id) ?? [])].sort((a, b) => a.priceCents - b.priceCents);
    await correctStock(db, owner, subject, { variantId: ten.id, units: units[0], reason: 'count' });
    await correctStock(db, owner, subject, { variantId: fifty.id, units: units[1], reason: 'count' });
    return { id, subject, ten: ten.id, fifty: fifty.id };
  }

  async function customer(items: Array<[variantId: string, quantity: number]>) {
    const user = await createUser(db);
    const cartId = await ensureUserCart(db, user.id);
    for (const [variantId, quantity] of items) {
      const added = await addToCart(db, cartId, variantId, quantity);
      if (!added.ok) throw new Error(`could not add: ${JSON.stringify(added)}`);
    }
    return { ...user, cartId };
  }
  const start = (c: Awaited<ReturnType<typeof customer>>, reservationMinutes?: number) =>
    startPayment(db, provider, { userId: c.id, email: c.email, locale: 'en', currency: 'EUR', cartId: c.cartId, address, delivery: pickup, reservationMinutes });
  const gramsLeft = async (productId: string) =>
    (await db.selectFrom('roast_batches').select('grams_left').where('product_id', '=', productId).execute()).reduce((sum, b) => sum + b.grams_left, 0);

  it('sells each variant its weight from the batches: the bags = grams ÷ weight, rounded down', async () => {
    const coffee = await beans('Arithmetic', [[daysAgo(3), 2600]]);
    const stock = (await stockOf(db, [coffee.id])).get(coffee.id)!;
    expect(stock).toMatchObject({ mode: 'batches', grams: 2600, roastedOn: daysAgo(3) });
    expect(stock.variants).toEqual({ [coffee.small]: 10, [coffee.large]: 2 });
    // The product page and cards read the same numbers, never showing a count above the "only N left" threshold.
    const product = await getProduct(db, storage, coffee.id, 'en');
    expect(product?.variants.map((v) => v.left)).toEqual([LOW_STOCK + 1, 2]);
    expect(product?.roastedOn).toBe(daysAgo(3));
    expect(product?.soldOut).toBe(false);
  });

  it('counts units per variant, and a product not tracked has no limit', async () => {
    const pods = await capsules('Counted', [7, 0]);
    const stock = (await stockOf(db, [pods.id])).get(pods.id)!;
    expect(stock.variants).toEqual({ [pods.ten]: 7, [pods.fifty]: 0 });
    const untracked = await createProduct(db, { category: 'wholeBean', priceCents: 1000, translations: { en: { name: 'Untracked', description: '' } } });
    expect((await stockOf(db, [untracked])).size).toBe(0);
    expect((await getProduct(db, storage, untracked, 'en'))?.variants[0].left).toBeNull();
  });

  it('takes the oldest batch first, records the batches on the order line, and the roast date moves on', async () => {
    const coffee = await beans('Oldest first', [
      [daysAgo(2), 1000],
      [daysAgo(9), 300],
    ]);
    const buyer = await customer([[coffee.small, 2]]);
    const started = await start(buyer);
    expect(started.ok).toBe(true);
    if (!started.ok) return;
    expect(await payWithCard(services, { userId: buyer.id, orderId: started.orderId, card })).toEqual({ ok: true, orderId: started.orderId });
    const line = await db.selectFrom('order_lines').select('batches').where('order_id', '=', started.orderId).executeTakeFirstOrThrow();
    expect(JSON.parse(line.batches!).map((b: { roastedOn: string; grams: number }) => [b.roastedOn, b.grams])).toEqual([
      [daysAgo(9), 300],
      [daysAgo(2), 200],
    ]);
    expect(await gramsLeft(coffee.id)).toBe(800);
    expect((await stockOf(db, [coffee.id])).get(coffee.id)?.roastedOn).toBe(daysAgo(2));
    // The ledger says what was sold, from which batch; the reservation is taken.
    const overview = await getStockOverview(db, coffee.id);
    expect(overview.ledger.filter((m) => m.kind === 'sold').map((m) => m.grams).sort()).toEqual([-200, -300]);
    // Paying took the hold it still had (a live hold is not renewed).
    const holds = await db.selectFrom('stock_reservations').select('status').where('order_id', '=', started.orderId).execute();
    expect(holds.map((h) => h.status)).toEqual(['taken']);
  });

  it('stops counting batches older than the days the owner sells a batch for', async () => {
    const coffee = await beans('Fresh only', [
      [daysAgo(30), 5000],
      [daysAgo(5), 500],
    ]);
    expect((await stockOf(db, [coffee.id])).get(coffee.id)?.grams).toBe(5500);
    await setStockMode(db, owner, coffee.subject, { mode: 'batches', sellWithinDays: 21 });
    const stock = (await stockOf(db, [coffee.id])).get(coffee.id)!;
    expect(stock.grams).toBe(500);
    expect(stock.roastedOn).toBe(daysAgo(5));
    expect(stock.variants[coffee.large]).toBe(0);
  });

  it('holds a payment’s coffee for others until it expires, then lets it go', async () => {
    const coffee = await beans('Held', [[daysAgo(4), 1250]]);
    const first = await customer([[coffee.large, 1]]);
    const started = await start(first);
    expect(started.ok).toBe(true);
    expect((await stockOf(db, [coffee.id])).get(coffee.id)?.variants[coffee.large]).toBe(0);
    // Someone else is told before paying, and cannot add it either.
    const second = await customer([[coffee.small, 1]]);
    expect(await addToCart(db, second.cartId, coffee.large, 1)).toEqual({ ok: false, reason: 'sold_out' });
    expect(await setLineQuantity(db, second.cartId, coffee.small, 5)).toEqual({ ok: false, reason: 'not_enough', left: 1 });
    // The first customer's own cart is not short of what their payment holds.
    expect((await getCart(db, storage, first.cartId, 'en', 'EUR')).stockCapped).toEqual([]);
    // Past the hold, the sweep lets it go.
    const later = minutesFrom(new Date(), 16);
    expect((await stockOf(db, [coffee.id], { now: later })).get(coffee.id)?.variants[coffee.large]).toBe(1);
    expect(await releaseExpiredReservations(db, later)).toBe(true);
    const live = await db.selectFrom('stock_reservations').select('status').where('product_id', '=', coffee.id).where('status', '=', 'live').execute();
    expect(live).toEqual([]);
  });

  it('refuses to start a payment the stock cannot serve, with nothing reserved and no order made', async () => {
    const coffee = await beans('Short', [[daysAgo(2), 500]]);
    const buyer = await customer([[coffee.small, 2]]);
    // The stock falls after the shopper filled the cart.
    const batch = await db.selectFrom('roast_batches').select('id').where('product_id', '=', coffee.id).executeTakeFirstOrThrow();
    await correctStock(db, owner, coffee.subject, { batchId: batch.id, gramsLeft: 300, reason: 'damaged' });
    const refused = await start(buyer);
    expect(refused).toEqual({ ok: false, reason: 'out_of_stock', short: [{ variantId: coffee.small, left: 1 }] });
    expect(await db.selectFrom('orders').select('id').where('user_id', '=', buyer.id).execute()).toEqual([]);
    // The cart is then capped to what is left, and says so.
    const cart = await getCart(db, storage, buyer.cartId, 'en', 'EUR');
    expect(cart.lines.map((l) => l.quantity)).toEqual([1]);
    expect(cart.stockCapped).toEqual([{ variantId: coffee.small, name: 'Short — 250\u00a0g', left: 1 }]);
    expect((await getCart(db, storage, buyer.cartId, 'en', 'EUR')).stockCapped).toEqual([]);
  });

  it('two variants draw on one batch: the cart counts them together', async () => {
    const coffee = await beans('Shared', [[daysAgo(2), 1250]]);
    const buyer = await customer([[coffee.large, 1]]);
    expect(await addToCart(db, buyer.cartId, coffee.small, 1)).toMatchObject({ ok: true });
    expect(await addToCart(db, buyer.cartId, coffee.small, 1)).toEqual({ ok: false, reason: 'not_enough', left: 1 });
  });

  it('a card declined lets the coffee go; paying again holds it again', async () => {
    const coffee = await beans('Declined', [[daysAgo(2), 250]]);
    const buyer = await customer([[coffee.small, 1]]);
    const started = await start(buyer);
    if (!started.ok) throw new Error('not started');
    const declined = await payWithCard(services, { userId: buyer.id, orderId: started.orderId, card: { ...card, number: TEST_CARDS.declined } });
    expect(declined).toMatchObject({ ok: false, code: 'card_declined' });
    expect((await stockOf(db, [coffee.id])).get(coffee.id)?.variants[coffee.small]).toBe(1);
    const shown = await storedCatalogVersion(db);
    expect(await payWithCard(services, { userId: buyer.id, orderId: started.orderId, card })).toEqual({ ok: true, orderId: started.orderId });
    expect(await gramsLeft(coffee.id)).toBe(0);
    // The last bag is gone: every node's cached pages, which said "Only 1 left", are stale.
    expect(await storedCatalogVersion(db)).toBeGreaterThan(shown);
  });

  it('a payment whose hold lapsed and whose coffee was bought meanwhile is refused before the card is charged', async () => {
    const coffee = await beans('Lapsed card', [[daysAgo(2), 250]]);
    const slow = await customer([[coffee.small, 1]]);
    const slowStart = await start(slow, 1);
    if (!slowStart.ok) throw new Error('not started');
    await db.updateTable('stock_reservations').set({ expires_at: minutesFrom(new Date(), -1).toISOString() }).where('order_id', '=', slowStart.orderId).execute();
    const quick = await customer([[coffee.small, 1]]);
    const quickStart = await start(quick);
    if (!quickStart.ok) throw new Error('not started');
    expect(await payWithCard(services, { userId: quick.id, orderId: quickStart.orderId, card })).toMatchObject({ ok: true });
    expect(await payWithCard(services, { userId: slow.id, orderId: slowStart.orderId, card })).toEqual({ ok: false, code: 'out_of_stock' });
    const order = await db.selectFrom('orders').select(['payment_status']).where('id', '=', slowStart.orderId).executeTakeFirstOrThrow();
    expect(order.payment_status).toBe('pending');
    expect(await db.selectFrom('test_payments').select('status').where('id', '=', slowStart.paymentId).executeTakeFirstOrThrow()).toMatchObject({ status: 'requires_payment_method' });
  });

  it('a payment that succeeds after its coffee was gone is refunded in full, never shipped, with an apology', async () => {
    const coffee = await beans('Too late', [[daysAgo(2), 1000]]);
    const late = await customer([[coffee.large, 1]]);
    const lateStart = await start(late);
    if (!lateStart.ok) throw new Error('not started');
    // The hold lapses; another customer buys the last kilogram; then the first payment arrives (the provider's event).
    await db.updateTable('stock_reservations').set({ expires_at: minutesFrom(new Date(), -1).toISOString() }).where('order_id', '=', lateStart.orderId).execute();
    const other = await customer([[coffee.large, 1]]);
    const otherStart = await start(other);
    if (!otherStart.ok) throw new Error('not started');
    expect(await payWithCard(services, { userId: other.id, orderId: otherStart.orderId, card })).toMatchObject({ ok: true });
    await db.updateTable('test_payments').set({ status: 'succeeded' }).where('id', '=', lateStart.paymentId).execute();
    const marked = await settlePayment(services, (_trx, markPaid) => markPaid(lateStart.paymentId));
    expect(marked).toMatchObject({ ok: true, unserved: true });

    const order = await db.selectFrom('orders').selectAll().where('id', '=', lateStart.orderId).executeTakeFirstOrThrow();
    expect(order).toMatchObject({ payment_status: 'succeeded', shipping_status: 'cancelled', refunded_cents: 5000 });
    expect(order.stock_short_at).not.toBeNull();
    expect(await gramsLeft(coffee.id)).toBe(0);
    const timeline = await db.selectFrom('activity_log').select(['action', 'details']).where('subject_id', '=', lateStart.orderId).orderBy('created_at').execute();
    expect(timeline.map((e) => e.action)).toEqual(['order.stock_short', 'order.cancelled']);
    expect(JSON.parse(timeline[0].details)).toEqual({ lines: [{ sku: expect.any(String), name: 'Too late — 1\u00a0kg', ordered: 1, left: 0 }] });
    const sent = (await mails(db)).filter((m) => m.to_address === late.email);
    expect(sent.map((m) => m.subject)).toEqual([expect.stringMatching(/^Sorry: your Kopi order .+ could not be filled$/)]);
    expect(sent[0].text_body).toContain('- Too late — 1\u00a0kg');
    expect(sent[0].text_body).toContain('refunded €50.00');
    // Nothing to ship, and the refund is not made twice.
    expect(await cancelOrder(services, owner, lateStart.orderId)).toMatchObject({ ok: false, reason: 'not_allowed' });
    expect(await db.selectFrom('test_refunds').select('amount_cents').where('payment_id', '=', lateStart.paymentId).execute()).toEqual([{ amount_cents: 5000 }]);
  });

  it('a payment that succeeds after its hold lapsed takes the coffee when it is still there, and ships', async () => {
    const coffee = await beans('Late but lucky', [[daysAgo(3), 1250]]);
    const late = await customer([[coffee.large, 1]]);
    const lateStart = await start(late);
    if (!lateStart.ok) throw new Error('not started');
    await db.updateTable('stock_reservations').set({ expires_at: minutesFrom(new Date(), -1).toISOString() }).where('order_id', '=', lateStart.orderId).execute();
    expect(await releaseExpiredReservations(db)).toBe(true);
    await db.updateTable('test_payments').set({ status: 'succeeded' }).where('id', '=', lateStart.paymentId).execute();
    const paid = await settlePayment(services, (_trx, markPaid) => markPaid(lateStart.paymentId));
    expect(paid).toMatchObject({ ok: true });
    expect(paid).not.toHaveProperty('stockShort', true);
    const order = await db.selectFrom('orders').selectAll().where('id', '=', lateStart.orderId).executeTakeFirstOrThrow();
    expect(order).toMatchObject({ payment_status: 'succeeded', shipping_status: 'processing', refunded_cents: 0, stock_short_at: null });
    expect(await gramsLeft(coffee.id)).toBe(250);
    expect(await db.selectFrom('test_refunds').select('amount_cents').where('payment_id', '=', lateStart.paymentId).execute()).toEqual([]);
  });

  it('the provider’s “payment failed” lets the held coffee go; the order stays pending', async () => {
    const coffee = await beans('Failed at the bank', [[daysAgo(2), 250]]);
    const buyer = await customer([[coffee.small, 1]]);
    const started = await start(buyer);
    if (!started.ok) throw new Error('not started');
    expect((await stockOf(db, [coffee.id])).get(coffee.id)?.variants[coffee.small]).toBe(0);
    const shown = await storedCatalogVersion(db);
    const event = { id: `evt_failed_${started.orderId}`, kind: 'payment_failed' as const, paymentId: started.paymentId, orderId: started.orderId, clientSecret: null };
    expect(await handlePaymentEvent(services, event)).toBe('payment_failed');
    expect((await stockOf(db, [coffee.id])).get(coffee.id)?.variants[coffee.small]).toBe(1);
    expect(await storedCatalogVersion(db)).toBeGreaterThan(shown);
    expect(await db.selectFrom('orders').select('payment_status').where('id', '=', started.orderId).executeTakeFirstOrThrow()).toEqual({ payment_status: 'pending' });
    // The same event again changes nothing.
    expect(await handlePaymentEvent(services, event)).toBe('duplicate');
  });

  it('the apology for a payment too late is in the language the customer ordered in', async () => {
    const id = await createProduct(db, {
      category: 'wholeBean',
      options: ['size'],
      variants: [{ netWeightGrams: 1000, priceCents: 5000 }],
      translations: { en: { name: 'Gone in English', description: '' }, pl: { name: 'Wyprzedana Sumatra', description: '' } },
    });
    const subject = { productId: id, label: 'Wyprzedana Sumatra' };
    await setStockMode(db, owner, subject, { mode: 'batches', sellWithinDays: null });
    await addBatch(db, owner, subject, { roastedOn: daysAgo(2), grams: 1000 });
    const [kilo] = (await variantsOf(db, [id])).get(id) ?? [];
    const polish = await customer([[kilo.id, 1]]);
    const polishStart = await startPayment(db, provider, { userId: polish.id, email: polish.email, locale: 'pl', currency: 'EUR', cartId: polish.cartId, address, delivery: pickup });
    if (!polishStart.ok) throw new Error('not started');
    await db.updateTable('stock_reservations').set({ expires_at: minutesFrom(new Date(), -1).toISOString() }).where('order_id', '=', polishStart.orderId).execute();
    const other = await customer([[kilo.id, 1]]);
    const otherStart = await start(other);
    if (!otherStart.ok) throw new Error('not started');
    expect(await payWithCard(services, { userId: other.id, orderId: otherStart.orderId, card })).toMatchObject({ ok: true });
    await db.updateTable('test_payments').set({ status: 'succeeded' }).where('id', '=', polishStart.paymentId).execute();
    expect(await settlePayment(services, (_trx, markPaid) => markPaid(polishStart.paymentId, undefined, 'card'))).toMatchObject({ ok: true, unserved: true });
    const sent = (await mails(db)).filter((m) => m.to_address === polish.email);
    expect(sent.map((m) => m.subject)).toEqual([expect.stringMatching(/^Przepraszamy: nie możemy zrealizować zamówienia Kopi .+$/)]);
    expect(sent[0].text_body).toContain('Wyprzedane:');
    expect(sent[0].text_body).toContain('- Wyprzedana Sumatra — 1\u00a0kg');
    expect(sent[0].text_body).toMatch(/Zwróciliśmy 50,00\s€ na kartę/);
    expect(sent[0].text_body).not.toMatch(/Sorry|refunded/);
  });

  it('never sells the last bag twice: of ten customers racing for it, one pays and the others are told before paying', async () => {
    const coffee = await beans('Last bag', [[daysAgo(2), 1000]]);
    const racers = await Promise.all(Array.from({ length: 10 }, () => customer([[coffee.large, 1]])));
    const started = await Promise.all(racers.map((racer) => start(racer)));
    expect(started.filter((s) => s.ok)).toHaveLength(1);
    expect(started.filter((s) => !s.ok && s.reason === 'out_of_stock')).toHaveLength(9);
    const paid = await Promise.all(
      started.map((s, i) => (s.ok ? payWithCard(services, { userId: racers[i].id, orderId: s.orderId, card }) : null)),
    );
    expect(paid.filter((p) => p?.ok)).toHaveLength(1);
    expect(await gramsLeft(coffee.id)).toBe(0);
    const sold = await db.selectFrom('orders').innerJoin('order_lines', 'order_lines.order_id', 'orders.id').select('orders.id').where('order_lines.product_id', '=', coffee.id).where('orders.payment_status', '=', 'succeeded').execute();
    expect(sold).toHaveLength(1);
  });

  it('two variants racing for one batch: never more grams sold than roasted', async () => {
    const coffee = await beans('One batch', [[daysAgo(2), 1500]]);
    const racers = await Promise.all([
      ...Array.from({ length: 4 }, () => customer([[coffee.large, 1]])),
      ...Array.from({ length: 4 }, () => customer([[coffee.small, 2]])),
    ]);
    const started = await Promise.all(racers.map((racer) => start(racer)));
    await Promise.all(started.map((s, i) => (s.ok ? payWithCard(services, { userId: racers[i].id, orderId: s.orderId, card }) : null)));
    const left = await gramsLeft(coffee.id);
    expect(left).toBeGreaterThanOrEqual(0);
    const soldGrams = await db
      .selectFrom('stock_movements')
      .select((eb) => eb.fn.sum<number>('grams').as('grams'))
      .where('product_id', '=', coffee.id)
      .where('kind', '=', 'sold')
      .executeTakeFirstOrThrow();
    expect(1500 + Number(soldGrams.grams)).toBe(left);
    expect(left).toBeLessThan(500);
  });

  it('units: a sold pack comes off its count; cancelling with “back to stock” returns it', async () => {
    const pods = await capsules('Pods', [3, 1]);
    const buyer = await customer([
      [pods.ten, 2],
      [pods.fifty, 1],
    ]);
    const started = await start(buyer);
    if (!started.ok) throw new Error('not started');
    await payWithCard(services, { userId: buyer.id, orderId: started.orderId, card });
    expect((await stockOf(db, [pods.id])).get(pods.id)?.variants).toEqual({ [pods.ten]: 1, [pods.fifty]: 0 });
    expect(await cancelOrder(services, owner, started.orderId, { backToStock: true })).toMatchObject({ ok: true });
    expect((await stockOf(db, [pods.id])).get(pods.id)?.variants).toEqual({ [pods.ten]: 3, [pods.fifty]: 1 });
    const log = await db.selectFrom('activity_log').select('details').where('subject_id', '=', started.orderId).where('action', '=', 'order.cancelled').executeTakeFirstOrThrow();
    expect(JSON.parse(log.details)).toMatchObject({ backToStock: true });
  });

  it('cancelling without “back to stock” leaves the batches as they are', async () => {
    const coffee = await beans('Kept out', [[daysAgo(2), 1000]]);
    const buyer = await customer([[coffee.small, 1]]);
    const started = await start(buyer);
    if (!started.ok) throw new Error('not started');
    await payWithCard(services, { userId: buyer.id, orderId: started.orderId, card });
    expect(await cancelOrder(services, owner, started.orderId, { backToStock: false })).toMatchObject({ ok: true });
    expect(await gramsLeft(coffee.id)).toBe(750);
  });

  it('the owner’s batches and corrections are in the ledger and the activity log; absurd amounts are refused', async () => {
    const coffee = await beans('Ledger', [[daysAgo(1), 12000]]);
    const batch = await db.selectFrom('roast_batches').select('id').where('product_id', '=', coffee.id).executeTakeFirstOrThrow();
    // A second later, as an owner's correction always is: rows of the same millisecond have no order of their own.
    await correctStock(db, owner, coffee.subject, { batchId: batch.id, gramsLeft: 11800, reason: 'sample', note: 'cupping' }, new Date(Date.now() + 1000));
    const overview = await getStockOverview(db, coffee.id);
    expect(overview.ledger.map((m) => [m.kind, m.grams, m.reason])).toEqual([
      ['corrected', -200, 'sample'],
      ['roasted', 12000, null],
    ]);
    const actions = await db.selectFrom('activity_log').select('action').where('subject_id', '=', coffee.id).where('action', 'like', 'stock.%').orderBy('created_at').execute();
    expect(actions.map((a) => a.action)).toEqual(['stock.mode', 'stock.batch', 'stock.corrected']);
    for (const grams of [0, -5, 1.5, 2_000_000, Number.NaN]) {
      await expect(addBatch(db, owner, coffee.subject, { roastedOn: daysAgo(0), grams })).rejects.toThrow(RangeError);
    }
    await expect(correctStock(db, owner, coffee.subject, { batchId: batch.id, gramsLeft: -1, reason: 'count' })).rejects.toThrow(RangeError);
    // Another product's batch is not this product's to correct.
    const other = await beans('Other');
    expect(await correctStock(db, owner, other.subject, { batchId: batch.id, gramsLeft: 0, reason: 'count' })).toEqual({ ok: false, shownChanged: false });
    expect(await gramsLeft(coffee.id)).toBe(11800);
  });

  it('a hold is replaced, never doubled, when the same order goes to payment again', async () => {
    const coffee = await beans('Twice', [[daysAgo(1), 1000]]);
    const order = 'ORDER-TWICE-0000000001';
    const lines = [{ productId: coffee.id, variantId: coffee.small, quantity: 3, position: 0 }];
    expect(await reserveStock(db, order, lines)).toMatchObject({ ok: true });
    expect(await reserveStock(db, order, lines)).toMatchObject({ ok: true });
    expect((await stockOf(db, [coffee.id])).get(coffee.id)?.variants[coffee.small]).toBe(1);
    expect(await releaseStock(db, order)).toBe(true);
    expect((await stockOf(db, [coffee.id])).get(coffee.id)?.variants[coffee.small]).toBe(4);
    // Taking more than there is takes nothing.
    const taken = await db.transaction().execute((trx) => takeStock(trx, order, [{ ...lines[0], quantity: 5 }]));
    expect(taken).toMatchObject({ ok: false, short: [{ variantId: coffee.small, left: 4 }] });
    expect(await gramsLeft(coffee.id)).toBe(1000);
  });

  it('a withdrawal puts back only its lines and quantities, once; the owner’s order page shows the roast days', async () => {
    const coffee = await beans('Returned', [[daysAgo(9), 600], [daysAgo(2), 2000]]);
    const buyer = await customer([[coffee.small, 3]]);
    const started = await start(buyer);
    if (!started.ok) throw new Error('not started');
    await payWithCard(services, { userId: buyer.id, orderId: started.orderId, card });
    expect(await gramsLeft(coffee.id)).toBe(1850);
    const order = await getOwnerOrder(db, storage, started.orderId);
    expect(order?.lines[0].roastedOn).toEqual([daysAgo(9), daysAgo(2)]);
    expect(order?.stockShort).toBe(false);
    // Two of the three bags come back and are resold; asking again returns only what is still out (one bag), then nothing.
    await db.transaction().execute((trx) => returnToStock(trx, started.orderId, { lines: [{ position: 0, quantity: 2 }], actor: owner.email }));
    expect(await gramsLeft(coffee.id)).toBe(2350);
    await db.transaction().execute((trx) => returnToStock(trx, started.orderId, { lines: [{ position: 0, quantity: 3 }], actor: owner.email }));
    expect(await gramsLeft(coffee.id)).toBe(2600);
    await db.transaction().execute((trx) => returnToStock(trx, started.orderId, { actor: owner.email }));
    expect(await gramsLeft(coffee.id)).toBe(2600);
    const returned = await db.selectFrom('stock_movements').select('grams').where('order_id', '=', started.orderId).where('kind', '=', 'returned').execute();
    expect(returned.map((m) => m.grams)).toEqual(expect.arrayContaining([500, 100, 150]));
    expect(returned).toHaveLength(3);
  });

  it('the dashboard lists what runs low: bags left and the days they last at the last 30 days’ sales', async () => {
    const pods = await capsules('Running low', [4, 200]);
    const coffee = await beans('Selling fast', [[daysAgo(1), 3000]]);
    const buyer = await customer([[coffee.large, 2]]);
    const started = await start(buyer);
    if (!started.ok) throw new Error('not started');
    await payWithCard(services, { userId: buyer.id, orderId: started.orderId, card });
    const low = await lowStock(db, { locale: 'en', limit: 500 });
    // 4 packs left, nothing sold: listed for its count, no pace.
    expect(low.find((row) => row.variantId === pods.ten)).toMatchObject({ name: 'Running low', left: 4, days: null });
    expect(low.find((row) => row.variantId === pods.fifty)).toBeUndefined();
    // 1 kg left of a coffee that sold 2 kg in 30 days: 15 days at that pace, for each of its bags.
    expect(low.find((row) => row.variantId === coffee.large)).toMatchObject({ left: 1, days: 15 });
    expect(low.find((row) => row.variantId === coffee.small)).toMatchObject({ left: 4, days: 15 });
    // Plenty of a coffee nobody bought lately is not listed.
    const plenty = await beans('Plenty', [[daysAgo(1), 30000]]);
    expect((await lowStock(db, { locale: 'en', limit: 500 })).some((row) => row.productId === plenty.id)).toBe(false);
  });

  it('the owner’s stock form: a change the pages show moves the catalogue version, bad input changes nothing, the waiting are told', async () => {
    const coffee = await beans('Through the form');
    const log = { error: () => {}, info: () => {}, warn: () => {} } as never;
    const form = { db, log, publicUrl: 'https://kopi.test', kickMail: () => {} };
    const before = await storedCatalogVersion(db);
    const refused = await changeStock(form, owner, coffee.id, { intent: 'batch', roastedOn: daysAgo(-2), kilograms: '2' });
    expect(refused).toEqual({ ok: false, reason: 'invalid', intent: 'batch', errors: { roastedOn: 'roastedInFuture' } });
    expect(await changeStock(form, owner, coffee.id, { intent: 'batch', roastedOn: daysAgo(1), kilograms: '-1' })).toMatchObject({ ok: false, errors: { kilograms: 'kilograms' } });
    expect(await changeStock(form, owner, 'NoSuchProduct000000000', { intent: 'batch', roastedOn: daysAgo(1), kilograms: '1' })).toEqual({ ok: false, reason: 'not_found' });
    expect(await gramsLeft(coffee.id)).toBe(0);
    expect(await storedCatalogVersion(db)).toBe(before);
    // Sold out → in stock: the pages change, so the version moves.
    expect(await changeStock(form, owner, coffee.id, { intent: 'batch', roastedOn: daysAgo(1), kilograms: '2,5', note: 'Lot 7' })).toMatchObject({ ok: true, intent: 'batch' });
    expect(await gramsLeft(coffee.id)).toBe(2500);
    const after = await storedCatalogVersion(db);
    expect(after).not.toBe(before);
    // A correction that changes nothing shoppers see (still more than "only N left") leaves it.
    const batch = await db.selectFrom('roast_batches').select('id').where('product_id', '=', coffee.id).executeTakeFirstOrThrow();
    expect(await changeStock(form, owner, coffee.id, { intent: 'correct-batch', batchId: batch.id, kilogramsLeft: '2,4', reason: 'sample' })).toMatchObject({ ok: true });
    expect(await storedCatalogVersion(db)).toBe(after);
    // Another product's batch is refused as not found.
    const other = await beans('Not this one');
    expect(await changeStock(form, owner, other.id, { intent: 'correct-batch', batchId: batch.id, kilogramsLeft: '0', reason: 'count' })).toMatchObject({ ok: false, errors: { batchId: 'notFound' } });
    expect(await gramsLeft(coffee.id)).toBe(2400);
  });

  it('a batch past its days to sell leaves the pages by itself (each node’s sweep refreshes what they show)', async () => {
    const coffee = await beans('Aging', [[daysAgo(10), 5000]]);
    await setStockMode(db, owner, coffee.subject, { mode: 'batches', sellWithinDays: 14 });
    expect(await refreshAgingStock(db)).toBe(false);
    const later = new Date(Date.now() + 5 * 86_400_000);
    expect(await refreshAgingStock(db, later)).toBe(true);
    expect((await stockOf(db, [coffee.id], { now: later })).get(coffee.id)?.variants[coffee.small]).toBe(0);
    expect(await refreshAgingStock(db, later)).toBe(false);
  });

  it('an order draws the weight it was sold at, even when the owner changes the size while it is being paid', async () => {
    const coffee = await beans('Resized', [[daysAgo(2), 2000]]);
    const buyer = await customer([[coffee.small, 2]]);
    const started = await start(buyer);
    if (!started.ok) throw new Error('not started');
    await db.updateTable('stock_variants').set({ net_weight_grams: 500 }).where('variant_id', '=', coffee.small).execute();
    await payWithCard(services, { userId: buyer.id, orderId: started.orderId, card });
    expect(await gramsLeft(coffee.id)).toBe(1500);
  });
});
