import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '~/db/database.server';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { getOrderForUser } from '~/modules/orders/index.server';
import { cancelOrder, getOwnerOrder } from '~/modules/fulfilment/index.server';
import { getT } from '~/modules/i18n/index.server';
import { TEST_BLIK, answerTestBank, createTestPaymentProvider, testBankPayment, type PaymentProvider } from '~/modules/payments/index.server';
import { methodsFor, isBlikCode, methodOfPreference } from '~/modules/payments/methods';
import { type PaymentServices, confirmOrderPayment, settleDuePayments, startAsyncPayment, startPayment } from './index.server';
import { sweepPayments } from './sweep.server';
import { address, courier, createCoffee, createUser, fillCart, mails, storage } from '../../../tests/fixtures/shop';

const mail = { contactTo: 'shop@kopi.test', publicUrl: 'https://kopi.test' };

describe('payment methods by currency', () => {
  it('offers BLIK only in złoty, Przelewy24 and cards in both; reads six-digit codes and the profile’s preference', () => {
    expect(methodsFor('PLN')).toEqual(['card', 'blik', 'przelewy24']);
    expect(methodsFor('EUR')).toEqual(['card', 'przelewy24']);
    expect(['777123', '000000'].every(isBlikCode)).toBe(true);
    expect(['77712', '7771234', '77712a', ' 777123', ''].some(isBlikCode)).toBe(false);
    expect([methodOfPreference('creditCard'), methodOfPreference('blik'), methodOfPreference('przelewy24'), methodOfPreference('paypal')]).toEqual(['card', 'blik', 'przelewy24', 'card']);
  });
});

describe.each(testDatabases())('BLIK and Przelewy24 with the test provider on %s', (_kind, open) => {
  let handle: TestDatabase;
  let db: DB;
  let provider: PaymentProvider;
  let services: PaymentServices;
  let coffee: string;
  beforeAll(async () => {
    handle = await open();
    db = handle.db;
    provider = createTestPaymentProvider(db);
    services = { db, payments: provider, ...mail, kickMail: () => {} };
    coffee = await createCoffee(db, 'Kerinci', 1250);
  });
  afterAll(() => handle.close());

  /** A customer's pending order in `currency`, its payment created. */
  async function pendingOrder(currency: 'EUR' | 'PLN' = 'PLN') {
    const user = await createUser(db);
    const cartId = await fillCart(db, user.id, [[coffee, 1]]);
    const started = await startPayment(db, provider, { userId: user.id, email: user.email, locale: 'pl', currency, cartId, address, delivery: courier });
    if (!started.ok) throw new Error(`not started: ${started.reason}`);
    return { userId: user.id, email: user.email, cartId, orderId: started.orderId, paymentId: started.paymentId };
  }
  /** The simulated bank's clock: its answer is due now. */
  const bankAnswersNow = (paymentId: string) => db.updateTable('test_payments').set({ action_until: new Date(Date.now() - 1000).toISOString() }).where('id', '=', paymentId).execute();
  const statusOf = async (o: { userId: string; orderId: string }) => (await getOrderForUser(db, storage, o.userId, o.orderId))!.paymentStatus;

  it('BLIK 777123: waits for the banking app, then the order is paid once, with one confirmation in złoty', async () => {
    const o = await pendingOrder();
    expect(await startAsyncPayment(services, { ...o, method: 'blik', code: TEST_BLIK.success })).toEqual({ ok: true, orderId: o.orderId });
    // Not yet: the customer has not confirmed in the app.
    expect(await confirmOrderPayment(services, o)).toEqual({ status: 'pending', orderId: o.orderId, awaitingBank: true });
    expect(await statusOf(o)).toBe('pending');
    await bankAnswersNow(o.paymentId);
    expect(await confirmOrderPayment(services, o)).toEqual({ status: 'paid', orderId: o.orderId });
    expect(await confirmOrderPayment(services, o)).toEqual({ status: 'paid', orderId: o.orderId });
    expect(await statusOf(o)).toBe('succeeded');
    const sent = (await mails(db)).filter((m) => m.to_address === o.email);
    expect(sent).toHaveLength(1);
    expect(sent[0].text_body).toContain('zł');
    // A second code for a paid order changes nothing.
    expect(await startAsyncPayment(services, { ...o, method: 'blik', code: TEST_BLIK.success })).toEqual({ ok: false, code: 'already_paid' });
  });

  it('records how an order was paid, so cancelling it names where the money goes back: BLIK’s bank account, not a card', async () => {
    const o = await pendingOrder();
    await startAsyncPayment(services, { ...o, method: 'blik', code: TEST_BLIK.success });
    await bankAnswersNow(o.paymentId);
    expect(await confirmOrderPayment(services, o)).toEqual({ status: 'paid', orderId: o.orderId });
    const owner = { id: null, email: 'owner@kopi.test' };
    expect((await getOwnerOrder(db, storage, o.orderId))?.paidWith).toBe('blik');
    expect(await cancelOrder({ db, payments: provider }, owner, o.orderId, { backToStock: true })).toMatchObject({ ok: true });
    const cancelled = (await mails(db)).filter((m) => m.to_address === o.email).at(-1)!;
    const pl = getT('pl');
    const where = (key: string) => pl(key, { amount: 'X' }).split('X ')[1]!.split('.')[0]!;
    expect(cancelled.text_body).toContain(where('orders.cancelMail.refundBlik'));
    expect(cancelled.text_body).not.toContain(where('orders.cancelMail.refund'));
    // Przelewy24 likewise; a card says the card.
    const bank = await pendingOrder('EUR');
    await startAsyncPayment(services, { ...bank, method: 'przelewy24' });
    expect(await answerTestBank(db, bank.paymentId, true)).toBe(true);
    expect(await confirmOrderPayment(services, bank)).toEqual({ status: 'paid', orderId: bank.orderId });
    expect((await getOwnerOrder(db, storage, bank.orderId))?.paidWith).toBe('przelewy24');
  });

  it('BLIK 111222 is declined and 000000 expires: the order stays pending, says why, and can be paid again', async () => {
    const o = await pendingOrder();
    await startAsyncPayment(services, { ...o, method: 'blik', code: TEST_BLIK.declined });
    await bankAnswersNow(o.paymentId);
    expect(await confirmOrderPayment(services, o)).toEqual({ status: 'failed', orderId: o.orderId, failure: 'declined' });
    await startAsyncPayment(services, { ...o, method: 'blik', code: TEST_BLIK.expires });
    await bankAnswersNow(o.paymentId);
    expect(await confirmOrderPayment(services, o)).toEqual({ status: 'failed', orderId: o.orderId, failure: 'expired' });
    expect(await statusOf(o)).toBe('pending');
    await startAsyncPayment(services, { ...o, method: 'blik', code: TEST_BLIK.success });
    await bankAnswersNow(o.paymentId);
    expect(await confirmOrderPayment(services, o)).toMatchObject({ status: 'paid' });
  });

  it('refuses a code the bank did not issue, BLIK in euros, and someone else’s order, changing nothing', async () => {
    const o = await pendingOrder();
    expect(await startAsyncPayment(services, { ...o, method: 'blik', code: '123456' })).toEqual({ ok: false, code: 'blik_invalid' });
    const euros = await pendingOrder('EUR');
    expect(await startAsyncPayment(services, { ...euros, method: 'blik', code: TEST_BLIK.success })).toEqual({ ok: false, code: 'method_not_allowed' });
    const stranger = await createUser(db);
    expect(await startAsyncPayment(services, { userId: stranger.id, orderId: o.orderId, method: 'blik', code: TEST_BLIK.success })).toEqual({ ok: false, code: 'not_found' });
    const payment = await db.selectFrom('test_payments').select(['status', 'method']).where('id', '=', o.paymentId).executeTakeFirstOrThrow();
    expect(payment).toEqual({ status: 'requires_payment_method', method: null });
  });

  it('Przelewy24: the bank page approves (paid) or declines (pending, declined); an unanswered page expires', async () => {
    const approved = await pendingOrder('EUR');
    const started = await startAsyncPayment(services, { ...approved, method: 'przelewy24' });
    expect(started).toEqual({ ok: true, orderId: approved.orderId, redirectUrl: `/test-bank/${approved.paymentId}` });
    expect(await testBankPayment(db, approved.paymentId)).toMatchObject({ orderId: approved.orderId, currency: 'EUR' });
    expect(await confirmOrderPayment(services, approved)).toMatchObject({ status: 'pending', awaitingBank: true });
    expect(await answerTestBank(db, approved.paymentId, true)).toBe(true);
    // The page answers once.
    expect(await answerTestBank(db, approved.paymentId, false)).toBe(false);
    expect(await confirmOrderPayment(services, approved)).toMatchObject({ status: 'paid' });

    const declined = await pendingOrder();
    await startAsyncPayment(services, { ...declined, method: 'przelewy24' });
    await answerTestBank(db, declined.paymentId, false);
    expect(await confirmOrderPayment(services, declined)).toMatchObject({ status: 'failed', failure: 'declined' });

    const unanswered = await pendingOrder();
    await startAsyncPayment(services, { ...unanswered, method: 'przelewy24' });
    await bankAnswersNow(unanswered.paymentId);
    expect(await confirmOrderPayment(services, unanswered)).toMatchObject({ status: 'failed', failure: 'expired' });
    expect(await testBankPayment(db, unanswered.paymentId)).toBeNull();
  });

  it('a new attempt replaces one under way: the bank page of the first no longer answers, the new one pays', async () => {
    const o = await pendingOrder();
    await startAsyncPayment(services, { ...o, method: 'przelewy24' });
    expect(await startAsyncPayment(services, { ...o, method: 'blik', code: TEST_BLIK.success })).toEqual({ ok: true, orderId: o.orderId });
    expect(await testBankPayment(db, o.paymentId)).toBeNull();
    expect(await answerTestBank(db, o.paymentId, false)).toBe(false);
    await bankAnswersNow(o.paymentId);
    expect(await confirmOrderPayment(services, o)).toMatchObject({ status: 'paid' });
  });

  it('a customer who closed the tab is not lost: the sweep settles the payment the bank confirmed, once', async () => {
    const o = await pendingOrder();
    await startAsyncPayment(services, { ...o, method: 'blik', code: TEST_BLIK.success });
    await bankAnswersNow(o.paymentId);
    // Two nodes' sweeps at once: both find it due, one pays it.
    const [first, second] = await Promise.all([settleDuePayments(services), sweepPayments(services)]);
    expect(first + second.settled).toBeGreaterThanOrEqual(1);
    expect(await statusOf(o)).toBe('succeeded');
    expect((await mails(db)).filter((m) => m.to_address === o.email)).toHaveLength(1);
    expect(await settleDuePayments(services)).toBe(0);
  });
});
