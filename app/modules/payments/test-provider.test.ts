import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { TEST_CARDS, createTestPaymentProvider, passesLuhn, validateTestCard } from './index.server';
import { chargeTestCard } from './test-provider.server';

const today = new Date('2026-05-15T12:00:00Z');
const card = (number: string, extra: Partial<{ expMonth: number; expYear: number; cvc: string }> = {}) => ({
  number,
  expMonth: 12,
  expYear: 2030,
  cvc: '123',
  ...extra,
});

describe('Luhn', () => {
  it.each([
    ['4242424242424242', true],
    ['4000000000000002', true],
    ['4000000000009995', true],
    ['5555555555554444', true],
    ['4242424242424241', false],
    ['1234567812345678', false],
    ['42424242', false],
    ['4242a24242424242', false],
  ])('%s → %s', (number, ok) => expect(passesLuhn(number)).toBe(ok));
});

describe('test card rules', () => {
  it('succeeds for 4242 and other valid numbers, declines 0002, lacks funds on 9995', () => {
    expect(validateTestCard(card('4242 4242 4242 4242'), today)).toBeNull();
    expect(validateTestCard(card('5555-5555-5555-4444'), today)).toBeNull();
    expect(validateTestCard(card(TEST_CARDS.declined), today)).toBe('card_declined');
    expect(validateTestCard(card(TEST_CARDS.insufficientFunds), today)).toBe('insufficient_funds');
  });
  it('rejects bad numbers, expiry and CVC', () => {
    expect(validateTestCard(card('4242424242424241'), today)).toBe('invalid_number');
    expect(validateTestCard(card(''), today)).toBe('invalid_number');
    expect(validateTestCard(card(TEST_CARDS.success, { expMonth: 13 }), today)).toBe('invalid_expiry');
    expect(validateTestCard(card(TEST_CARDS.success, { expMonth: 4, expYear: 2026 }), today)).toBe('invalid_expiry');
    expect(validateTestCard(card(TEST_CARDS.success, { expMonth: 5, expYear: 26 }), today)).toBeNull();
    expect(validateTestCard(card(TEST_CARDS.success, { expMonth: Number.NaN }), today)).toBe('invalid_expiry');
    expect(validateTestCard(card(TEST_CARDS.success, { cvc: '12' }), today)).toBe('invalid_cvc');
    expect(validateTestCard(card(TEST_CARDS.success, { cvc: '12345' }), today)).toBe('invalid_cvc');
    expect(validateTestCard(card(TEST_CARDS.success, { cvc: '1234' }), today)).toBeNull();
  });
});

describe.each(testDatabases())('test provider on %s', (_kind, open) => {
  let handle: TestDatabase;
  beforeAll(async () => {
    handle = await open();
  });
  afterAll(() => handle.close());

  const newPayment = async (key: string, amountCents = 2500) => {
    const provider = createTestPaymentProvider(handle.db);
    return provider.createPayment({ orderId: `order-${key}`, amountCents, currency: 'EUR', customerEmail: 'a@example.com', idempotencyKey: key, metadata: {} });
  };

  it('creates one payment per idempotency key', async () => {
    const [a, b] = await Promise.all([newPayment('k1'), newPayment('k1')]);
    expect(a).toEqual(b);
    expect(a.paymentId).toMatch(/^tp_/);
    expect(a.clientSecret).toContain(`${a.paymentId}_secret_`);
    expect((await newPayment('k2')).paymentId).not.toBe(a.paymentId);
    await expect(newPayment('k1', 999)).rejects.toThrow(/different amount/);
    expect(await createTestPaymentProvider(handle.db).checkHealth()).toBe(true);
  });

  it('charges a card once; declines leave the payment open for another try', async () => {
    const provider = createTestPaymentProvider(handle.db);
    const { paymentId } = await newPayment('k3');
    expect(await chargeTestCard(handle.db, { paymentId, card: card(TEST_CARDS.declined) })).toEqual({ ok: false, code: 'card_declined' });
    expect(await chargeTestCard(handle.db, { paymentId, card: card(TEST_CARDS.insufficientFunds) })).toEqual({ ok: false, code: 'insufficient_funds' });
    expect(await chargeTestCard(handle.db, { paymentId, card: card('4242424242424241') })).toEqual({ ok: false, code: 'invalid_number' });
    expect(await provider.retrievePayment(paymentId)).toEqual({ status: 'requires_payment_method', amountCents: 2500, currency: 'eur' });
    const both = await Promise.all([
      chargeTestCard(handle.db, { paymentId, card: card(TEST_CARDS.success) }),
      chargeTestCard(handle.db, { paymentId, card: card(TEST_CARDS.success) }),
    ]);
    expect(both.filter((r) => r.ok)).toHaveLength(1);
    expect(both.find((r) => !r.ok)).toEqual({ ok: false, code: 'already_paid' });
    expect(await provider.retrievePayment(paymentId)).toEqual({ status: 'succeeded', amountCents: 2500, currency: 'eur', method: 'card' });
    expect(await chargeTestCard(handle.db, { paymentId: 'tp_nope', card: card(TEST_CARDS.success) })).toEqual({ ok: false, code: 'payment_not_found' });
  });

  it('refunds once per idempotency key, even racing, and never more than was paid', async () => {
    const provider = createTestPaymentProvider(handle.db);
    const { paymentId } = await newPayment('k4', 2000);
    expect(await chargeTestCard(handle.db, { paymentId, card: card(TEST_CARDS.success) })).toEqual({ ok: true });
    for (let round = 0; round < 5; round++) {
      const key = `r-${round}`;
      const same = await Promise.all(Array.from({ length: 4 }, () => provider.refund({ orderId: 'order-k4', paymentId, amountCents: 300, idempotencyKey: key })));
      expect(same.every((r) => r.ok)).toBe(true);
      expect(new Set(same.map((r) => (r.ok ? r.id : '')))).toHaveLength(1);
    }
    // 1,500 of 2,000 given back; three different 300s racing for the last 500: at most one gets through.
    const racing = await Promise.all(['x', 'y', 'z'].map((k) => provider.refund({ orderId: 'order-k4', paymentId, amountCents: 300, idempotencyKey: k })));
    expect(racing.filter((r) => r.ok).length).toBeLessThanOrEqual(1);
    for (const r of racing.filter((r) => !r.ok)) expect(r).toMatchObject({ ok: false, code: 'not_refundable' });
    const total = await handle.db
      .selectFrom('test_refunds')
      .select((eb) => eb.fn.sum<number>('amount_cents').as('n'))
      .where('payment_id', '=', paymentId)
      .executeTakeFirstOrThrow();
    expect(Number(total.n)).toBeLessThanOrEqual(2000);
  });
});
