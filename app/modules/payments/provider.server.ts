import type { Executor } from '~/db/database.server';
import type { Currency } from '~/modules/pricing/currencies';
import type { PaymentMethodKind } from './methods';

export type PaymentStatus = 'succeeded' | 'processing' | 'requires_payment_method' | 'canceled' | 'requires_action';

export type CreatePaymentInput = {
  orderId: string;
  amountCents: number;
  currency: Currency;
  customerEmail: string;
  /** The same key always yields the same payment (two tabs, retries). */
  idempotencyKey: string;
  metadata: Record<string, string>;
};

/** Card details typed into the shop's own card form (the test provider only; Stripe's stay with Stripe). */
export type CardDetails = { number: string; expMonth: number; expYear: number; cvc: string };
export type CardErrorCode = 'card_declined' | 'insufficient_funds' | 'invalid_number' | 'invalid_expiry' | 'invalid_cvc' | 'already_paid';
export type CardResult = { ok: true } | { ok: false; code: CardErrorCode | 'payment_not_found' };

/** Why an asynchronous payment did not go through: the bank said no, or nobody answered in time. */
export type PaymentFailure = 'declined' | 'expired';
/** Starting a BLIK or bank payment: refused at once (a code the bank does not know), or under way. */
export type StartResult = { ok: true; redirectUrl?: string } | { ok: false; code: 'blik_invalid' | 'already_paid' | 'payment_not_found' };

export type RefundInput = {
  paymentId: string;
  orderId: string;
  amountCents: number;
  /** The same key always yields the same refund (two admins clicking at once, a retry). */
  idempotencyKey: string;
};
/** A refund the provider made: `pending` until the provider confirms it (Stripe's `charge.refunded`). */
export type ProviderRefund = { id: string; amountCents: number; status: 'pending' | 'succeeded' | 'failed' };
/** `message` is the provider's own explanation, shown to the owner as it came. */
export type RefundResult = ({ ok: true } & ProviderRefund) | { ok: false; code: 'declined' | 'not_refundable'; message: string };

/**
 * What a provider tells the shop about a payment, in Kopi's terms (the provider's own event types stay in
 * its file). `id` is the provider's event id: each is processed once.
 */
export type PaymentEvent =
  | { id: string; kind: 'refunded'; paymentId: string; amountRefundedCents: number; refunds: ProviderRefund[] | null }
  | { id: string; kind: 'payment_succeeded'; paymentId: string; amountCents: number; currency: string; orderId: string | null; clientSecret: string | null; method?: PaymentMethodKind }
  | { id: string; kind: 'payment_failed'; paymentId: string; orderId: string | null; clientSecret: string | null }
  | { id: string; kind: 'ignored'; type: string };

/**
 * A payment service. `test` (the default) simulates card payments in the database and charges nothing;
 * `stripe` creates real PaymentIntents. Amounts are integer cents computed by the server.
 */
export interface PaymentProvider {
  name: 'test' | 'stripe';
  /** What the browser needs to load the provider's payment form (Stripe only). */
  publishableKey?: string;
  createPayment(input: CreatePaymentInput): Promise<{ paymentId: string; clientSecret: string }>;
  /** The payment's own state; `failure` says why the last attempt of an asynchronous method did not pay. */
  retrievePayment(paymentId: string): Promise<{ status: PaymentStatus; amountCents: number; currency: string; failure?: PaymentFailure; method?: PaymentMethodKind }>;
  /** Whether the payment service answers (the checkout shows "Payment Service Unavailable" otherwise). */
  checkHealth(): Promise<boolean>;
  /**
   * Charges a card on the server, inside the transaction `db` that settles the order (the test provider;
   * Stripe's cards are confirmed in the browser by its Payment Element).
   */
  confirmCard?(db: Executor, input: { paymentId: string; card: CardDetails }): Promise<CardResult>;
  /**
   * The shop's own BLIK and Przelewy24 forms (the test provider; Stripe's are in its Payment Element): a BLIK
   * code the bank confirms later, or a bank page the shopper is sent to (`redirectUrl`) and comes back from.
   */
  startBlik?(db: Executor, input: { paymentId: string; code: string }): Promise<StartResult>;
  startBankPayment?(db: Executor, input: { paymentId: string }): Promise<StartResult>;
  /** Payments waiting for a bank whose answer is due (the sweep settles them if the shopper left). */
  duePayments?(now?: Date): Promise<string[]>;
  /**
   * Cancels a payment nobody should make any more (its order was replaced by a newer one): `cancelled` when it
   * can no longer be paid, `paid` when it was paid (or is being paid) first. Throws PaymentUnavailableError when
   * the provider cannot be reached.
   */
  cancelPayment(paymentId: string): Promise<'cancelled' | 'paid'>;
  /** Gives money back to the card that paid. Throws PaymentUnavailableError when the provider cannot be reached. */
  refund(input: RefundInput): Promise<RefundResult>;
  /** Verifies a webhook's signature and returns its event; throws on a forged or stale one. */
  parseWebhook?(rawBody: Buffer, signature: string): PaymentEvent;
}

/** The payment service failed or could not be reached (network, credentials, outage). */
export class PaymentUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PaymentUnavailableError';
  }
}
