import Stripe from 'stripe';
import type { PaymentEvent, PaymentFailure, PaymentProvider, PaymentStatus, ProviderRefund, RefundResult } from './provider.server';
import type { PaymentMethodKind } from './methods';
import { PaymentUnavailableError } from './provider.server';

export type StripeProviderOptions = {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  /** Override of https://api.stripe.com (tests point it at a local server). */
  apiUrl?: string;
  /** Spec §9: creating a payment times out after 10 s, the health check after 5 s. */
  timeoutMs?: number;
};

export type StripePaymentProvider = PaymentProvider & {
  name: 'stripe';
  publishableKey: string;
  parseWebhook(rawBody: Buffer, signature: string): PaymentEvent;
};

const HEALTH_TTL_MS = 60_000;

/** Real payments with Stripe PaymentIntents; the browser confirms them with the Payment Element. */
export function createStripePaymentProvider(options: StripeProviderOptions): StripePaymentProvider {
  const stripe = new Stripe(options.secretKey, {
    ...apiLocation(options.apiUrl),
    timeout: options.timeoutMs ?? 10_000,
    maxNetworkRetries: 2,
    telemetry: false,
  });
  let healthyUntil = 0;

  return {
    name: 'stripe',
    publishableKey: options.publishableKey,

    async createPayment({ orderId, amountCents, currency, customerEmail, idempotencyKey, metadata }) {
      if (!Number.isInteger(amountCents) || amountCents <= 0) throw new Error('amount must be a positive integer of cents');
      let intent: Stripe.PaymentIntent;
      try {
        intent = await stripe.paymentIntents.create(
          {
            amount: amountCents,
            currency: currency.toLowerCase(),
            automatic_payment_methods: { enabled: true },
            receipt_email: customerEmail,
            metadata: { ...metadata, order_id: orderId, customer_email: customerEmail },
          },
          { idempotencyKey },
        );
      } catch (error) {
        throw new PaymentUnavailableError('Stripe did not create the PaymentIntent', { cause: error });
      }
      if (!intent.client_secret) throw new PaymentUnavailableError('Stripe returned a PaymentIntent without a client secret');
      return { paymentId: intent.id, clientSecret: intent.client_secret };
    },

    async retrievePayment(paymentId) {
      let intent: Stripe.PaymentIntent;
      try {
        intent = await stripe.paymentIntents.retrieve(paymentId);
      } catch (error) {
        throw new PaymentUnavailableError('Stripe did not return the PaymentIntent', { cause: error });
      }
      const failure = failureOf(intent);
      const method = methodOf(intent);
      return { status: toStatus(intent.status), amountCents: intent.amount_received || intent.amount, currency: intent.currency, ...(failure ? { failure } : {}), ...(method ? { method } : {}) };
    },

    async refund({ paymentId, orderId, amountCents, idempotencyKey }): Promise<RefundResult> {
      if (!Number.isInteger(amountCents) || amountCents <= 0) throw new Error('refund amount must be a positive integer of cents');
      let refund: Stripe.Refund;
      try {
        refund = await stripe.refunds.create(
          { payment_intent: paymentId, amount: amountCents, reason: 'requested_by_customer', metadata: { order_id: orderId } },
          { idempotencyKey },
        );
      } catch (error) {
        // Stripe answered and said no (already refunded, more than was paid, the card refused): say why.
        if (error instanceof Stripe.errors.StripeCardError) return { ok: false, code: 'declined', message: error.message };
        if (error instanceof Stripe.errors.StripeInvalidRequestError) return { ok: false, code: 'not_refundable', message: error.message };
        throw new PaymentUnavailableError('Stripe did not create the refund', { cause: error });
      }
      if (refund.status === 'failed' || refund.status === 'canceled') {
        return { ok: false, code: 'declined', message: refund.failure_reason ?? refund.status };
      }
      return { ok: true, ...toRefund(refund) };
    },

    async cancelPayment(paymentId) {
      try {
        const intent = await stripe.paymentIntents.cancel(paymentId, { cancellation_reason: 'abandoned' }, { idempotencyKey: `kopi-replaced-${paymentId}` });
        return intent.status === 'canceled' ? 'cancelled' : 'paid';
      } catch (error) {
        // Stripe refuses to cancel a PaymentIntent that succeeded (or is being paid) or was cancelled already.
        if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw new PaymentUnavailableError('Stripe did not cancel the PaymentIntent', { cause: error });
      }
      let intent: Stripe.PaymentIntent;
      try {
        intent = await stripe.paymentIntents.retrieve(paymentId);
      } catch (error) {
        throw new PaymentUnavailableError('Stripe did not return the PaymentIntent', { cause: error });
      }
      return intent.status === 'canceled' ? 'cancelled' : 'paid';
    },

    async checkHealth() {
      if (Date.now() < healthyUntil) return true;
      try {
        // The cheapest authenticated call; a bad key or an outage fails it.
        await stripe.paymentIntents.list({ limit: 1 }, { timeout: 5_000, maxNetworkRetries: 0 });
        healthyUntil = Date.now() + HEALTH_TTL_MS;
        return true;
      } catch {
        return false;
      }
    },

    parseWebhook(rawBody, signature) {
      refuseFutureTimestamp(rawBody, signature);
      return toPaymentEvent(stripe.webhooks.constructEvent(rawBody, signature, options.webhookSecret, WEBHOOK_TOLERANCE_SECONDS));
    },
  };
}

/** How far a webhook's signed timestamp may be from the shop's clock, either way (Stripe's own default). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * Stripe's library refuses a signature older than the tolerance but accepts one from any time in the future; a
 * signed event dated ahead could be replayed until that date. Refused before the signature is even checked.
 */
function refuseFutureTimestamp(rawBody: Buffer, signature: string, now = Date.now()) {
  // Every t= of the header, so a second one cannot hide the timestamp the library will check.
  const latest = Math.max(...[...signature.matchAll(/(?:^|,)\s*t=(\d+)/g)].map((match) => Number(match[1])));
  if (latest * 1000 > now + WEBHOOK_TOLERANCE_SECONDS * 1000) {
    throw new Stripe.errors.StripeSignatureVerificationError(signature, rawBody.toString('utf8'), { message: 'Timestamp outside the tolerance zone (in the future)' });
  }
}

/** A verified Stripe event in Kopi's terms. */
export function toPaymentEvent(event: Stripe.Event): PaymentEvent {
  if (event.type === 'charge.refunded') {
    const charge = event.data.object as Stripe.Charge;
    const intent = typeof charge.payment_intent === 'string' ? charge.payment_intent : (charge.payment_intent?.id ?? null);
    if (!intent) return { id: event.id, kind: 'ignored', type: event.type };
    // Since API version 2022-11-15 a charge carries its refunds only when expanded; the total is always there.
    const refunds = charge.refunds?.data ? charge.refunds.data.map(toRefund) : null;
    return { id: event.id, kind: 'refunded', paymentId: intent, amountRefundedCents: charge.amount_refunded, refunds };
  }
  if (event.type !== 'payment_intent.succeeded' && event.type !== 'payment_intent.payment_failed') {
    return { id: event.id, kind: 'ignored', type: event.type };
  }
  const intent = event.data.object as Stripe.PaymentIntent;
  const common = { id: event.id, paymentId: intent.id, orderId: intent.metadata?.order_id ?? null, clientSecret: intent.client_secret ?? null };
  if (event.type === 'payment_intent.payment_failed') return { ...common, kind: 'payment_failed' };
  const method = methodOf(intent);
  return { ...common, kind: 'payment_succeeded', amountCents: intent.amount_received || intent.amount, currency: intent.currency ?? '', ...(method ? { method } : {}) };
}

/**
 * How a PaymentIntent was paid, when it says: its one payment method type once confirmed with one (as Stripe.js
 * confirms BLIK and Przelewy24), or its expanded payment method's type. Unknown otherwise.
 */
function methodOf(intent: Stripe.PaymentIntent): PaymentMethodKind | undefined {
  const type = typeof intent.payment_method === 'object' && intent.payment_method ? intent.payment_method.type : intent.payment_method_types?.length === 1 ? intent.payment_method_types[0] : undefined;
  return type === 'card' ? 'card' : type === 'blik' ? 'blik' : type === 'p24' ? 'przelewy24' : undefined;
}

function toRefund(refund: Stripe.Refund): ProviderRefund {
  const status = refund.status === 'succeeded' ? 'succeeded' : refund.status === 'failed' || refund.status === 'canceled' ? 'failed' : 'pending';
  return { id: refund.id, amountCents: refund.amount, status };
}

/**
 * Why the last attempt did not pay: a PaymentIntent back at `requires_payment_method` with an error (a BLIK code
 * declined in the app, a bank refusing Przelewy24) or one expired before the customer confirmed; a canceled one
 * expired. Null while it may still go through.
 */
function failureOf(intent: Stripe.PaymentIntent): PaymentFailure | null {
  if (intent.status === 'canceled') return 'expired';
  if (intent.status !== 'requires_payment_method' || !intent.last_payment_error) return null;
  return intent.last_payment_error.code === 'payment_intent_payment_attempt_expired' ? 'expired' : 'declined';
}

function toStatus(status: Stripe.PaymentIntent.Status): PaymentStatus {
  switch (status) {
    case 'succeeded':
    case 'processing':
    case 'canceled':
    case 'requires_action':
    case 'requires_payment_method':
      return status as PaymentStatus;
    case 'requires_capture':
      return 'processing';
    default:
      return 'requires_payment_method';
  }
}

function apiLocation(apiUrl: string | undefined): { host?: string; port?: number; protocol?: 'http' | 'https' } {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443, protocol };
}
