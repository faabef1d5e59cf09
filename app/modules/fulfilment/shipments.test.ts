/**
 * InPost shipments from the back office on SQLite and PostgreSQL, against the ShipX stand-in
 * (tests/doubles/shipx.js) in a process of its own: the body ShipX is sent for a locker and for a courier, the
 * order moved to shipped with InPost's tracking number and the customer's mail, the label, a refusal in
 * InPost's words that changes nothing, two clicks at once making one shipment, and a confirmation that comes later.
 */
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnStandIn } from '../../../tests/doubles/spawn';
import type { DB } from '~/db/database.server';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { settlePayment, startPayment } from '~/modules/checkout/index.server';
import { getOrderRecordLines, orderLabel } from '~/modules/orders/index.server';
import { createTestPaymentProvider } from '~/modules/payments/index.server';
import { address, courier, createCoffee, createUser, fillCart, pickup } from '../../../tests/fixtures/shop';
import { confirmShipment, createShipment, orderParcelGrams, shipmentLabel, shipmentService, suggestedSize } from './shipments.server';
import { createShipx, shipmentBody, shipxPhone, shipxWords, splitName, splitStreet } from './shipx.server';

const PORT = 3371 + Number(process.env.VITEST_POOL_ID ?? 0);
const apiUrl = `http://127.0.0.1:${PORT}`;
const settings = { apiUrl, token: 'shipx-test-token', organizationId: '1234', sendingMethod: 'dispatch_order' as const };
const owner = { id: 'owner-1', email: 'owner@kopi.test' };
let standIn: ChildProcess;

beforeAll(async () => {
  standIn = await spawnStandIn('shipx.js', PORT);
});
afterAll(() => {
  standIn.kill();
});

type Sent = { id: number; status: string; tracking_number: string | null; reference: string; body: Record<string, any> };
const shipmentsAt = async (): Promise<Sent[]> => (await fetch(`${apiUrl}/__shipments`)).json();
const control = (path: string) => fetch(`${apiUrl}${path}`, { method: 'POST' });

describe('what ShipX is sent', () => {
  it('splits a Polish address line, a name and a phone as ShipX wants them', () => {
    expect(splitStreet('ul. Kwiatowa 5')).toEqual({ street: 'ul. Kwiatowa', buildingNumber: '5' });
    expect(splitStreet('Aleje Jerozolimskie 123A/45')).toEqual({ street: 'Aleje Jerozolimskie', buildingNumber: '123A/45' });
    expect(splitStreet('ul. 3 Maja 12 m. 4')).toEqual({ street: 'ul. 3 Maja', buildingNumber: '12 m. 4' });
    expect(splitStreet('Rynek')).toEqual({ street: 'Rynek', buildingNumber: '' });
    expect(splitName('Anna Maria Kowalska')).toEqual({ first_name: 'Anna Maria', last_name: 'Kowalska' });
    expect(splitName('Cher')).toEqual({ first_name: 'Cher', last_name: 'Cher' });
    expect(shipxPhone('+48600100200')).toBe('600100200');
    expect(shipxPhone('600 100 200')).toBe('600100200');
  });

  it('says what ShipX refused in its words', () => {
    const body = { status: 400, error: 'validation_failed', message: 'There are some validation errors.', details: { receiver: [{ phone: ['invalid'] }], custom_attributes: [{ target_point: ['does_not_exist'] }] } };
    expect(shipxWords(body, 400)).toBe('There are some validation errors. — receiver.phone: invalid — custom_attributes.target_point: does_not_exist');
    expect(shipxWords(null, 422)).toBe('HTTP 422');
  });

  it('sends a courier parcel its dimensions and weight in kilograms, rounded up to 100 g', () => {
    const body = shipmentBody(
      { service: 'courier', reference: 'X7K2QA', receiver: { name: 'Ola Nowak', email: 'ola@example.test', phone: '+48600100200' }, size: 'medium', weightGrams: 1_401, address: { street: 'ul. Kwiatowa', buildingNumber: '5', city: 'Kraków', postCode: '30-001' } },
      'dispatch_order',
    );
    expect(body).toMatchObject({
      service: 'inpost_courier_standard',
      receiver: { first_name: 'Ola', last_name: 'Nowak', phone: '600100200', address: { street: 'ul. Kwiatowa', building_number: '5', city: 'Kraków', post_code: '30-001', country_code: 'PL' } },
      parcels: [{ dimensions: { height: 190, width: 380, length: 640, unit: 'mm' }, weight: { amount: 1.5, unit: 'kg' } }],
    });
  });

  it('picks a locker size by weight, and ships through ShipX only to a locker or by courier in Poland', () => {
    expect([suggestedSize(150), suggestedSize(2_000), suggestedSize(2_001), suggestedSize(6_001)]).toEqual(['small', 'small', 'medium', 'large']);
    const base = { methodId: 'm', priceCents: 0, standardCents: 0, phone: '', pointAddress: null };
    expect(shipmentService({ ...base, kind: 'locker', country: 'PL', point: 'KRA01M' })).toBe('locker');
    expect(shipmentService({ ...base, kind: 'courier', country: 'PL', point: null })).toBe('courier');
    expect(shipmentService({ ...base, kind: 'courier', country: 'DE', point: null })).toBeNull();
    expect(shipmentService({ ...base, kind: 'pickup', country: 'PL', point: null })).toBeNull();
    expect(shipmentService(null)).toBeNull();
  });

  it('is refused without the right token or organisation', async () => {
    const request = { service: 'locker' as const, reference: 'X', receiver: { name: 'Ola Nowak', email: 'ola@example.test', phone: '600100200' }, size: 'small' as const, weightGrams: 500, targetPoint: 'KRA01M' };
    expect(await createShipx({ ...settings, token: 'wrong' }).create(request)).toEqual({ ok: false, reason: 'refused', message: 'Token is missing or invalid.' });
    expect(await createShipx({ ...settings, organizationId: '999' }).create(request)).toMatchObject({ ok: false, reason: 'refused' });
    expect(await createShipx({ ...settings, apiUrl: 'http://127.0.0.1:9' }).create(request)).toEqual({ ok: false, reason: 'unreachable' });
    // A closed port: refused before anything was sent.
    expect(await createShipx({ ...settings, apiUrl: 'http://127.0.0.1:39999' }).create(request)).toEqual({ ok: false, reason: 'unreachable' });
  });
});

describe.each(testDatabases())('InPost shipments on %s', (_kind, open) => {
  let handle: TestDatabase;
  let db: DB;
  const shipx = createShipx(settings);
  const services = () => ({ db, shipx, publicUrl: 'http://shop.test/' });
  let coffee = '';

  /** A paid order: by courier (with a phone), to a locker (its code), or for pickup. */
  async function paidOrder(how: 'courier' | 'locker' | 'pickup', point = 'KRA01M') {
    const user = await createUser(db);
    const provider = createTestPaymentProvider(db);
    const cartId = await fillCart(db, user.id, [[coffee, 2]]);
    const delivery = how === 'pickup' ? pickup : { ...courier, phone: '+48600100200' };
    const started = await startPayment(db, provider, { userId: user.id, email: user.email, locale: 'pl', currency: 'EUR', cartId, address, delivery });
    if (!started.ok) throw new Error(started.reason);
    await settlePayment({ db, payments: provider, contactTo: 'shop@kopi.test', kickMail: () => {} }, (_trx, markPaid) => markPaid(started.paymentId));
    // A locker order as checkout makes it (checkout's own suite covers the locker search).
    if (how === 'locker') await db.updateTable('orders').set({ delivery_kind: 'locker', delivery_method_id: 'method-pl-locker', delivery_point: point, delivery_point_address: 'Długa 5, 31-147 Kraków' }).where('id', '=', started.orderId).execute();
    return { id: started.orderId, email: user.email };
  }
  const orderRow = (id: string) => db.selectFrom('orders').select(['shipping_status', 'carrier', 'tracking_number', 'shipment_id', 'shipment_size', 'shipment_started_at']).where('id', '=', id).executeTakeFirstOrThrow();
  const activity = (id: string) => db.selectFrom('activity_log').select(['action', 'details']).where('subject_id', '=', id).orderBy('created_at').execute();

  beforeAll(async () => {
    handle = await open();
    db = handle.db;
    coffee = await createCoffee(db, 'Java Frinsa', 1490);
    await db.updateTable('variants').set({ net_weight_grams: 250 }).where('product_id', '=', coffee).execute();
    await control('/__confirm-after/200');
  });
  afterAll(() => handle.close());

  it('ships a locker order: ShipX gets the locker, the size and the order label; the order is shipped with InPost’s number and the customer mailed', async () => {
    const order = await paidOrder('locker');
    expect(await orderParcelGrams(db, await getOrderRecordLines(db, order.id))).toBe(2 * 250 + 150);
    expect(await createShipment(services(), owner, order.id, 'small')).toEqual({ ok: true, shipped: true });
    const sent = (await shipmentsAt()).find((s) => s.reference === orderLabel(order.id))!;
    expect(sent.body).toMatchObject({
      service: 'inpost_locker_standard',
      receiver: { first_name: 'Ola', last_name: 'Nowak', email: order.email, phone: '600100200' },
      parcels: { template: 'small' },
      custom_attributes: { target_point: 'KRA01M', sending_method: 'dispatch_order' },
    });
    expect(await orderRow(order.id)).toMatchObject({ shipping_status: 'shipped', carrier: 'inpost', tracking_number: sent.tracking_number, shipment_id: String(sent.id), shipment_size: 'small' });
    expect((await activity(order.id)).map((a) => a.action)).toEqual(['order.shipment', 'order.shipped']);
    const mail = await db.selectFrom('mail_outbox').select(['subject', 'text_body']).where('to_address', '=', order.email).orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    expect(mail.text_body).toContain(`https://inpost.pl/sledzenie-przesylek?number=${sent.tracking_number}`);

    const label = await shipmentLabel(services(), order.id);
    expect(label.ok && new TextDecoder().decode(label.value.slice(0, 5))).toBe('%PDF-');
    // Shipped already: no second shipment.
    expect(await createShipment(services(), owner, order.id, 'small')).toEqual({ ok: false, reason: 'not_allowed' });
  });

  it('ships a courier order within Poland with the address split and the parcel weighed', async () => {
    const order = await paidOrder('courier');
    expect(await createShipment(services(), owner, order.id, 'medium')).toEqual({ ok: true, shipped: true });
    const sent = (await shipmentsAt()).find((s) => s.reference === orderLabel(order.id))!;
    expect(sent.body).toMatchObject({
      service: 'inpost_courier_standard',
      receiver: { address: { street: 'ul. Kwiatowa', building_number: '5', city: 'Kraków', post_code: '30-001', country_code: 'PL' } },
      parcels: [{ weight: { amount: 0.7, unit: 'kg' } }],
    });
  });

  it('shows InPost’s refusal and changes nothing: a locker taken out of service', async () => {
    const order = await paidOrder('locker', 'GDA01M');
    await control('/__lockers/GDA01M/withdraw');
    const before = (await shipmentsAt()).length;
    const outcome = await createShipment(services(), owner, order.id, 'small');
    expect(outcome).toEqual({ ok: false, reason: 'refused', message: expect.stringContaining('custom_attributes.target_point: does_not_exist') });
    expect(await orderRow(order.id)).toMatchObject({ shipping_status: 'processing', carrier: null, shipment_id: null, shipment_started_at: null });
    expect(await activity(order.id)).toEqual([]);
    expect((await shipmentsAt()).length).toBe(before);
  });

  it('says when InPost cannot be reached, and lets the owner try again', async () => {
    const order = await paidOrder('locker');
    const down = { ...services(), shipx: createShipx({ ...settings, apiUrl: 'http://127.0.0.1:9' }) };
    expect(await createShipment(down, owner, order.id, 'small')).toEqual({ ok: false, reason: 'unreachable' });
    expect(await orderRow(order.id)).toMatchObject({ shipping_status: 'processing', shipment_started_at: null });
    expect(await createShipment(services(), owner, order.id, 'large')).toEqual({ ok: true, shipped: true });
  });

  it('keeps the order claimed when InPost’s answer is lost: the shipment may exist, so no second one is made at once', async () => {
    const order = await paidOrder('locker');
    await control('/__fail-next/502');
    const before = (await shipmentsAt()).length;
    expect(await createShipment(services(), owner, order.id, 'small')).toEqual({ ok: false, reason: 'uncertain' });
    // InPost did make it (the answer was lost); the order is unchanged but stays claimed.
    expect((await shipmentsAt()).length).toBe(before + 1);
    const row = await orderRow(order.id);
    expect(row).toMatchObject({ shipping_status: 'processing', shipment_id: null });
    expect(row.shipment_started_at).not.toBeNull();
    expect(await createShipment(services(), owner, order.id, 'small')).toEqual({ ok: false, reason: 'in_progress' });
    expect((await shipmentsAt()).length).toBe(before + 1);
    // After the claim's two minutes the owner, having looked in InPost Manager, may create it.
    const later = () => new Date(Date.now() + 3 * 60_000);
    expect(await createShipment(services(), owner, order.id, 'small', later)).toEqual({ ok: true, shipped: true });
  });

  it('never ships a cancelled order’s shipment, and says so', async () => {
    await control('/__confirm-after/2500');
    const order = await paidOrder('locker');
    try {
      expect(await createShipment(services(), owner, order.id, 'small')).toEqual({ ok: true, shipped: false });
      await db.updateTable('orders').set({ shipping_status: 'cancelled' }).where('id', '=', order.id).execute();
      expect(await confirmShipment(services(), owner, order.id, 30)).toEqual({ ok: false, reason: 'not_allowed' });
      expect(await orderRow(order.id)).toMatchObject({ shipping_status: 'cancelled', carrier: null });
    } finally {
      await control('/__confirm-after/200');
    }
  });

  it('makes one shipment when two admins click at once', async () => {
    const order = await paidOrder('locker');
    const outcomes = await Promise.all([createShipment(services(), owner, order.id, 'small'), createShipment(services(), owner, order.id, 'small')]);
    expect(outcomes).toContainEqual({ ok: true, shipped: true });
    expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
    expect((await shipmentsAt()).filter((s) => s.reference === orderLabel(order.id))).toHaveLength(1);
  });

  it('waits for a confirmation that comes late: the order stays processing until the owner checks again', async () => {
    await control('/__confirm-after/2500');
    const order = await paidOrder('locker');
    try {
      expect(await createShipment(services(), owner, order.id, 'small')).toEqual({ ok: true, shipped: false });
      expect(await orderRow(order.id)).toMatchObject({ shipping_status: 'processing', tracking_number: null, shipment_size: 'small' });
      expect(await shipmentLabel(services(), order.id)).toMatchObject({ ok: false, reason: 'refused' });
      expect(await createShipment(services(), owner, order.id, 'small')).toEqual({ ok: false, reason: 'not_allowed' });
      expect(await confirmShipment(services(), owner, order.id)).toEqual({ ok: true, shipped: false });
      expect(await confirmShipment(services(), owner, order.id, 30)).toEqual({ ok: true, shipped: true });
      expect(await orderRow(order.id)).toMatchObject({ shipping_status: 'shipped', carrier: 'inpost' });
    } finally {
      await control('/__confirm-after/200');
    }
  });

  it('refuses what cannot be shipped through InPost', async () => {
    const collected = await paidOrder('pickup');
    expect(await createShipment(services(), owner, collected.id, 'small')).toEqual({ ok: false, reason: 'not_allowed' });
    const order = await paidOrder('locker');
    expect(await createShipment(services(), owner, order.id, 'huge')).toEqual({ ok: false, reason: 'invalid_size' });
    expect(await createShipment({ ...services(), shipx: null }, owner, order.id, 'small')).toEqual({ ok: false, reason: 'not_configured' });
    expect(await createShipment(services(), owner, 'no such order', 'small')).toEqual({ ok: false, reason: 'not_found' });
    expect(await confirmShipment(services(), owner, order.id)).toEqual({ ok: false, reason: 'not_allowed' });
    expect(await shipmentLabel(services(), order.id)).toEqual({ ok: false, reason: 'not_found' });
  });
});
