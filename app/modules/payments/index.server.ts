/** The payments module's public server API. */
import type { Config } from '~/config/env.server';
import type { Executor } from '~/db/database.server';
import type { PaymentProvider } from './provider.server';
import { createStripePaymentProvider } from './stripe-provider.server';
import { createTestPaymentProvider } from './test-provider.server';

export {
  PaymentUnavailableError,
  type CardDetails,
  type CardErrorCode,
  type CardResult,
  type CreatePaymentInput,
  type PaymentEvent,
  type PaymentFailure,
  type StartResult,
  type PaymentProvider,
  type PaymentStatus,
  type ProviderRefund,
  type RefundInput,
  type RefundResult,
} from './provider.server';
export { TEST_BANK_TIMES, TEST_BLIK, TEST_CARDS, TEST_REFUND_FAILS_LAST4, answerTestBank, createTestPaymentProvider, testBankPayment, validateTestCard } from './test-provider.server';
export { createStripePaymentProvider, type StripePaymentProvider, type StripeProviderOptions } from './stripe-provider.server';
export { passesLuhn } from './luhn';

/** The configured payment service: `test` (default, no real charge) or `stripe`. */
export function createPaymentProvider(config: Pick<Config, 'payments'>, db: Executor): PaymentProvider {
  const p = config.payments;
  if (p.provider === 'stripe') {
    if (!p.stripeSecretKey || !p.stripePublishableKey || !p.stripeWebhookSecret) {
      throw new Error('PAYMENT_PROVIDER=stripe needs STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET');
    }
    return createStripePaymentProvider({
      secretKey: p.stripeSecretKey,
      publishableKey: p.stripePublishableKey,
      webhookSecret: p.stripeWebhookSecret,
      apiUrl: p.stripeApiUrl,
    });
  }
  return createTestPaymentProvider(db);
}
