import type Stripe from 'stripe';

export type PaymentStatus = 'succeeded' | 'processing' | 'requires_payment_method' | 'canceled' | 'requires_action';

export type CreatePaymentInput = {
  orderId: string;
  amountCents: number;
  currency: 'EUR';
  customerEmail: string;
  /** The same key always yields the same payment (two tabs, retries). */
  idempotencyKey: string;
  metadata: Record<string, string>;
};

/**
 * A payment service. `test` (the default) simulates card payments in the database and charges nothing;
 * `stripe` creates real PaymentIntents. Amounts are integer cents computed by the server.
 */
export interface PaymentProvider {
  name: 'test' | 'stripe';
  /** What the browser needs to load the provider's payment form (Stripe only). */
  publishableKey?: string;
  createPayment(input: CreatePaymentInput): Promise<{ paymentId: string; clientSecret: string }>;
  retrievePayment(paymentId: string): Promise<{ status: PaymentStatus; amountCents: number }>;
  /** Whether the payment service answers (the checkout shows "Payment Service Unavailable" otherwise). */
  checkHealth(): Promise<boolean>;
  /** Stripe only: verifies a webhook's signature and returns its event; throws on a forged or stale one. */
  parseWebhook?(rawBody: Buffer, signature: string): Stripe.Event;
}

/** The payment service failed or could not be reached (network, credentials, outage). */
export class PaymentUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PaymentUnavailableError';
  }
}
