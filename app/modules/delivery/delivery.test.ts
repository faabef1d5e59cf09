import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '~/db/database.server';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { listActivity } from '~/modules/activity/index.server';
import { parseDeliveryForm } from './delivery-form';
import { changeDelivery, deliveryOptions, getDeliveryTable } from './index.server';

const owner = { id: null, email: 'owner@kopi.test' };
const form = (fields: Record<string, string | string[]>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) data.append(name, v);
  return data;
};
const change = async (db: DB, fields: Record<string, string | string[]>) => {
  const parsed = parseDeliveryForm(form(fields));
  if (!parsed.ok) throw new Error(`form refused: ${JSON.stringify(parsed.errors)}`);
  return changeDelivery(db, owner, parsed.form);
};

describe.each(testDatabases())('delivery on %s', (_kind, open) => {
  let handle: TestDatabase;
  let db: DB;
  beforeAll(async () => {
    handle = await open();
    db = handle.db;
  });
  afterAll(() => handle.close());

  it('starts with rates for Poland (locker, courier, pickup) and the rest of the EU (courier), 150 g of packaging', async () => {
    const table = await getDeliveryTable(db);
    expect(table.packagingGrams).toBe(150);
    expect(table.homeCountry).toBe('PL');
    expect(table.zones.map((z) => z.countries.length)).toEqual([1, 26]);
    expect(table.zones[0].methods.map((m) => m.kind)).toEqual(['locker', 'courier', 'pickup']);
    // 2 × 250 g + 1 kg + packaging = 1650 g: the courier's 2 kg band; 75 € of goods: free over 50 €.
    const pl = deliveryOptions(table, { country: 'PL', goodsGrams: 1500, goodsCents: 4999 });
    expect(pl.map((o) => [o.kind, o.priceCents])).toEqual([['pickup', 0], ['locker', 349], ['courier', 549]]);
    expect(deliveryOptions(table, { country: 'PL', goodsGrams: 1500, goodsCents: 5000 }).map((o) => o.priceCents)).toEqual([0, 0, 0]);
    expect(deliveryOptions(table, { country: 'DE', goodsGrams: 850, goodsCents: 2000 }).map((o) => [o.kind, o.priceCents])).toEqual([['courier', 999]]);
  });

  it('changes a method’s bands and threshold, logs it, and quotes by the new table at once', async () => {
    const courier = (await getDeliveryTable(db)).zones[0].methods.find((m) => m.kind === 'courier')!;
    const outcome = await change(db, {
      intent: 'method',
      methodId: courier.id,
      active: 'on',
      'band.0.kg': '2',
      'band.0.price': '6,50',
      'band.0.pln': '27,99',
      'band.1.kg': '',
      'band.1.price': '',
      'band.2.kg': '20',
      'band.2.price': '15',
      freeOver: '80',
    });
    expect(outcome).toEqual({ ok: true });
    const table = await getDeliveryTable(db);
    const changed = table.zones[0].methods.find((m) => m.id === courier.id)!;
    // A złoty price typed is kept; one left empty is proposed at the shop rate (15 € × 4.25 = 63.75 → 63.99), and the
    // threshold as a round amount, as a Polish shop writes one (80 € → 340 zł → 350 zł, not 339.99 zł).
    expect(changed.bands).toEqual([
      { maxGrams: 2000, priceCents: 650, prices: { EUR: 650, PLN: 2799 } },
      { maxGrams: 20000, priceCents: 1500, prices: { EUR: 1500, PLN: 6399 } },
    ]);
    expect(changed.freeOverCents).toBe(8000);
    expect(changed.freeOver).toEqual({ EUR: 8000, PLN: 35_000 });
    expect(deliveryOptions(table, { country: 'PL', goodsGrams: 1850, goodsCents: 7999 }).find((o) => o.kind === 'courier')?.priceCents).toBe(650);
    expect(deliveryOptions(table, { country: 'PL', goodsGrams: 1851, goodsCents: 8000 }).find((o) => o.kind === 'courier')?.priceCents).toBe(0);
    const [entry] = await listActivity(db, { limit: 1 });
    expect(entry).toMatchObject({ action: 'delivery.changed', subjectLabel: 'Polska', actorEmail: owner.email });
    expect(entry.details).toMatchObject({ what: 'method', kind: 'courier', freeOverCents: [5000, 8000] });
  });

  it('keeps a country in one zone, lockers and pickup in a zone with Poland, and one method of a kind per zone', async () => {
    const before = await getDeliveryTable(db);
    const [poland, eu] = before.zones;
    expect(await change(db, { intent: 'zone', name: 'Nordics', countries: ['SE', 'DK'] })).toEqual({ ok: false, reason: 'countriesTaken', countries: ['DK', 'SE'] });
    expect(await change(db, { intent: 'zone', zoneId: poland.id, name: 'Polska', countries: ['CZ'] })).toMatchObject({ ok: false, reason: 'countriesTaken' });
    expect(await change(db, { intent: 'add-method', zoneId: eu.id, kind: 'locker' })).toEqual({ ok: false, reason: 'polandOnly' });
    expect(await change(db, { intent: 'add-method', zoneId: poland.id, kind: 'courier' })).toEqual({ ok: false, reason: 'kindTaken' });

    // The EU zone gives up the Nordics to a zone of their own, which gets a courier, switched off until priced.
    const rest = eu.countries.filter((c) => c !== 'SE' && c !== 'DK');
    expect(await change(db, { intent: 'zone', zoneId: eu.id, name: 'EU', countries: rest })).toEqual({ ok: true });
    expect(await change(db, { intent: 'zone', zoneId: '', name: 'Nordics', countries: ['SE', 'DK'] })).toEqual({ ok: true });
    let table = await getDeliveryTable(db);
    const nordics = table.zones.find((z) => z.name === 'Nordics')!;
    expect(nordics.countries).toEqual(['DK', 'SE']);
    expect(deliveryOptions(table, { country: 'SE', goodsGrams: 250, goodsCents: 1500 })).toEqual([]);
    expect(await change(db, { intent: 'add-method', zoneId: nordics.id, kind: 'courier' })).toEqual({ ok: true });
    table = await getDeliveryTable(db);
    expect(deliveryOptions(table, { country: 'SE', goodsGrams: 250, goodsCents: 1500 })).toEqual([]);
    const method = table.zones.find((z) => z.id === nordics.id)!.methods[0];
    expect(method).toMatchObject({ kind: 'courier', active: false });
    await change(db, { intent: 'method', methodId: method.id, active: 'on', 'band.0.kg': '5', 'band.0.price': '19.90', freeOver: '' });
    expect(deliveryOptions(await getDeliveryTable(db), { country: 'SE', goodsGrams: 250, goodsCents: 99_000 }).map((o) => o.priceCents)).toEqual([1990]);

    // Deleting the zone takes its methods and bands; the last zone stays.
    expect(await change(db, { intent: 'delete-zone', zoneId: nordics.id })).toEqual({ ok: true });
    expect(await db.selectFrom('delivery_rates').select('method_id').where('method_id', '=', method.id).execute()).toEqual([]);
    expect(deliveryOptions(await getDeliveryTable(db), { country: 'SE', goodsGrams: 250, goodsCents: 1500 })).toEqual([]);
  });

  it('refuses an active pickup without an address, a zone without Poland that holds a locker, and the last zone', async () => {
    const [poland, eu] = (await getDeliveryTable(db)).zones;
    const pickup = poland.methods.find((m) => m.kind === 'pickup')!;
    expect(await change(db, { intent: 'method', methodId: pickup.id, active: 'on', 'band.0.kg': '25', 'band.0.price': '0', pickupAddress: '' })).toEqual({ ok: false, reason: 'pickupAddress' });
    expect(await change(db, { intent: 'zone', zoneId: poland.id, name: 'Polska', countries: ['SE'] })).toEqual({ ok: false, reason: 'polandOnly' });
    expect(await change(db, { intent: 'delete-zone', zoneId: eu.id })).toEqual({ ok: true });
    expect(await change(db, { intent: 'delete-zone', zoneId: poland.id })).toEqual({ ok: false, reason: 'lastZone' });
    expect((await getDeliveryTable(db)).zones.map((z) => z.id)).toEqual([poland.id]);
  });

  it('changes the packaging weight and the home country', async () => {
    expect(await change(db, { intent: 'settings', packagingGrams: '300', homeCountry: 'CZ' })).toEqual({ ok: true });
    expect(await getDeliveryTable(db)).toMatchObject({ packagingGrams: 300, homeCountry: 'CZ' });
  });
});

describe('the delivery forms', () => {
  const errors = (fields: Record<string, string | string[]>) => {
    const parsed = parseDeliveryForm(form(fields));
    return parsed.ok ? {} : parsed.errors;
  };
  it('names each bad field', () => {
    expect(errors({ intent: 'settings', packagingGrams: '-1', homeCountry: 'US' })).toEqual({ packagingGrams: 'packaging', homeCountry: 'country' });
    expect(errors({ intent: 'settings', packagingGrams: '5001', homeCountry: 'PL' })).toEqual({ packagingGrams: 'packaging' });
    expect(errors({ intent: 'zone', name: ' ', countries: ['PL', 'XX'] })).toEqual({ name: 'zoneName', countries: 'countries' });
    expect(errors({ intent: 'zone', name: 'A', countries: [] })).toEqual({ countries: 'countries' });
    expect(errors({ intent: 'add-method', zoneId: 'z', kind: 'drone' })).toEqual({ kind: 'kind' });
    expect(errors({ intent: 'method', methodId: 'm', 'band.0.kg': '0', 'band.0.price': '5', 'band.1.kg': '26', 'band.1.price': '-1' })).toEqual({
      'band.0.kg': 'bandWeight',
      'band.1.kg': 'bandWeight',
      'band.1.price': 'bandPrice',
    });
    expect(errors({ intent: 'method', methodId: 'm', 'band.0.kg': '2', 'band.0.price': '5', 'band.1.kg': '2', 'band.1.price': '6' })).toEqual({ 'band.1.kg': 'bandOrder' });
    expect(errors({ intent: 'method', methodId: 'm', 'band.0.kg': '', 'band.0.price': '' })).toEqual({ bands: 'noBands' });
    expect(errors({ intent: 'method', methodId: 'm', 'band.0.kg': '1', 'band.0.price': '5', freeOver: '0' })).toEqual({ freeOver: 'freeOver' });
    expect(errors({ intent: 'method', methodId: '../x', 'band.0.kg': '1', 'band.0.price': '5', pickupAddress: 'a\u0000b' })).toEqual({ methodId: 'notFound', pickupAddress: 'pickupAddress' });
    expect(errors({ intent: 'launch' })).toEqual({ intent: 'notFound' });
  });
});
