/**
 * Delivery at checkout: the server prices it from the rate table (weight bands with the packaging, the free
 * threshold), takes only what is offered for the country and the parcel, and only a locker InPost's Points API
 * returned (here its stand-in, tests/doubles/inpost-points.js, in a process of its own).
 */
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnStandIn } from '../../../tests/doubles/spawn';
import type { DB } from '~/db/database.server';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { createProduct } from '~/modules/catalog/index.server';
import { type LockerDirectory, createLockerDirectory } from '~/modules/delivery/index.server';
import { createTestPaymentProvider, type PaymentProvider } from '~/modules/payments/index.server';
import { address, courier, createUser, fillCart } from '../../../tests/fixtures/shop';
import { lockerSearchAllowed, startPayment } from './index.server';
import { LIMITS } from '~/modules/limits/index.server';

const PORT = 3391 + Number(process.env.VITEST_POOL_ID ?? 0);
const inpostUrl = `http://127.0.0.1:${PORT}`;
const locker = { country: 'PL', methodId: 'method-pl-locker', phone: '600100200' };
let standIn: ChildProcess;

beforeAll(async () => {
  standIn = await spawnStandIn('inpost-points.js', PORT);
});
afterAll(() => {
  standIn.kill();
});

const answered = async () => ((await (await fetch(`${inpostUrl}/__requests`)).json()) as { answered: number }).answered;

describe('the InPost lockers', () => {
  it('finds lockers by city, by post code (nearest first, with the distance) and by code; only operating ones', async () => {
    const lockers = createLockerDirectory({ baseUrl: inpostUrl });
    const krakow = await lockers.search('kraków');
    expect(krakow.ok && krakow.lockers.map((l) => l.code)).toEqual(['KRA01M', 'KRA08N', 'KRA112M', 'KRA245A', 'KRA310M']);
    const near = await lockers.search('31-147');
    if (!near.ok) throw new Error('unavailable');
    expect(near.lockers[0]).toMatchObject({ code: 'KRA01M', address: 'Długa 5, 31-147 Kraków', hours: '24/7', distanceMeters: 0 });
    expect(near.lockers.map((l) => l.distanceMeters)).toEqual([...near.lockers.map((l) => l.distanceMeters)].sort((a, b) => a! - b!));
    const byCode = await lockers.search(' kra08n ');
    expect(byCode.ok && byCode.lockers.map((l) => l.code)).toEqual(['KRA08N']);
    // WAW410A is not operating: neither found nor accepted.
    const warsaw = await lockers.search('Warszawa');
    expect(warsaw.ok && warsaw.lockers.map((l) => l.code)).not.toContain('WAW410A');
    expect(await lockers.find('WAW410A')).toBeNull();
    expect(await lockers.find('XYZ999')).toBeNull();
    expect(await lockers.search('<script>')).toEqual({ ok: true, lockers: [] });
  });

  it('asks InPost once per query while the answer is fresh', async () => {
    const lockers = createLockerDirectory({ baseUrl: inpostUrl });
    await lockers.search('Gdańsk');
    const before = await answered();
    for (let i = 0; i < 5; i++) await lockers.search('Gdańsk');
    await lockers.find('GDA01M');
    await lockers.find('GDA01M');
    expect((await answered()) - before).toBe(1);
  });

  it('a new place passes the shopper’s limit before InPost is asked; a kept answer does not, and a city is one query however it is typed', async () => {
    const lockers = createLockerDirectory({ baseUrl: inpostUrl });
    let asked = 0;
    let left = 2;
    const allow = async () => (asked++, left-- > 0);
    const before = await answered();
    expect((await lockers.search('gdynia', { allow })).ok).toBe(true);
    expect((await lockers.search('GDYNIA', { allow })).ok).toBe(true);
    expect((await lockers.search('Gdynia', { allow })).ok).toBe(true);
    expect(asked).toBe(1);
    expect((await lockers.search('80-001', { allow })).ok).toBe(true);
    // The third new place is refused without a call; the places searched before still answer.
    expect(await lockers.search('Sopot', { allow })).toEqual({ ok: false, reason: 'limited' });
    expect(await lockers.search('Gdynia', { allow })).toMatchObject({ ok: true });
    expect(asked).toBe(3);
    expect((await answered()) - before).toBe(2);
  });

  it('says so when InPost cannot be asked', async () => {
    const down = createLockerDirectory({ baseUrl: 'http://127.0.0.1:9' });
    expect(await down.search('Kraków')).toEqual({ ok: false, reason: 'unavailable' });
    expect(await down.find('KRA01M')).toBeUndefined();
  });
});

describe.each(testDatabases())('delivery at checkout on %s', (_kind, open) => {
  let handle: TestDatabase;
  let db: DB;
  let provider: PaymentProvider;
  let lockers: LockerDirectory;
  let kilo: string;
  beforeAll(async () => {
    handle = await open();
    db = handle.db;
    provider = createTestPaymentProvider(db);
    lockers = createLockerDirectory({ baseUrl: inpostUrl });
    kilo = await createProduct(db, { category: 'wholeBean', variants: [{ netWeightGrams: 1000, priceCents: 1000 }], translations: { en: { name: 'Kilo', description: '' } } });
  });
  afterAll(() => handle.close());

  const start = async (items: Array<[string, number]>, delivery: Parameters<typeof startPayment>[2]['delivery'], extra: Partial<Parameters<typeof startPayment>[2]> = {}) => {
    const user = await createUser(db);
    const cartId = await fillCart(db, user.id, items);
    const result = await startPayment(db, provider, { userId: user.id, email: user.email, locale: 'pl', currency: 'EUR', cartId, address, delivery, lockers, ...extra });
    const orders = await db.selectFrom('orders').selectAll().where('user_id', '=', user.id).execute();
    return { result, orders, user };
  };

  it('new places searched for lockers: 20 per cart and 60 per address in ten minutes, counted in the database', async () => {
    const rule = LIMITS.lockerSearch;
    const ip = `198.51.100.${Math.floor(Math.random() * 200) + 1}`;
    const tries = async (cartId: string, n: number) => {
      const answers = [];
      for (let i = 0; i < n; i++) answers.push(await lockerSearchAllowed(db, rule, { cartId, ip }));
      return answers;
    };
    const first = await tries('cart-a', rule.perCart + 1);
    expect(first.filter(Boolean)).toHaveLength(rule.perCart);
    expect(first.at(-1)).toBe(false);
    // Other carts from the same address share its 60.
    const others = [...(await tries('cart-b', rule.perCart)), ...(await tries('cart-c', rule.perCart)), ...(await tries('cart-d', rule.perCart))];
    expect(others.filter(Boolean)).toHaveLength(rule.perAddress - rule.perCart);
    // Another address is not affected.
    expect(await lockerSearchAllowed(db, rule, { cartId: 'cart-e', ip: '192.0.2.99' })).toBe(true);
  });

  it('prices the courier by the parcel’s weight with its packaging, the band’s edge included, and charges goods + delivery', async () => {
    // 1 kg of coffee + 150 g of packaging: the 2 kg band (5.49 €).
    const one = await start([[kilo, 1]], courier);
    expect(one.result).toMatchObject({ ok: true, amountCents: 1000 + 549 });
    expect(one.orders[0]).toMatchObject({ goods_cents: 1000, delivery_cents: 549, total_cents: 1549, delivery_kind: 'courier' });
    // 4 kg + 150 g: the 5 kg band (6.49 €).
    expect((await start([[kilo, 4]], courier)).result).toMatchObject({ ok: true, amountCents: 4000 + 649 });
  });

  it('delivers free once the goods reach the threshold exactly', async () => {
    const { result, orders } = await start([[kilo, 5]], courier);
    expect(result).toMatchObject({ ok: true, amountCents: 5000 });
    expect(orders[0]).toMatchObject({ goods_cents: 5000, delivery_cents: 0 });
  });

  it('takes a locker InPost returned, keeping its code and address on the order', async () => {
    const { result, orders, user } = await start([[kilo, 1]], { ...locker, lockerCode: 'kra01m' });
    expect(result).toMatchObject({ ok: true, amountCents: 1000 + 349 });
    expect(orders[0]).toMatchObject({
      delivery_kind: 'locker',
      delivery_point: 'KRA01M',
      delivery_point_address: 'Długa 5, 31-147 Kraków · Przy sklepie Lewiatan · 24/7',
      shipping_phone: '600100200',
    });
    // The phone and country are the customer's next time.
    expect(await db.selectFrom('profiles').select(['phone', 'country']).where('user_id', '=', user.id).executeTakeFirst()).toEqual({ phone: '600100200', country: 'PL' });
  });

  it('refuses a locker InPost does not know or that is closed, and says when InPost cannot be asked: no order', async () => {
    for (const code of ['KRA999M', 'WAW410A', '../../x', null]) {
      const { result, orders } = await start([[kilo, 1]], { ...locker, lockerCode: code });
      expect(result).toEqual({ ok: false, reason: 'locker_unknown' });
      expect(orders).toEqual([]);
    }
    const down = await start([[kilo, 1]], { ...locker, lockerCode: 'KRA01M' }, { lockers: createLockerDirectory({ baseUrl: 'http://127.0.0.1:9' }) });
    expect(down.result).toEqual({ ok: false, reason: 'lockers_unavailable' });
    expect(down.orders).toEqual([]);
  });

  it('refuses a country it does not serve, a method of another country, and a parcel too heavy for the method: no order', async () => {
    expect((await start([[kilo, 1]], { ...courier, country: 'US' })).result).toEqual({ ok: false, reason: 'country_not_served' });
    // The Polish courier is not the way to Germany, nor is a locker.
    expect((await start([[kilo, 1]], { ...courier, country: 'DE' })).result).toEqual({ ok: false, reason: 'method_unavailable' });
    expect((await start([[kilo, 1]], { ...locker, country: 'DE', lockerCode: 'KRA01M' })).result).toEqual({ ok: false, reason: 'method_unavailable' });
    // 25 kg + packaging is past the locker's last band (25 kg).
    const heavy = await start([[kilo, 25]], { ...locker, lockerCode: 'KRA01M' });
    expect(heavy.result).toEqual({ ok: false, reason: 'method_unavailable' });
    expect(heavy.orders).toEqual([]);
    // To Germany by the EU courier.
    expect((await start([[kilo, 1]], { country: 'DE', methodId: 'method-eu-courier' })).result).toMatchObject({ ok: true, amountCents: 1000 + 1299 });
  });
});
