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
import { address, courier, createUser, fillCart, storage } from '../../../tests/fixtures/shop';
import { deliveryStep, lockerSearchAllowed, startPayment } from './index.server';
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
    expect(await lockers.search('<script>')).toEqual({ ok: true, lockers: [], near: false });
    // Only a post code's lockers are "near" it; a city's are the city's.
    expect(near.near).toBe(true);
    expect(krakow.ok && krakow.near).toBe(false);
  });

  it('lists nothing as near a post code that it cannot measure, nor further than 20 km, and always names each locker’s town', async () => {
    const point = (name: string, city: string, post_code: string, distance?: number) => ({
      name,
      status: 'Operating',
      type: ['parcel_locker'],
      address: { line1: 'Rynek 1', line2: null },
      address_details: { city, post_code },
      ...(distance === undefined ? {} : { distance }),
    });
    const answering = (items: unknown[]) =>
      createLockerDirectory({ baseUrl: 'http://inpost.invalid', fetchImpl: (async () => new Response(JSON.stringify({ items }), { status: 200 })) as typeof fetch });
    // Without distances (InPost did not place the post code), Gdańsk's locker is not listed for a Kraków post code.
    const unmeasured = await answering([point('GDA01M', 'Gdańsk', '80-827'), point('KRA01M', 'Kraków', '31-147')]).search('31-100');
    expect(unmeasured).toEqual({ ok: true, near: false, lockers: [expect.objectContaining({ code: 'KRA01M', address: 'Rynek 1, 31-147 Kraków', distanceMeters: null })] });
    // With them: nearest first, and one 25 km away is not "near" whatever InPost sent.
    const measured = await answering([point('WIE01M', 'Wieliczka', '32-020', 9_000), point('KRA01M', 'Kraków', '31-147', 1_200), point('TAR01M', 'Tarnów', '33-100', 25_000)]).search('31-100');
    expect(measured.ok && measured.near).toBe(true);
    expect(measured.ok && measured.lockers.map((l) => [l.code, l.distanceMeters, l.address])).toEqual([
      ['KRA01M', 1_200, 'Rynek 1, 31-147 Kraków'],
      ['WIE01M', 9_000, 'Rynek 1, 32-020 Wieliczka'],
    ]);
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

  it('a locker needs no street, city or postcode (InPost asks for a name, phone and email), and never wipes the profile’s address', async () => {
    const nameOnly = { fullName: 'Ola Nowak', address: '', city: '', zipCode: '' };
    const { result, orders, user } = await start([[kilo, 1]], { ...locker, lockerCode: 'KRA01M' }, { address: nameOnly });
    expect(result).toMatchObject({ ok: true });
    expect(orders[0]).toMatchObject({ shipping_full_name: 'Ola Nowak', shipping_address: '', delivery_point: 'KRA01M' });
    // A courier still needs the whole address.
    expect((await start([[kilo, 1]], courier, { address: nameOnly })).result).toEqual({ ok: false, reason: 'address_incomplete' });
    // The customer's address from an earlier courier order stays in the profile after a locker order without one.
    const cartId = await fillCart(db, user.id, [[kilo, 1]]);
    await startPayment(db, provider, { userId: user.id, email: user.email, locale: 'pl', currency: 'EUR', cartId, address, delivery: courier, lockers });
    await startPayment(db, provider, { userId: user.id, email: user.email, locale: 'pl', currency: 'EUR', cartId, address: nameOnly, delivery: { ...locker, lockerCode: 'KRA08N' }, lockers });
    expect(await db.selectFrom('profiles').select(['address', 'city', 'zip_code']).where('user_id', '=', user.id).executeTakeFirst()).toEqual({ address: address.address, city: address.city, zip_code: address.zipCode });
  });

  it('back at the delivery step, the way, the locker, the recipient and the invoice asked for are as the shopper left them', async () => {
    const user = await createUser(db);
    const cartId = await fillCart(db, user.id, [[kilo, 1]]);
    const step = (country: string | null = null) => deliveryStep(db, storage, lockers, { userId: user.id, cartId, locale: 'pl', currency: 'EUR', country });
    expect((await step()).remembered).toBeNull();
    const invoiceBuyer = { name: 'Kawiarnia Ziarno', taxId: '5260250274', country: 'PL', address: 'Rynek 1', zipCode: '31-042', city: 'Kraków' };
    const nameOnly = { fullName: 'Ola Nowak', address: '', city: '', zipCode: '' };
    expect(await startPayment(db, provider, { userId: user.id, email: user.email, locale: 'pl', currency: 'EUR', cartId, address: nameOnly, delivery: { ...locker, lockerCode: 'KRA01M' }, lockers, invoiceBuyer })).toMatchObject({ ok: true });
    const back = await step();
    expect(back.country).toBe('PL');
    expect(back.remembered).toEqual({
      values: {
        fullName: 'Ola Nowak',
        phone: '600100200',
        saveToProfile: 'on',
        methodId: 'method-pl-locker',
        lockerCode: 'KRA01M',
        invoice: 'on',
        invoiceName: 'Kawiarnia Ziarno',
        invoiceTaxId: '5260250274',
        invoiceCountry: 'PL',
        invoiceAddress: 'Rynek 1',
        invoiceZipCode: '31-042',
        invoiceCity: 'Kraków',
      },
      lockerAddress: 'Długa 5, 31-147 Kraków · Przy sklepie Lewiatan · 24/7',
    });
    // Another customer's cart remembers nothing of it.
    const other = await createUser(db);
    expect((await deliveryStep(db, storage, lockers, { userId: other.id, cartId, locale: 'pl', currency: 'EUR' })).remembered).toBeNull();
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
