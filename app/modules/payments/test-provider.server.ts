import { randomBytes } from 'node:crypto';
import { type Executor, now } from '~/db/database.server';
import { passesLuhn } from './luhn';
import type { CardDetails, CardErrorCode, CardResult, PaymentFailure, PaymentProvider, PaymentStatus, RefundInput, RefundResult, StartResult } from './provider.server';

/**
 * The built-in test provider: simulated PaymentIntents stored in `test_payments`, confirmed on the server
 * by `chargeTestCard`. No money moves. Cards follow Stripe's test numbers: 4242 4242 4242 4242 succeeds,
 * 4000 0000 0000 0002 is declined, 4000 0000 0000 9995 fails for insufficient funds; any other number that
 * passes the Luhn check succeeds. Refunds are recorded in `test_refunds`; as on Stripe, a payment made with
 * 4000 0000 0000 5126 cannot be refunded.
 *
 * BLIK and Przelewy24 are simulated as their banks behave, asynchronously: a BLIK code 777123 is confirmed
 * "in the banking app" a few seconds later, 111222 is declined, 000000 is never confirmed and expires; any
 * other six digits are refused at once, as a bank refuses a code it did not issue. Przelewy24 sends the shopper
 * to the shop's stand-in bank page (/test-bank/{payment}) with Approve and Decline; a page left unanswered
 * expires. The answer is applied when the payment is next read (the waiting page, or each node's sweep).
 */
export const TEST_CARDS = {
  success: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  refundFails: '4000000000005126',
} as const;

export const TEST_REFUND_FAILS_LAST4 = TEST_CARDS.refundFails.slice(-4);

export const TEST_BLIK = { success: '777123', declined: '111222', expires: '000000' } as const;
/** How long the simulated banks take: BLIK confirmed or declined "in the app", an unconfirmed code, an unanswered bank page. */
export const TEST_BANK_TIMES = { confirmMs: 3_000, declineMs: 2_000, blikExpiresMs: 6_000, bankPageExpiresMs: 15 * 60_000 } as const;
const blikOutcomes: Record<string, { outcome: 'succeeded' | 'declined' | 'expired'; ms: number }> = {
  [TEST_BLIK.success]: { outcome: 'succeeded', ms: TEST_BANK_TIMES.confirmMs },
  [TEST_BLIK.declined]: { outcome: 'declined', ms: TEST_BANK_TIMES.declineMs },
  [TEST_BLIK.expires]: { outcome: 'expired', ms: TEST_BANK_TIMES.blikExpiresMs },
};


export function createTestPaymentProvider(db: Executor): PaymentProvider {
  return {
    name: 'test',
    async createPayment({ orderId, amountCents, currency, idempotencyKey }) {
      if (!Number.isInteger(amountCents) || amountCents <= 0) throw new Error('amount must be a positive integer of cents');
      const id = `tp_${randomBytes(12).toString('base64url')}`;
      const at = now();
      await db
        .insertInto('test_payments')
        .values({
          id,
          idempotency_key: idempotencyKey,
          order_id: orderId,
          amount_cents: amountCents,
          currency: currency.toLowerCase(),
          client_secret: `${id}_secret_${randomBytes(12).toString('base64url')}`,
          status: 'requires_payment_method',
          last_error: null,
          created_at: at,
          updated_at: at,
        })
        .onConflict((oc) => oc.column('idempotency_key').doNothing())
        .execute();
      const row = await db
        .selectFrom('test_payments')
        .select(['id', 'client_secret', 'amount_cents'])
        .where('idempotency_key', '=', idempotencyKey)
        .executeTakeFirstOrThrow();
      if (row.amount_cents !== amountCents) throw new Error('idempotency key reused with a different amount');
      return { paymentId: row.id, clientSecret: row.client_secret };
    },
    async retrievePayment(paymentId) {
      await resolveDue(db, paymentId);
      const row = await db.selectFrom('test_payments').select(['status', 'amount_cents', 'currency', 'last_error', 'method', 'card_last4']).where('id', '=', paymentId).executeTakeFirst();
      if (!row) throw new Error('no such test payment');
      const failure = row.status === 'requires_payment_method' && (row.last_error === 'declined' || row.last_error === 'expired') ? (row.last_error as PaymentFailure) : undefined;
      // A card charge records its last four digits; an asynchronous attempt, its method.
      const method = row.status === 'succeeded' ? (row.card_last4 ? 'card' : row.method === 'blik' || row.method === 'przelewy24' ? row.method : undefined) : undefined;
      return { status: row.status as PaymentStatus, amountCents: row.amount_cents, currency: row.currency, ...(failure ? { failure } : {}), ...(method ? { method } : {}) };
    },
    async checkHealth() {
      return true;
    },
    confirmCard: (trx, input) => chargeTestCard(trx, input),
    startBlik: (trx, { paymentId, code }) => {
      const answer = blikOutcomes[code];
      if (!answer) return Promise.resolve({ ok: false, code: 'blik_invalid' } as const);
      return startAction(trx, paymentId, 'blik', answer.outcome, answer.ms);
    },
    // The bank page answers; until then the attempt waits, and expires if nobody does.
    startBankPayment: async (trx, { paymentId }) => {
      const started = await startAction(trx, paymentId, 'przelewy24', null, TEST_BANK_TIMES.bankPageExpiresMs);
      return started.ok ? { ok: true, redirectUrl: `/test-bank/${encodeURIComponent(paymentId)}` } : started;
    },
    async duePayments(at = new Date()) {
      const rows = await db.selectFrom('test_payments').select('id').where('status', '=', 'requires_action').where('action_until', '<=', at.toISOString()).limit(100).execute();
      return rows.map((row) => row.id);
    },
    async cancelPayment(paymentId) {
      await resolveDue(db, paymentId);
      await db
        .updateTable('test_payments')
        .set({ status: 'canceled', updated_at: now() })
        .where('id', '=', paymentId)
        .where('status', 'in', ['requires_payment_method', 'requires_action'])
        .execute();
      const row = await db.selectFrom('test_payments').select('status').where('id', '=', paymentId).executeTakeFirst();
      return row?.status === 'succeeded' ? 'paid' : 'cancelled';
    },
    refund: (input) => refundTestPayment(db, input),
  };
}

/**
 * Gives back part or all of a succeeded test payment, at once (the test provider has nothing to confirm
 * later). The idempotency key makes a repeated request return the first refund; the refunds of a payment
 * never exceed what was paid.
 */
export async function refundTestPayment(db: Executor, { paymentId, amountCents, idempotencyKey }: RefundInput): Promise<RefundResult> {
  if (!Number.isInteger(amountCents) || amountCents <= 0) throw new Error('refund amount must be a positive integer of cents');
  const existing = await db.selectFrom('test_refunds').select(['id', 'amount_cents']).where('idempotency_key', '=', idempotencyKey).executeTakeFirst();
  if (existing) return { ok: true, id: existing.id, amountCents: existing.amount_cents, status: 'succeeded' };
  const payment = await db.selectFrom('test_payments').select(['status', 'amount_cents', 'card_last4']).where('id', '=', paymentId).executeTakeFirst();
  if (!payment || payment.status !== 'succeeded') return { ok: false, code: 'not_refundable', message: 'This payment has not succeeded, so there is nothing to refund.' };
  if (payment.card_last4 === TEST_REFUND_FAILS_LAST4) return { ok: false, code: 'declined', message: "The card's bank refused the refund." };
  // Insert first, then check the total: two requests racing with the same key get the one refund, and two
  // with different keys can never give back more than was paid (at worst both are refused).
  const id = `tr_${randomBytes(12).toString('base64url')}`;
  const inserted = await db
    .insertInto('test_refunds')
    .values({ id, idempotency_key: idempotencyKey, payment_id: paymentId, amount_cents: amountCents, created_at: now() })
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) {
    const row = await db.selectFrom('test_refunds').select(['id', 'amount_cents']).where('idempotency_key', '=', idempotencyKey).executeTakeFirstOrThrow();
    return { ok: true, id: row.id, amountCents: row.amount_cents, status: 'succeeded' };
  }
  const refunded = await db
    .selectFrom('test_refunds')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount_cents'), eb.lit(0)).as('n'))
    .where('payment_id', '=', paymentId)
    .executeTakeFirstOrThrow();
  if (Number(refunded.n) > payment.amount_cents) {
    await db.deleteFrom('test_refunds').where('id', '=', id).execute();
    return { ok: false, code: 'not_refundable', message: 'The refund is larger than what is left of the payment.' };
  }
  return { ok: true, id, amountCents, status: 'succeeded' };
}

/** Checks a card the way a card network would, without the network. */
export function validateTestCard(card: CardDetails, today = new Date()): CardErrorCode | null {
  const digits = String(card.number ?? '').replace(/[\s-]/g, '');
  if (!passesLuhn(digits)) return 'invalid_number';
  const month = Number(card.expMonth);
  let year = Number(card.expYear);
  if (!Number.isInteger(month) || !Number.isInteger(year) || month < 1 || month > 12) return 'invalid_expiry';
  if (year < 100) year += 2000;
  const thisMonth = today.getUTCFullYear() * 12 + today.getUTCMonth();
  const expiry = year * 12 + (month - 1);
  if (expiry < thisMonth || expiry > thisMonth + 20 * 12) return 'invalid_expiry';
  if (!/^\d{3,4}$/.test(String(card.cvc ?? ''))) return 'invalid_cvc';
  if (digits === TEST_CARDS.declined) return 'card_declined';
  if (digits === TEST_CARDS.insufficientFunds) return 'insufficient_funds';
  return null;
}

/**
 * Confirms a simulated payment with a card. A payment succeeds at most once: a conditional update lets one
 * of two racing confirmations through, the other gets `already_paid`. Pass a transaction to record the
 * order's payment in the same commit.
 */
export async function chargeTestCard(
  db: Executor,
  { paymentId, card, today }: { paymentId: string; card: CardDetails; today?: Date },
): Promise<CardResult> {
  const payment = await db.selectFrom('test_payments').select(['status']).where('id', '=', paymentId).executeTakeFirst();
  if (!payment) return { ok: false, code: 'payment_not_found' };
  if (payment.status === 'succeeded') return { ok: false, code: 'already_paid' };
  if (payment.status === 'canceled') return { ok: false, code: 'payment_not_found' };
  const problem = validateTestCard(card, today);
  if (problem) {
    await db
      .updateTable('test_payments')
      .set({ last_error: problem, updated_at: now() })
      .where('id', '=', paymentId)
      .where('status', '<>', 'succeeded')
      .execute();
    return { ok: false, code: problem };
  }
  const result = await db
    .updateTable('test_payments')
    .set({ status: 'succeeded', last_error: null, card_last4: String(card.number ?? '').replace(/[\s-]/g, '').slice(-4), updated_at: now() })
    .where('id', '=', paymentId)
    .where('status', 'not in', ['succeeded', 'canceled'])
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return { ok: false, code: 'already_paid' };
  return { ok: true };
}

/**
 * An asynchronous attempt begins: the payment waits for its bank (`requires_action`), which answers `outcome`
 * (null: the bank page will say) after `ms`. A new attempt replaces one still under way (as confirming a Stripe
 * PaymentIntent again does): its answer no longer counts. A paid payment is left alone.
 */
async function startAction(db: Executor, paymentId: string, method: 'blik' | 'przelewy24', outcome: string | null, ms: number): Promise<StartResult> {
  const until = new Date(Date.now() + ms).toISOString();
  const updated = await db
    .updateTable('test_payments')
    .set({ status: 'requires_action', method, outcome, action_until: until, last_error: null, updated_at: now() })
    .where('id', '=', paymentId)
    .where('status', 'in', ['requires_payment_method', 'requires_action'])
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 1) return { ok: true };
  const payment = await db.selectFrom('test_payments').select('status').where('id', '=', paymentId).executeTakeFirst();
  return { ok: false, code: payment ? 'already_paid' : 'payment_not_found' };
}

/** The stand-in bank page's answer: approved or declined now (only while the payment waits for it). */
export async function answerTestBank(db: Executor, paymentId: string, approve: boolean): Promise<boolean> {
  const updated = await db
    .updateTable('test_payments')
    .set({ outcome: approve ? 'succeeded' : 'declined', action_until: now(), updated_at: now() })
    .where('id', '=', paymentId)
    .where('status', '=', 'requires_action')
    .where('method', '=', 'przelewy24')
    .where('outcome', 'is', null)
    .where('action_until', '>', now())
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

/** What the stand-in bank page shows of a payment waiting for it; null when it is not waiting for the bank page. */
export async function testBankPayment(db: Executor, paymentId: string): Promise<{ orderId: string; amountCents: number; currency: string } | null> {
  const row = await db
    .selectFrom('test_payments')
    .select(['order_id', 'amount_cents', 'currency'])
    .where('id', '=', paymentId)
    .where('status', '=', 'requires_action')
    .where('method', '=', 'przelewy24')
    .where('outcome', 'is', null)
    .where('action_until', '>', now())
    .executeTakeFirst();
  return row ? { orderId: row.order_id, amountCents: row.amount_cents, currency: row.currency.toUpperCase() } : null;
}

/** Applies the bank's answer once it is due: paid, or back to waiting for a method with why it failed. */
async function resolveDue(db: Executor, paymentId: string, at = new Date()): Promise<void> {
  const row = await db.selectFrom('test_payments').select(['status', 'outcome', 'action_until']).where('id', '=', paymentId).executeTakeFirst();
  if (!row || row.status !== 'requires_action' || !row.action_until || row.action_until > at.toISOString()) return;
  const paid = row.outcome === 'succeeded';
  await db
    .updateTable('test_payments')
    .set(paid ? { status: 'succeeded', last_error: null, updated_at: now() } : { status: 'requires_payment_method', last_error: row.outcome === 'declined' ? 'declined' : 'expired', updated_at: now() })
    .where('id', '=', paymentId)
    .where('status', '=', 'requires_action')
    .where('action_until', '=', row.action_until)
    .execute();
}
