/**
 * The owner's orders on SQLite and PostgreSQL: the list (paid only, newest first, by status, by label, email
 * or name), moving orders on (every allowed and refused move, two admins at once), the customer's mail in the
 * order's language through the outbox, and what My Orders shows afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '~/db/database.server';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { settlePayment, startPayment } from '~/modules/checkout/index.server';
import { address, createCoffee, createUser, fillCart, storage, courier, freeCourier, pickup } from '../../../tests/fixtures/shop';
import { listOrders, orderLabel, withdrawalClosesAt } from '~/modules/orders/index.server';
import { createTestPaymentProvider } from '~/modules/payments/index.server';
import { canMove, deliveryMoment, getOwnerOrder, listOwnerOrders, moveOrder, sendOrderMailAgain, trackingUrl } from './index.server';

const owner = { id: 'owner-1', email: 'owner@kopi.test' };

describe.each(testDatabases())('the owner’s orders on %s', (_kind, open) => {
  let handle: TestDatabase;
  let db: DB;
  const placed: { id: string; email: string; userId: string }[] = [];
  let pendingId = '';

  beforeAll(async () => {
    handle = await open();
    db = handle.db;
    await freeCourier(db);
    const provider = createTestPaymentProvider(db);
    const gayo = await createCoffee(db, 'Gayo', 1250);
    for (const [i, locale] of (['en', 'pl', 'en', 'pl'] as const).entries()) {
      const user = await createUser(db, `customer${i}.${Date.now()}@example.test`);
      const cartId = await fillCart(db, user.id, [[gayo, i + 1]]);
      const started = await startPayment(db, provider, { userId: user.id, email: user.email, locale, currency: 'EUR', cartId, address: { ...address, fullName: `Ola Nowak ${i}` }, delivery: courier });
      if (!started.ok) throw new Error(started.reason);
      await settlePayment({ db, payments: provider, contactTo: 'shop@kopi.test', kickMail: () => {} }, (_trx, markPaid) => markPaid(started.paymentId));
      placed.push({ id: started.orderId, email: user.email, userId: user.id });
    }
    const user = await createUser(db);
    const pending = await startPayment(db, provider, { userId: user.id, email: user.email, locale: 'en', currency: 'EUR', cartId: await fillCart(db, user.id, [[gayo, 1]]), address, delivery: courier });
    if (!pending.ok) throw new Error(pending.reason);
    pendingId = pending.orderId;
  });
  afterAll(() => handle.close());

  const mailsTo = (email: string) => db.selectFrom('mail_outbox').select(['subject', 'text_body']).where('to_address', '=', email).orderBy('created_at').execute();

  it('a mail the server refused for good shows on the order with why, and the owner sends it again (only this order’s)', async () => {
    const [order, other] = placed;
    const confirmation = await db.selectFrom('mail_outbox').select('id').where('to_address', '=', order.email).orderBy('created_at').executeTakeFirstOrThrow();
    await db.updateTable('mail_outbox').set({ status: 'failed', refusals: 3, last_error: '550: 5.1.1 <o…@example.test>: Recipient address rejected' }).where('id', '=', confirmation.id).execute();
    const shown = (await getOwnerOrder(db, storage, order.id))!.timeline.find((entry) => entry.mailId === confirmation.id);
    expect(shown).toMatchObject({ kind: 'mail', mailStatus: 'failed', mailError: '550: 5.1.1 <o…@example.test>: Recipient address rejected' });
    expect(await sendOrderMailAgain(db, other.id, confirmation.id)).toBe(false);
    expect(await sendOrderMailAgain(db, order.id, 'no-such-mail')).toBe(false);
    expect(await sendOrderMailAgain(db, order.id, confirmation.id)).toBe(true);
    const queued = await db.selectFrom('mail_outbox').select(['status', 'refusals']).where('id', '=', confirmation.id).executeTakeFirstOrThrow();
    expect(queued).toEqual({ status: 'queued', refusals: 0 });
    expect((await getOwnerOrder(db, storage, order.id))!.timeline.find((entry) => entry.mailId === confirmation.id)).toMatchObject({ mailStatus: 'queued' });
  });

  it('lists paid orders newest first, by status, and finds them by label, email or name', async () => {
    const all = await listOwnerOrders(db, {});
    expect(all.orders.map((o) => o.id)).toEqual([...placed].reverse().map((o) => o.id));
    expect(all.orders.some((o) => o.id === pendingId)).toBe(false);
    expect(all.orders.find((o) => o.id === placed[2].id)).toMatchObject({ items: 3, totalCents: 3 * 1250, shippingStatus: 'processing', label: orderLabel(placed[2].id) });
    expect((await listOwnerOrders(db, { q: orderLabel(placed[1].id) })).orders.map((o) => o.id)).toEqual([placed[1].id]);
    expect((await listOwnerOrders(db, { q: orderLabel(placed[1].id).toLowerCase() })).orders.map((o) => o.id)).toEqual([placed[1].id]);
    expect((await listOwnerOrders(db, { q: placed[3].email.toUpperCase() })).orders.map((o) => o.id)).toEqual([placed[3].id]);
    expect((await listOwnerOrders(db, { q: 'nowak 0' })).orders.map((o) => o.id)).toEqual([placed[0].id]);
    expect((await listOwnerOrders(db, { q: '%' })).total).toBe(0);
    expect((await listOwnerOrders(db, { status: 'shipped' })).total).toBe(0);
  });

  it('ships with a carrier and tracking number, then delivers; each move mails the customer in their language', async () => {
    const [en, pl] = placed;
    expect(await moveOrder({ db, publicUrl: 'https://kopi.test/' }, owner, en.id, { to: 'shipped', carrier: 'inpost', trackingNumber: '6200123456789' })).toEqual({ ok: true });
    expect(await moveOrder({ db }, owner, pl.id, { to: 'shipped', carrier: 'dpd', trackingNumber: '' })).toEqual({ ok: true });

    const enMails = await mailsTo(en.email);
    expect(enMails.at(-1)!.subject).toBe(`Your Kopi order ${orderLabel(en.id)} is on its way`);
    expect(enMails.at(-1)!.text_body).toContain('https://inpost.pl/sledzenie-przesylek?number=6200123456789');
    expect((await mailsTo(pl.email)).at(-1)!.subject).toBe(`Twoje zamówienie Kopi ${orderLabel(pl.id)} jest w drodze`);

    const mine = (await listOrders(db, storage, en.userId)).orders[0];
    expect(mine).toMatchObject({ shippingStatus: 'shipped', parcel: { carrier: 'inpost', trackingNumber: '6200123456789' } });
    expect(trackingUrl(mine.parcel!.carrier, mine.parcel!.trackingNumber)).toBe('https://inpost.pl/sledzenie-przesylek?number=6200123456789');

    expect(await moveOrder({ db }, owner, en.id, { to: 'delivered' })).toEqual({ ok: true });
    expect((await mailsTo(en.email)).at(-1)!.subject).toBe(`Your Kopi order ${orderLabel(en.id)} has been delivered`);
    const order = await getOwnerOrder(db, storage, en.id);
    expect(order).toMatchObject({ shippingStatus: 'delivered', carrier: 'inpost', trackingNumber: '6200123456789', customer: { email: en.email } });
    expect(order!.timeline.map((e) => e.kind)).toEqual(['placed', 'paid', 'mail', 'shipped', 'mail', 'delivered', 'mail']);
    expect(order!.timeline.find((e) => e.kind === 'shipped')).toMatchObject({ by: owner.email, detail: 'inpost 6200123456789' });
  });

  it('refuses impossible moves and bad parcels, and changes nothing', async () => {
    const [en, pl, third] = placed;
    // en is delivered, pl is shipped, third is processing.
    expect(await moveOrder({ db }, owner, en.id, { to: 'shipped', carrier: 'dhl', trackingNumber: '' })).toEqual({ ok: false, reason: 'not_allowed', from: 'delivered' });
    expect(await moveOrder({ db }, owner, en.id, { to: 'delivered' })).toEqual({ ok: false, reason: 'not_allowed', from: 'delivered' });
    expect(await moveOrder({ db }, owner, pl.id, { to: 'shipped', carrier: 'dhl', trackingNumber: '' })).toEqual({ ok: false, reason: 'not_allowed', from: 'shipped' });
    expect(await moveOrder({ db }, owner, third.id, { to: 'delivered' })).toEqual({ ok: false, reason: 'not_allowed', from: 'processing' });
    expect(await moveOrder({ db }, owner, third.id, { to: 'shipped', carrier: 'pigeon', trackingNumber: '' })).toEqual({ ok: false, reason: 'invalid_carrier' });
    expect(await moveOrder({ db }, owner, third.id, { to: 'shipped', carrier: 'dhl', trackingNumber: '<script>' })).toEqual({ ok: false, reason: 'invalid_tracking' });
    expect(await moveOrder({ db }, owner, pendingId, { to: 'shipped', carrier: 'dhl', trackingNumber: '' })).toEqual({ ok: false, reason: 'not_found' });
    expect(await moveOrder({ db }, owner, 'no-such-order', { to: 'delivered' })).toEqual({ ok: false, reason: 'not_found' });
    await db.updateTable('orders').set({ shipping_status: 'cancelled' }).where('id', '=', placed[3].id).execute();
    expect(await moveOrder({ db }, owner, placed[3].id, { to: 'shipped', carrier: 'dhl', trackingNumber: '' })).toEqual({ ok: false, reason: 'not_allowed', from: 'cancelled' });
    expect((await getOwnerOrder(db, storage, third.id))!.shippingStatus).toBe('processing');
    expect(await getOwnerOrder(db, storage, pendingId)).toBeNull();
  });

  it('two admins shipping the same order at once make one change and send one mail', async () => {
    const order = placed[2];
    const before = (await mailsTo(order.email)).length;
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => moveOrder({ db }, { id: `admin-${i}`, email: `admin${i}@kopi.test` }, order.id, { to: 'shipped', carrier: 'ups', trackingNumber: `1Z99${i}999` })),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.reason === 'not_allowed')).toBe(true);
    expect((await mailsTo(order.email)).length).toBe(before + 1);
    const timeline = (await getOwnerOrder(db, storage, order.id))!.timeline;
    expect(timeline.filter((e) => e.kind === 'shipped')).toHaveLength(1);
  });

  it('records the day the parcel arrived: today by default, an earlier day at its end, never the future nor before shipping', async () => {
    const pl = placed[1]; // shipped, not yet delivered
    const clock = () => new Date('2026-11-26T10:00:00Z'); // 11:00 in Warsaw
    await db.updateTable('orders').set({ shipped_at: '2026-11-20T15:00:00Z' }).where('id', '=', pl.id).execute();
    const deliver = (deliveredOn?: string) => moveOrder({ db }, owner, pl.id, { to: 'delivered', deliveredOn }, clock);
    expect(await deliver('2026-11-27')).toEqual({ ok: false, reason: 'delivered_in_future' });
    expect(await deliver('2026-11-19')).toEqual({ ok: false, reason: 'delivered_before_shipping' });
    for (const bad of ['2026-02-30', '2026-12-32', '2026-13-01', '26.11.2026', 'tomorrow', '']) expect(await deliver(bad), bad).toEqual({ ok: false, reason: 'invalid_date' });
    expect((await getOwnerOrder(db, storage, pl.id))!.shippingStatus).toBe('shipped');

    // Recorded two days late: it arrived on the 24th, and the 14 days run from the end of that day in Warsaw.
    expect(await deliver('2026-11-24')).toEqual({ ok: true });
    const row = await db.selectFrom('orders').select('delivered_at').where('id', '=', pl.id).executeTakeFirstOrThrow();
    expect(row.delivered_at).toBe('2026-11-24T22:59:59.999Z');
    const mine = (await listOrders(db, storage, pl.userId)).orders[0];
    expect(withdrawalClosesAt(mine.deliveredAt)).toBe('2026-12-08T22:59:59.999Z');
    expect((await getOwnerOrder(db, storage, pl.id))!.timeline.find((e) => e.kind === 'delivered')).toMatchObject({ deliveredAt: '2026-11-24T22:59:59.999Z' });
  });

  it('an order collected at the roastery is never shipped: the owner marks it collected, and the customer is told', async () => {
    const provider = createTestPaymentProvider(db);
    const user = await createUser(db);
    const cartId = await fillCart(db, user.id, [[await createCoffee(db, 'Kerinci', 1990), 1]]);
    const started = await startPayment(db, provider, { userId: user.id, email: user.email, locale: 'pl', currency: 'EUR', cartId, address: { ...address, address: '', city: '', zipCode: '' }, delivery: pickup });
    if (!started.ok) throw new Error(started.reason);
    await settlePayment({ db, payments: provider, contactTo: 'shop@kopi.test', kickMail: () => {} }, (_trx, markPaid) => markPaid(started.paymentId));
    const order = await getOwnerOrder(db, storage, started.orderId);
    expect(order?.delivery).toMatchObject({ kind: 'pickup', priceCents: 0 });
    expect(order?.delivery?.pointAddress).toContain('ul. Mokotowska 12, 00-640 Warszawa');
    expect(canMove('processing', 'shipped', 'pickup')).toBe(false);
    expect(canMove('processing', 'delivered', 'pickup')).toBe(true);
    expect(canMove('processing', 'delivered', 'courier')).toBe(false);
    expect(await moveOrder({ db }, owner, started.orderId, { to: 'shipped', carrier: 'inpost', trackingNumber: '' })).toEqual({ ok: false, reason: 'not_allowed', from: 'processing' });
    expect(await moveOrder({ db }, owner, started.orderId, { to: 'delivered' })).toEqual({ ok: true });
    expect((await getOwnerOrder(db, storage, started.orderId))?.shippingStatus).toBe('delivered');
    const [, collected] = await mailsTo(user.email);
    expect(collected.subject).toContain(orderLabel(started.orderId));
  });

  it('a parcel marked delivered today was delivered at that moment', () => {
    expect(deliveryMoment('2026-11-26', new Date('2026-11-26T10:00:00Z'))).toBe('2026-11-26T10:00:00.000Z');
    // Summer time: the day ends at 22:00 UTC.
    expect(deliveryMoment('2026-07-01', new Date('2026-07-10T10:00:00Z'))).toBe('2026-07-01T21:59:59.999Z');
  });
});
