/**
 * The ways a shopper can pay (browser-safe): a card always; BLIK only in złoty (Stripe offers it for PLN alone);
 * Przelewy24 in złoty and in euros. BLIK and Przelewy24 are asynchronous: the bank answers later, and the order
 * is paid only when the payment is (docs/decisions/0024).
 */
import type { Currency } from '~/modules/pricing/currencies';

export const paymentMethodKinds = ['card', 'blik', 'przelewy24'] as const;
export type PaymentMethodKind = (typeof paymentMethodKinds)[number];
export const isPaymentMethodKind = (value: unknown): value is PaymentMethodKind => paymentMethodKinds.includes(value as PaymentMethodKind);

/** The methods offered for a payment in `currency`, in the order the payment step shows them. */
export const methodsFor = (currency: Currency): PaymentMethodKind[] => (currency === 'PLN' ? ['card', 'blik', 'przelewy24'] : ['card', 'przelewy24']);

/** A BLIK code: the six digits the banking app shows. */
export const isBlikCode = (value: string): boolean => /^\d{6}$/.test(value);

/** The method a profile's preference stands for (the profile keeps the specification's "creditCard"). */
export const methodOfPreference = (preference: string | null | undefined): PaymentMethodKind =>
  preference === 'blik' ? 'blik' : preference === 'przelewy24' ? 'przelewy24' : 'card';
