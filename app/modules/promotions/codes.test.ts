/**
 * Discount codes (docs/decisions/0026): every limit refuses with its reason; the discount is spread over the
 * lines to the cent, so the lines add up to the charge exactly and a withdrawal of one line returns what was paid
 * for it; a code with one use left goes to exactly one of 20 checkouts at once; a held use comes back when its
 * order is abandoned; the owner's codes are made, ended and listed with what they did.
 */
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '~/db/schema';
import type { DB } from '~/db/database.server';
import { newId } from '~/db/ids.server';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { listActivity } from '~/modules/activity/index.server';
import { addToCart, defaultVariantOf, enterCode, getCart } from '~/modules/cart/index.server';
import { payWithCard, startPayment } from '~/modules/checkout/index.server';
import { sweepPayments } from '~/modules/checkout/sweep.server';
import { getOrderForUser } from '~/modules/orders/index.server';
import { getProduct } from '~/modules/catalog/index.server';
import { TEST_CARDS, createTestPaymentProvider } from '~/modules/payments/index.server';
import { findOwnOrderForWithdrawal, requestWithdrawal } from '~/modules/withdrawals/index.server';
import { address, courier, createCoffee, createUser, fillCart, pickup, storage } from '../../../tests/fixtures/shop';
import { type CodeLine, type CodeRule, applyCode, normalizeCode, spread } from './codes';
import { type CodeInput, createCode, createSale, listCodes, parseCodeForm, stopCode } from './index.server';

const owner = { id: null, email: 'owner@kopi.test' };
const card = { number: TEST_CARDS.success, expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: '123' };
const NOW = new Date('2026-11-27T12:00:00Z');

const rule = (over: Partial<CodeRule> = {}): CodeRule => ({
  id: 'c1',
  code: 'KAWA10',
  kind: 'percent',
  percent: 10,
  amounts: null,
  minimums: null,
  startsAt: null,
  endsAt: null,
  maxUses: null,
  maxPerCustomer: null,
  uses: 0,
  scope: 'all',
  targets: [],
  withSales: false,
  advertised: false,
  ...over,
});
const line = (variantId: string, cents: number, over: Partial<CodeLine> = {}): CodeLine => ({ variantId, productId: `p-${variantId}`, category: 'wholeBean', lineTotalCents: cents, onSale: false, ...over });

describe('what a code takes off a cart', () => {
  it('is matched trimmed and in any case', () => {
    expect(normalizeCode('  kawa10 ')).toBe('KAWA10');
    for (const wrong of ['', 'ab', 'KAWA 10', 'x'.repeat(33), '<b>', null, 42]) expect(normalizeCode(wrong), String(wrong)).toBeNull();
  });

  it('spreads a discount over the lines in proportion, to the cent, adding up exactly', () => {
    expect(spread(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(spread(0, [500, 500])).toEqual([0, 0]);
    for (let i = 0; i < 2000; i++) {
      const weights = Array.from({ length: 1 + (i % 7) }, (_, j) => 1 + ((i * 7919 + j * 104_729) % 20_000));
      const total = (i * 31) % (weights.reduce((a, b) => a + b, 0) + 1);
      const shares = spread(total, weights);
      expect(shares.reduce((a, b) => a + b, 0)).toBe(total);
      shares.forEach((s, j) => expect(s).toBeLessThanOrEqual(weights[j]));
    }
  });

  it('takes a percentage or an amount off the lines it applies to, or makes the delivery free', () => {
    expect(applyCode(rule(), [line('a', 2190), line('b', 7446)], 'EUR', NOW)).toEqual({ ok: true, goodsCents: 964, lines: { a: 219, b: 745 }, freeDelivery: false });
    expect(applyCode(rule({ kind: 'amount', percent: null, amounts: { EUR: 500, PLN: 2000 } }), [line('a', 1000), line('b', 3000)], 'PLN', NOW)).toMatchObject({ goodsCents: 2000, lines: { a: 500, b: 1500 } });
    // Never down to nothing: the goods keep a card payment's minimum (1.00 €).
    expect(applyCode(rule({ kind: 'amount', percent: null, amounts: { EUR: 5000, PLN: 20_000 } }), [line('a', 1000)], 'EUR', NOW)).toMatchObject({ goodsCents: 900 });
    expect(applyCode(rule({ kind: 'amount', percent: null, amounts: { EUR: 500, PLN: 2000 } }), [line('a', 100)], 'EUR', NOW)).toEqual({ ok: false, reason: 'minimum', minimumCents: 101 });
    expect(applyCode(rule({ kind: 'delivery', percent: null }), [line('a', 1000)], 'EUR', NOW)).toEqual({ ok: true, goodsCents: 0, lines: {}, freeDelivery: true });
    // Only its categories or products; coffees on sale only when it says so.
    expect(applyCode(rule({ scope: 'categories', targets: ['dripCoffeeBags'] }), [line('a', 1000), line('b', 1000, { category: 'dripCoffeeBags' })], 'EUR', NOW)).toMatchObject({ goodsCents: 100, lines: { b: 100 } });
    expect(applyCode(rule(), [line('a', 1000, { onSale: true }), line('b', 1000)], 'EUR', NOW)).toMatchObject({ goodsCents: 100, lines: { b: 100 }, leftOnSale: ['a'] });
    expect(applyCode(rule(), [line('b', 1000)], 'EUR', NOW)).not.toHaveProperty('leftOnSale');
    expect(applyCode(rule({ withSales: true }), [line('a', 1000, { onSale: true })], 'EUR', NOW)).toMatchObject({ goodsCents: 100 });
  });

  it('refuses with the reason: not yet, expired, used up, this customer’s limit, the minimum, not these coffees, on sale', () => {
    const cart = [line('a', 2000)];
    expect(applyCode(rule({ startsAt: '2026-12-01T00:00:00.000Z' }), cart, 'EUR', NOW)).toEqual({ ok: false, reason: 'notStarted' });
    expect(applyCode(rule({ endsAt: '2026-11-27T12:00:00.000Z' }), cart, 'EUR', NOW)).toEqual({ ok: false, reason: 'expired' });
    expect(applyCode(rule({ maxUses: 5, uses: 5 }), cart, 'EUR', NOW)).toEqual({ ok: false, reason: 'usedUp' });
    expect(applyCode(rule({ maxPerCustomer: 1 }), cart, 'EUR', NOW, { customer: 1 })).toEqual({ ok: false, reason: 'customerLimit' });
    expect(applyCode(rule({ minimums: { EUR: 5000, PLN: 20_000 } }), cart, 'PLN', NOW)).toEqual({ ok: false, reason: 'minimum', minimumCents: 20_000 });
    expect(applyCode(rule({ scope: 'products', targets: ['p-z'] }), cart, 'EUR', NOW)).toEqual({ ok: false, reason: 'notForThese' });
    expect(applyCode(rule(), [line('a', 2000, { onSale: true })], 'EUR', NOW)).toEqual({ ok: false, reason: 'onSale' });
  });

  it('checks the owner’s form field by field', () => {
    const form = (fields: Record<string, string | string[]>) => {
      const data = new FormData();
      for (const [k, v] of Object.entries(fields)) for (const x of [v].flat()) data.append(k, x);
      return data;
    };
    expect(parseCodeForm(form({ code: ' summer-5 ', kind: 'amount', amount: '5', minimum: '30,00', maxUses: '100', maxPerCustomer: '1', scope: 'categories', category: 'wholeBean', advertised: 'on', endsAt: new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 16) }), 'Europe/Warsaw')).toMatchObject({
      ok: true,
      code: { code: 'SUMMER-5', kind: 'amount', amountCents: 500, amountPln: null, minimumCents: 3000, maxUses: 100, maxPerCustomer: 1, scope: 'categories', targets: ['wholeBean'], advertised: true, withSales: false },
    });
    const bad = parseCodeForm(form({ code: 'a b', kind: 'percent', percent: '150', maxUses: '-1', startsAt: '2026-12-02T10:00', endsAt: '2026-12-01T10:00', scope: 'products' }), 'Europe/Warsaw');
    expect(bad).toEqual({ ok: false, errors: { code: 'admin.promotions.codes.errors.code', percent: 'admin.promotions.codes.errors.percent', endsAt: 'admin.promotions.codes.errors.endsAt', maxUses: 'admin.promotions.codes.errors.maxUses', targets: 'admin.promotions.codes.errors.targets' } });
    expect(parseCodeForm(form({ code: 'NEG', kind: 'amount', amount: '-5' }), 'Europe/Warsaw')).toMatchObject({ ok: false, errors: { amount: 'admin.promotions.codes.errors.amount' } });
    // Advertised, it is an announced reduction: it ends within 90 days; a złoty minimum needs its euro one.
    expect(parseCodeForm(form({ code: 'ADS', kind: 'percent', percent: '10', advertised: 'on' }), 'Europe/Warsaw')).toMatchObject({ ok: false, errors: { endsAt: 'admin.promotions.codes.errors.advertisedEnd' } });
    expect(parseCodeForm(form({ code: 'MINPL', kind: 'percent', percent: '10', minimumPln: '200' }), 'Europe/Warsaw')).toMatchObject({ ok: false, errors: { minimum: 'admin.promotions.codes.errors.minimumBoth' } });
  });
});

describe.each(testDatabases())('discount codes on %s', (kind, open) => {
  let handle: TestDatabase;
  let db: DB;
  let provider: ReturnType<typeof createTestPaymentProvider>;
  let gayo = '';
  let java = '';
  beforeAll(async () => {
    handle = await open();
    db = handle.db;
    provider = createTestPaymentProvider(db);
    gayo = await createCoffee(db, 'Gayo', 2190);
    java = await createCoffee(db, 'Java', 1399);
  });
  afterAll(() => handle.close());

  const services = () => ({ db, payments: provider, contactTo: 'shop@kopi.test', publicUrl: 'https://kopi.test', kickMail: () => {} });
  const code = (over: Partial<CodeInput>) =>
    createCode(db, owner, { code: 'X', kind: 'percent', percent: 10, amountCents: null, amountPln: null, minimumCents: null, minimumPln: null, startsAt: null, endsAt: null, maxUses: null, maxPerCustomer: null, scope: 'all', targets: [], withSales: false, advertised: false, ...over });
  const enter = (cartId: string, typed: string, user?: { id: string; email: string }) =>
    enterCode(db, storage, { cartId, typed, locale: 'en', currency: 'EUR', userId: user?.id ?? null, email: user?.email ?? null, ip: '203.0.113.7' });

  it('takes 10% off the goods, spread over the lines; the order, its lines and the charge add up; a withdrawal of one line returns what it cost', async () => {
    expect((await code({ code: 'KAWA10' })).ok).toBe(true);
    const user = await createUser(db);
    const cartId = await fillCart(db, user.id, [[gayo, 3], [java, 1]]);
    expect(await enter(cartId, ' kawa10 ', user)).toMatchObject({ ok: true, code: { code: 'KAWA10', goodsCents: 797 } });
    const cart = await getCart(db, storage, cartId, 'en', 'EUR');
    expect(cart.code).toMatchObject({ applies: true, goodsCents: 797 });
    const started = await startPayment(db, provider, { userId: user.id, email: user.email, locale: 'en', currency: 'EUR', cartId, address, delivery: pickup });
    if (!started.ok) throw new Error(started.reason);
    expect(started.amountCents).toBe(3 * 2190 + 1399 - 797);
    const lines = await db.selectFrom('order_lines').select(['quantity', 'unit_price_cents', 'discount_cents']).where('order_id', '=', started.orderId).orderBy('position').execute();
    expect(lines.map((l) => Number(l.discount_cents))).toEqual([657, 140]);
    expect(lines.reduce((sum, l) => sum + l.unit_price_cents * l.quantity - Number(l.discount_cents), 0)).toBe(started.amountCents);
    expect(await payWithCard(services(), { userId: user.id, orderId: started.orderId, card })).toMatchObject({ ok: true });
    const order = (await getOrderForUser(db, storage, user.id, started.orderId))!;
    expect(order).toMatchObject({ totalCents: started.amountCents, goodsCents: 3 * 2190 + 1399, discount: { code: 'KAWA10', goodsCents: 797, deliveryCents: 0 } });
    // The Java line cost 13.99 − 1.40: that is what withdrawing from it returns.
    const withdrawable = (await findOwnOrderForWithdrawal(db, user.id, started.orderId))!;
    const javaLine = withdrawable.lines.find((l) => l.unitPriceCents === 1399)!;
    const withdrawn = await requestWithdrawal(db, withdrawable, { name: 'Ola', email: user.email, positions: [javaLine.position], reason: '', locale: 'en' }, { contactTo: 'shop@kopi.test' });
    expect(withdrawn).toMatchObject({ ok: true, withdrawal: { amountCents: 1399 - 140 } });
    // The code went with the order: the cart's next order starts without it.
    expect((await db.selectFrom('carts').select('discount_code').where('id', '=', cartId).executeTakeFirstOrThrow()).discount_code).toBeNull();
  });

  it('a cart whose own order holds the last use keeps it when the order is made again (another delivery), one per customer too', async () => {
    await code({ code: 'MINE1', maxUses: 1, maxPerCustomer: 1 });
    const user = await createUser(db);
    const cartId = await fillCart(db, user.id, [[gayo, 1]]);
    expect(await enter(cartId, 'MINE1', user)).toMatchObject({ ok: true });
    const input = { userId: user.id, email: user.email, locale: 'en' as const, currency: 'EUR' as const, cartId, address };
    const first = await startPayment(db, provider, { ...input, delivery: pickup });
    expect(first).toMatchObject({ ok: true });
    // Back from payment: the cart still shows the code, and another delivery makes another order with it.
    expect((await getCart(db, storage, cartId, 'en', 'EUR')).code).toMatchObject({ applies: true });
    const second = await startPayment(db, provider, { ...input, delivery: courier });
    expect(second).toMatchObject({ ok: true });
    expect(Number((await db.selectFrom('discount_codes').select('uses').where('code', '=', 'MINE1').executeTakeFirstOrThrow()).uses)).toBe(1);
    const uses = await db.selectFrom('discount_code_uses').select(['order_id', 'status']).where('code_id', '=', (await db.selectFrom('discount_codes').select('id').where('code', '=', 'MINE1').executeTakeFirstOrThrow()).id).execute();
    expect(uses.filter((u) => u.status === 'held').map((u) => u.order_id)).toEqual([second.ok ? second.orderId : '']);
  });

  it('refuses a code with its reason and changes nothing; wrong codes are rate-limited per cart', async () => {
    await code({ code: 'MIN50', minimumCents: 5000, minimumPln: 21_000 });
    await code({ code: 'OVER', endsAt: new Date(Date.now() - 1000) });
    await code({ code: 'LATER', startsAt: new Date(Date.now() + 86_400_000) });
    await code({ code: 'DRIPS', scope: 'categories', targets: ['dripCoffeeBags'] });
    const user = await createUser(db);
    const cartId = await fillCart(db, user.id, [[gayo, 1]]);
    expect(await enter(cartId, 'MIN50')).toEqual({ ok: false, reason: 'minimum', minimumCents: 5000 });
    expect(await enter(cartId, 'over')).toEqual({ ok: false, reason: 'expired' });
    expect(await enter(cartId, 'LATER')).toEqual({ ok: false, reason: 'notStarted' });
    expect(await enter(cartId, 'DRIPS')).toEqual({ ok: false, reason: 'notForThese' });
    expect((await getCart(db, storage, cartId, 'en', 'EUR')).code).toBeNull();
    // Ten tries per cart in 15 minutes (four above); then even a right code waits.
    for (let i = 0; i < 6; i++) expect(await enter(cartId, `NOPE${i}`)).toEqual({ ok: false, reason: 'unknown' });
    expect(await enter(cartId, 'NOPE9')).toEqual({ ok: false, reason: 'rate_limited' });
  });

  it('a code with one use left goes to exactly one of 20 checkouts at once; the others are told and make no order', async () => {
    await code({ code: 'LAST1', maxUses: 1 });
    const shoppers = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const user = await createUser(db);
        const cartId = await fillCart(db, user.id, [[java, 1]]);
        expect(await enter(cartId, 'LAST1', user)).toMatchObject({ ok: true });
        return { user, cartId };
      }),
    );
    const results = await Promise.all(shoppers.map(({ user, cartId }) => startPayment(db, provider, { userId: user.id, email: user.email, locale: 'en', currency: 'EUR', cartId, address, delivery: pickup })));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok && r.reason === 'code_refused' && r.why === 'usedUp')).toHaveLength(19);
    const row = await db.selectFrom('discount_codes').select('uses').where('code', '=', 'LAST1').executeTakeFirstOrThrow();
    expect(Number(row.uses)).toBe(1);
    const orders = await db.selectFrom('orders').select('id').where('discount_code', '=', 'LAST1').execute();
    expect(orders).toHaveLength(1);
  });

  it.skipIf(kind !== 'postgres')('on PostgreSQL, two nodes (each with its own pool) racing 10 checkouts each for the last use: exactly one gets it', async () => {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
    const pool = new pg.Pool({ connectionString: process.env.TEST_DATABASE_URL, max: 10, options: `-c search_path=${rows[0].schema}` });
    const second = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    try {
      await code({ code: 'LASTPG', maxUses: 1 });
      const shoppers = await Promise.all(
        Array.from({ length: 20 }, async () => {
          const user = await createUser(db);
          const cartId = await fillCart(db, user.id, [[gayo, 1]]);
          expect(await enter(cartId, 'LASTPG', user)).toMatchObject({ ok: true });
          return { user, cartId };
        }),
      );
      const results = await Promise.all(
        shoppers.map(({ user, cartId }, i) => startPayment(i % 2 === 0 ? db : second, createTestPaymentProvider(i % 2 === 0 ? db : second), { userId: user.id, email: user.email, locale: 'en', currency: 'EUR', cartId, address, delivery: pickup })),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(Number((await db.selectFrom('discount_codes').select('uses').where('code', '=', 'LASTPG').executeTakeFirstOrThrow()).uses)).toBe(1);
    } finally {
      await second.destroy();
    }
  });

  /** A guest's cart of one bag with `typed` entered, ready for checkout as `email`. */
  async function guestCartWithCode(typed: string, email: string) {
    const cartId = newId();
    const at = new Date().toISOString();
    await db.insertInto('carts').values({ id: cartId, user_id: null, created_at: at, updated_at: at }).execute();
    expect(await addToCart(db, cartId, (await defaultVariantOf(db, java))!, 1)).toMatchObject({ ok: true });
    expect(await enterCode(db, storage, { cartId, typed, locale: 'en', currency: 'EUR', userId: null, email, ip: '203.0.113.7' })).toMatchObject({ ok: true });
    return cartId;
  }

  it('one use per customer holds when one email checks out 20 carts at once: one order gets the code, the others are told', async () => {
    await code({ code: 'ONEEACH', maxPerCustomer: 1 });
    const email = 'one.each@example.test';
    const carts = await Promise.all(Array.from({ length: 20 }, () => guestCartWithCode('ONEEACH', email)));
    const results = await Promise.all(carts.map((cartId) => startPayment(db, provider, { userId: null, email, locale: 'en', currency: 'EUR', cartId, address, delivery: pickup })));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok && r.reason === 'code_refused' && r.why === 'customerLimit')).toHaveLength(19);
    expect(await db.selectFrom('orders').select('id').where('discount_code', '=', 'ONEEACH').execute()).toHaveLength(1);
    expect(Number((await db.selectFrom('discount_codes').select('uses').where('code', '=', 'ONEEACH').executeTakeFirstOrThrow()).uses)).toBe(1);
  });

  it('one use per customer holds when a customer pays two orders at the same moment, the first one’s hold having run out', async () => {
    await code({ code: 'ONCEPAY', maxPerCustomer: 1 });
    const email = 'twice@example.test';
    const firstCart = await guestCartWithCode('ONCEPAY', email);
    const first = await startPayment(db, provider, { userId: null, email, locale: 'en', currency: 'EUR', cartId: firstCart, address, delivery: pickup });
    if (!first.ok) throw new Error(first.reason);
    // The first order's hold runs out and the sweep lets its use go: a second order of the same customer takes it.
    await db.updateTable('discount_code_uses').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('order_id', '=', first.orderId).execute();
    await sweepPayments(services());
    const secondCart = await guestCartWithCode('ONCEPAY', email);
    const second = await startPayment(db, provider, { userId: null, email, locale: 'en', currency: 'EUR', cartId: secondCart, address, delivery: pickup });
    if (!second.ok) throw new Error(second.reason);
    // Both paid at once: the order holding the use is charged; the first, whose use went to the second, is re-priced.
    const [one, two] = await Promise.all([
      payWithCard(services(), { userId: null, cartId: firstCart, orderId: first.orderId, card }),
      payWithCard(services(), { userId: null, cartId: secondCart, orderId: second.orderId, card }),
    ]);
    expect([one, two]).toEqual([{ ok: false, code: 'prices_changed' }, expect.objectContaining({ ok: true })]);
    const uses = await db.selectFrom('discount_code_uses').innerJoin('discount_codes', 'discount_codes.id', 'discount_code_uses.code_id').select('discount_code_uses.status').where('discount_codes.code', '=', 'ONCEPAY').where('discount_code_uses.status', '=', 'used').execute();
    expect(uses).toHaveLength(1);
  });

  it('gives a held use back when its order is abandoned, and counts one per customer by account or email', async () => {
    await code({ code: 'ONCE', maxUses: 1, maxPerCustomer: 1 });
    const user = await createUser(db);
    const cartId = await fillCart(db, user.id, [[java, 1]]);
    await enter(cartId, 'ONCE', user);
    const first = await startPayment(db, provider, { userId: user.id, email: user.email, locale: 'en', currency: 'EUR', cartId, address, delivery: pickup, reservationMinutes: 15 });
    if (!first.ok) throw new Error(first.reason);
    // Abandoned: its hold runs out, the sweep lets the use go.
    await db.updateTable('discount_code_uses').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('order_id', '=', first.orderId).execute();
    await sweepPayments(services());
    expect(Number((await db.selectFrom('discount_codes').select('uses').where('code', '=', 'ONCE').executeTakeFirstOrThrow()).uses)).toBe(0);
    // Another customer takes it and pays; then the first cannot have it any more.
    const other = await createUser(db);
    const otherCart = await fillCart(db, other.id, [[java, 1]]);
    await enter(otherCart, 'ONCE', other);
    const paid = await startPayment(db, provider, { userId: other.id, email: other.email, locale: 'en', currency: 'EUR', cartId: otherCart, address, delivery: courier });
    if (!paid.ok) throw new Error(paid.reason);
    expect(await payWithCard(services(), { userId: other.id, orderId: paid.orderId, card })).toMatchObject({ ok: true });
    expect((await db.selectFrom('discount_code_uses').select('status').where('order_id', '=', paid.orderId).executeTakeFirstOrThrow()).status).toBe('used');
    // The first order's payment finds its code gone: re-priced, not charged.
    expect(await payWithCard(services(), { userId: user.id, orderId: first.orderId, card })).toEqual({ ok: false, code: 'prices_changed' });
    // The paying customer's own limit: a second cart of theirs is refused by email too.
    await code({ code: 'PERME', maxPerCustomer: 1 });
    const third = await fillCart(db, other.id, [[gayo, 1]]);
    await enter(third, 'PERME', other);
    const one = await startPayment(db, provider, { userId: other.id, email: other.email, locale: 'en', currency: 'EUR', cartId: third, address, delivery: pickup });
    if (!one.ok) throw new Error(one.reason);
    await payWithCard(services(), { userId: other.id, orderId: one.orderId, card });
    const fourth = await fillCart(db, other.id, [[java, 2]]);
    expect(await enter(fourth, 'PERME', other)).toEqual({ ok: false, reason: 'customerLimit' });
  });

  it('makes free delivery with a delivery code, and is not applied to coffee on sale unless it says so', async () => {
    await code({ code: 'SHIPFREE', kind: 'delivery', percent: null });
    const user = await createUser(db);
    const cartId = await fillCart(db, user.id, [[java, 1]]);
    await enter(cartId, 'SHIPFREE', user);
    const started = await startPayment(db, provider, { userId: user.id, email: user.email, locale: 'en', currency: 'EUR', cartId, address, delivery: courier });
    if (!started.ok) throw new Error(started.reason);
    expect(started.amountCents).toBe(1399);
    const row = await db.selectFrom('orders').select(['delivery_cents', 'delivery_discount_cents', 'standard_delivery_cents']).where('id', '=', started.orderId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ delivery_cents: 0, delivery_discount_cents: 499, standard_delivery_cents: 0 });

    const onSale = await createCoffee(db, 'Toraja sale', 3000);
    await createSale(db, owner, { scope: 'products', targets: [onSale], kind: 'percent', percent: 20, priceCents: null, pricePln: null, startsAt: null, endsAt: new Date(Date.now() + 86_400_000), label: { en: '', pl: '' } });
    await code({ code: 'NOSALES' });
    await code({ code: 'WITHSALES', withSales: true });
    const buyer = await createUser(db);
    const saleCart = await fillCart(db, buyer.id, [[onSale, 1]]);
    expect(await enter(saleCart, 'NOSALES', buyer)).toEqual({ ok: false, reason: 'onSale' });
    expect(await enter(saleCart, 'WITHSALES', buyer)).toMatchObject({ ok: true, code: { goodsCents: 240 } });
  });

  it('shows a code advertised for a product on its page, with the 30 days’ lowest price (an announced reduction); not an unadvertised one', async () => {
    const coffee = await createCoffee(db, 'Kerinci advertised', 2000);
    await code({ code: 'PAGE15', percent: 15, scope: 'products', targets: [coffee], advertised: true });
    await code({ code: 'HIDDEN20', percent: 20, scope: 'products', targets: [coffee] });
    const page = (await getProduct(db, storage, coffee, 'en', 'EUR'))!;
    expect(page.variants[0].codeOffer).toEqual({ code: 'PAGE15', priceCents: 1700, lowestCents: 2000, percentOff: 15, minimumCents: null });
    expect((await getProduct(db, storage, java, 'en', 'EUR'))!.variants[0].codeOffer).toBeUndefined();
  });

  it('lists the owner’s codes with their uses, revenue and discount; ends a used one and deletes an unused one, logged', async () => {
    const taken = await code({ code: 'KAWA10' });
    expect(taken).toEqual({ ok: false, error: 'taken' });
    const listed = await listCodes(db, async () => new Map());
    const kawa = listed.find((c) => c.code === 'KAWA10')!;
    expect(kawa).toMatchObject({ status: 'running', used: 1, revenue: { EUR: 3 * 2190 + 1399 - 797 }, discounted: { EUR: 797 } });
    expect(await stopCode(db, owner, kawa.id)).toEqual({ ok: true, id: kawa.id });
    expect((await listActivity(db, { limit: 1 }))[0]).toMatchObject({ action: 'code.ended', subjectLabel: 'KAWA10' });
    expect(await stopCode(db, owner, kawa.id)).toEqual({ ok: false, error: 'ended' });
    const unused = listed.find((c) => c.code === 'LATER')!;
    expect(await stopCode(db, owner, unused.id)).toEqual({ ok: true, id: unused.id });
    expect((await listActivity(db, { limit: 1 }))[0]).toMatchObject({ action: 'code.deleted' });
    expect((await listCodes(db, async () => new Map())).some((c) => c.code === 'LATER')).toBe(false);
  });
});
