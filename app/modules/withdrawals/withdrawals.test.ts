/**
 * Withdrawal from a contract on SQLite and PostgreSQL: found by number and email (or as the customer's own
 * order), the period (open before delivery, 14 days after it), the lines chosen, the acknowledgement in the
 * consumer's language and the shop's notice through the outbox, and what is refused without recording.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '~/db/database.server';
import { formatDate } from '~/lib/format';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { payWithCard, startPayment } from '~/modules/checkout/index.server';
import { address, createCoffee, createUser, fillCart, storage, courier, freeCourier } from '../../../tests/fixtures/shop';
import { getOwnerOrder, moveOrder, refundWithdrawal } from '~/modules/fulfilment/index.server';
import { orderLabel } from '~/modules/orders/index.server';
import { TEST_CARDS, createTestPaymentProvider } from '~/modules/payments/index.server';
import { findOrderForWithdrawal, findOwnOrderForWithdrawal, listWithdrawals, requestWithdrawal } from './index.server';
import { parseWithdrawalForm } from './withdrawal.schema';

const owner = { id: 'owner-1', email: 'owner@kopi.test' };
const DAY = 86_400_000;

describe.each(testDatabases())('withdrawals on %s', (_kind, open) => {
  let handle: TestDatabase;
  let db: DB;
  let gayo = '';
  let java = '';
  let provider: ReturnType<typeof createTestPaymentProvider>;

  beforeAll(async () => {
    handle = await open();
    db = handle.db;
    await freeCourier(db);
    provider = createTestPaymentProvider(db);
    gayo = await createCoffee(db, 'Gayo', 1250);
    java = await createCoffee(db, 'Java', 900);
  });
  afterAll(() => handle.close());

  async function paidOrder(locale: 'en' | 'pl' = 'en', delivery: { country: string; methodId: string } = courier) {
    const user = await createUser(db, `buyer.${Math.random().toString(36).slice(2)}@example.test`);
    const cartId = await fillCart(db, user.id, [[gayo, 2], [java, 1]]);
    const started = await startPayment(db, provider, { userId: user.id, email: user.email, locale, currency: 'EUR', cartId, address, delivery });
    if (!started.ok) throw new Error(started.reason);
    // Paid through the test provider's card form, so its payment can be refunded.
    const card = { number: TEST_CARDS.success, expMonth: 12, expYear: 2040, cvc: '123' };
    const paid = await payWithCard({ db, payments: provider, contactTo: 'shop@kopi.test', kickMail: () => {} }, { userId: user.id, orderId: started.orderId, card });
    if (!paid.ok) throw new Error(paid.code);
    return { id: started.orderId, email: user.email, userId: user.id };
  }
  const mailsTo = (email: string) => db.selectFrom('mail_outbox').select(['subject', 'text_body', 'reply_to']).where('to_address', '=', email).orderBy('created_at').execute();
  const services = { contactTo: 'shop@kopi.test', publicUrl: 'https://kopi.test/' };

  it('finds an order by its number and email, in any case, and only with both', async () => {
    const order = await paidOrder();
    const label = orderLabel(order.id);
    expect((await findOrderForWithdrawal(db, label.toLowerCase(), order.email.toUpperCase()))?.id).toBe(order.id);
    expect((await findOrderForWithdrawal(db, `#${label}`, order.email))?.id).toBe(order.id);
    expect((await findOrderForWithdrawal(db, order.id, order.email))?.id).toBe(order.id);
    expect(await findOrderForWithdrawal(db, label, 'someone.else@example.test')).toBeNull();
    expect(await findOrderForWithdrawal(db, 'ZZZZZZ', order.email)).toBeNull();
    expect(await findOwnOrderForWithdrawal(db, 'another-user', order.id)).toBeNull();
    expect(await findOwnOrderForWithdrawal(db, order.userId, order.id)).toMatchObject({ status: 'open', closesAt: null, lines: [{ productId: gayo, quantity: 2 }, { productId: java, quantity: 1 }] });
  });

  it('records a withdrawal from the chosen lines and acknowledges it at once in the consumer’s language; the shop is told', async () => {
    const order = await paidOrder('en');
    const found = (await findOwnOrderForWithdrawal(db, order.userId, order.id))!;
    const now = new Date('2026-11-24T10:15:00Z');
    const outcome = await requestWithdrawal(db, found, { name: 'Ola Nowak', email: order.email, positions: [0], reason: 'Too strong for me', locale: 'pl' }, { ...services, now });
    expect(outcome).toMatchObject({ ok: true, withdrawal: { orderId: order.id, lines: [{ productId: gayo, title: 'Gayo', quantity: 2 }], reason: 'Too strong for me', refundDueAt: '2026-12-08T10:15:00.000Z' } });
    expect(await listWithdrawals(db, order.id)).toHaveLength(1);

    const [ack] = await mailsTo(order.email).then((all) => all.filter((m) => m.subject.includes('odstąpienie')));
    expect(ack.subject).toBe(`Otrzymaliśmy Twoje odstąpienie od umowy — zamówienie ${orderLabel(order.id)}`);
    expect(ack.text_body).toContain('otrzymaliśmy 24 lis 2026, 11:15.'); // the withdrawal's date and time in the shop's time zone (Warsaw)
    expect(ack.text_body).toContain(`z dnia ${formatDate(found.createdAt, 'pl')}.`); // the order's own date, whatever day the test runs
    expect(ack.text_body).toContain('2 × Gayo');
    expect(ack.text_body).not.toContain('Java');
    expect(ack.text_body).toContain('Podany powód: Too strong for me');
    expect(ack.text_body).toContain('8 grudnia 2026');
    const [shop] = (await mailsTo('shop@kopi.test')).filter((m) => m.subject === `Withdrawal from order ${orderLabel(order.id)}`);
    expect(shop.reply_to).toBe(order.email);
    expect(shop.text_body).toContain('Refund due by: 2026-12-08');

    // The line withdrawn from is gone from the next withdrawal; the other stays possible until every line is.
    const again = (await findOwnOrderForWithdrawal(db, order.userId, order.id))!;
    expect(again.lines.map((l) => l.productId)).toEqual([java]);
    expect(await requestWithdrawal(db, again, { name: 'Ola', email: order.email, positions: [0], reason: '', locale: 'en' }, services)).toEqual({ ok: false, reason: 'no_lines' });
    expect((await requestWithdrawal(db, again, { name: 'Ola', email: order.email, positions: [1], reason: '', locale: 'en' }, services)).ok).toBe(true);
    expect((await findOwnOrderForWithdrawal(db, order.userId, order.id))!.status).toBe('withdrawn');
    expect(await requestWithdrawal(db, again, { name: 'Ola', email: order.email, positions: [1], reason: '', locale: 'en' }, services)).toEqual({ ok: false, reason: 'withdrawn' });
    expect(await listWithdrawals(db, order.id)).toHaveLength(2);
  });

  it('the owner refunds what the withdrawn lines cost, once; the customer is told in their language; the order shows it', async () => {
    const order = await paidOrder('en');
    await moveOrder({ db }, owner, order.id, { to: 'shipped', carrier: 'inpost', trackingNumber: '6200123456789' });
    await moveOrder({ db }, owner, order.id, { to: 'delivered' });
    const found = (await findOwnOrderForWithdrawal(db, order.userId, order.id))!;
    const outcome = await requestWithdrawal(db, found, { name: 'Ola Nowak', email: order.email, positions: [0], reason: '', locale: 'pl' }, services);
    if (!outcome.ok) throw new Error(outcome.reason);
    expect(outcome.withdrawal.amountCents).toBe(2 * 1250);

    const refundServices = { db, payments: provider, publicUrl: 'https://kopi.test/' };
    expect(await refundWithdrawal(refundServices, owner, order.id, outcome.withdrawal.id)).toEqual({ ok: true, refundedCents: 2500 });
    expect(await refundWithdrawal(refundServices, owner, order.id, outcome.withdrawal.id)).toEqual({ ok: false, reason: 'already_refunded' });
    expect(await refundWithdrawal(refundServices, owner, 'another-order', outcome.withdrawal.id)).toEqual({ ok: false, reason: 'not_found' });

    const page = (await getOwnerOrder(db, storage, order.id))!;
    expect(page).toMatchObject({ refundedCents: 2500, shippingStatus: 'delivered', withdrawals: [{ id: outcome.withdrawal.id, refundedCents: 2500 }] });
    expect(page.timeline.map((e) => e.kind)).toEqual(expect.arrayContaining(['withdrawal', 'refunded']));
    expect(page.timeline.find((e) => e.kind === 'withdrawal')).toMatchObject({ detail: '2 × Gayo', dueAt: outcome.withdrawal.refundDueAt });
    const refundMail = (await mailsTo(order.email)).find((m) => m.subject === `Zwrot pieniędzy za zamówienie ${orderLabel(order.id)}`);
    expect(refundMail?.text_body).toContain('25,00');
  });

  it('withdrawing from the whole order, in parts or at once, refunds the standard delivery with its last part', async () => {
    // To Germany by the EU courier: 9.99 € for the 150 g parcel (the coffees have no weight), the only way there.
    const order = await paidOrder('en', { country: 'DE', methodId: 'method-eu-courier' });
    const page = (await getOwnerOrder(db, storage, order.id))!;
    expect(page.delivery).toMatchObject({ kind: 'courier', priceCents: 999, standardCents: 999 });
    await moveOrder({ db }, owner, order.id, { to: 'shipped', carrier: 'dhl', trackingNumber: '' });
    const first = await requestWithdrawal(db, (await findOwnOrderForWithdrawal(db, order.userId, order.id))!, { name: 'Ola', email: order.email, positions: [0], reason: '', locale: 'en' }, services);
    if (!first.ok) throw new Error(first.reason);
    expect(first.withdrawal).toMatchObject({ amountCents: 2500, deliveryCents: 0 });
    const last = await requestWithdrawal(db, (await findOwnOrderForWithdrawal(db, order.userId, order.id))!, { name: 'Ola', email: order.email, positions: [1], reason: '', locale: 'en' }, services);
    if (!last.ok) throw new Error(last.reason);
    expect(last.withdrawal).toMatchObject({ amountCents: 900 + 999, deliveryCents: 999 });
    expect((await listWithdrawals(db, order.id)).map((w) => w.amountCents)).toEqual([2500, 1899]);
    const refundServices = { db, payments: provider, publicUrl: 'https://kopi.test/' };
    expect(await refundWithdrawal(refundServices, owner, order.id, first.withdrawal.id)).toEqual({ ok: true, refundedCents: 2500 });
    expect(await refundWithdrawal(refundServices, owner, order.id, last.withdrawal.id)).toEqual({ ok: true, refundedCents: 1899 });
    expect((await getOwnerOrder(db, storage, order.id))!.refundedCents).toBe(3400 + 999);
  });

  it('is open before delivery, until 14 days after it, and closed after; a cancelled order has nothing to withdraw from', async () => {
    const order = await paidOrder();
    const fulfil = { db, publicUrl: 'https://kopi.test/' };
    expect(await moveOrder(fulfil, owner, order.id, { to: 'shipped', carrier: 'inpost', trackingNumber: '6200123456789' })).toEqual({ ok: true });
    expect((await findOwnOrderForWithdrawal(db, order.userId, order.id))!.status).toBe('open');
    expect(await moveOrder(fulfil, owner, order.id, { to: 'delivered' })).toEqual({ ok: true });
    const delivered = (await findOwnOrderForWithdrawal(db, order.userId, order.id))!;
    expect(delivered.closesAt).toBe(new Date(new Date(delivered.deliveredAt!).getTime() + 14 * DAY).toISOString());
    const lastDay = new Date(new Date(delivered.closesAt!).getTime() - 60_000);
    expect((await findOwnOrderForWithdrawal(db, order.userId, order.id, lastDay))!.status).toBe('open');
    const late = new Date(new Date(delivered.closesAt!).getTime() + 60_000);
    const closed = (await findOwnOrderForWithdrawal(db, order.userId, order.id, late))!;
    expect(closed.status).toBe('closed');
    const before = await db.selectFrom('mail_outbox').select(db.fn.countAll().as('n')).executeTakeFirstOrThrow();
    expect(await requestWithdrawal(db, closed, { name: 'Ola', email: order.email, positions: [0], reason: '', locale: 'en' }, { ...services, now: late })).toEqual({ ok: false, reason: 'closed' });
    expect(await listWithdrawals(db, order.id)).toEqual([]);
    expect(await db.selectFrom('mail_outbox').select(db.fn.countAll().as('n')).executeTakeFirstOrThrow()).toEqual(before);

    const cancelled = await paidOrder();
    // As the back office's cancel action leaves it (refunds.server.ts).
    await db.updateTable('orders').set({ shipping_status: 'cancelled', cancelled_at: new Date().toISOString() }).where('id', '=', cancelled.id).execute();
    expect((await findOwnOrderForWithdrawal(db, cancelled.userId, cancelled.id))!.status).toBe('cancelled');
  });
});

describe('the withdrawal form', () => {
  const form = (fields: Record<string, string | string[]>) => {
    const data = new FormData();
    for (const [key, value] of Object.entries(fields)) for (const v of [value].flat()) data.append(key, v);
    return data;
  };
  it('asks only for a name, the order number and email, the lines, and an optional reason', () => {
    expect(parseWithdrawalForm(form({ name: ' Ola ', orderNumber: ' #x7k2qa ', email: 'Ola@Example.test', line: ['0', '2', '0', 'x', '-1'] }), { requireLines: true })).toEqual({
      ok: true,
      data: { name: 'Ola', orderNumber: 'X7K2QA', email: 'ola@example.test', positions: [0, 2], reason: '' },
    });
    expect(parseWithdrawalForm(form({}), { requireLines: true })).toMatchObject({
      ok: false,
      errors: { name: 'withdrawal.errors.nameRequired', orderNumber: 'withdrawal.errors.orderRequired', email: 'withdrawal.errors.emailRequired', lines: 'withdrawal.errors.linesRequired' },
    });
    expect(parseWithdrawalForm(form({ name: 'Ola', orderNumber: 'X7K2QA', email: 'not-an-email' }), { requireLines: false })).toMatchObject({ ok: false, errors: { email: 'withdrawal.errors.emailInvalid' } });
    expect(parseWithdrawalForm(form({ name: 'Ola', orderNumber: "x' or 1=1", email: 'a@b.co' }), { requireLines: false })).toMatchObject({ ok: false, errors: { orderNumber: 'withdrawal.errors.orderUnknown' } });
  });
});
