import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { type Stripe, loadStripe } from '@stripe/stripe-js';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { revealMessage } from '~/lib/navigation-focus';
import { useI18n, useLocalePath } from '~/modules/i18n/react';
import { PaymentUnavailable } from './payment-unavailable';

let stripePromise: Promise<Stripe | null> | null = null;

/**
 * Stripe's Payment Element: the methods the Stripe account enables for the order's currency (a card always,
 * BLIK in złoty, Przelewy24). Loaded only on the payment step. Confirmation happens in the browser; a method that
 * needs a bank's answer (BLIK in the banking app, Przelewy24's bank page) continues on the shop's "waiting for
 * your bank" page, which follows the payment until it is paid or has failed.
 */
export default function StripePayment({
  publishableKey,
  clientSecret,
  orderId,
  amount,
  error,
}: {
  publishableKey: string;
  clientSecret: string;
  orderId: string;
  amount: string;
  /** Why the last attempt did not pay (a bank declined, nobody confirmed in time): shown until the next one. */
  error?: string | null;
}) {
  const { locale } = useI18n();
  const [stripe, setStripe] = useState<Stripe | null | 'loading'>('loading');
  useEffect(() => {
    stripePromise ??= loadStripe(publishableKey);
    stripePromise.then(setStripe, () => setStripe(null));
  }, [publishableKey]);
  if (stripe === 'loading') return <PaymentLoading />;
  if (!stripe) return <PaymentUnavailable />;
  return (
    <Elements stripe={stripe} options={{ clientSecret, locale, appearance: { theme: 'stripe', variables: { colorPrimary: '#2f6b4f', borderRadius: '12px' } } }}>
      <StripeForm orderId={orderId} amount={amount} initialError={error} />
    </Elements>
  );
}

function StripeForm({ orderId, amount, initialError }: { orderId: string; amount: string; initialError?: string | null }) {
  const path = useLocalePath();
  const { t } = useI18n();
  const stripe = useStripe();
  const elements = useElements();
  const navigate = useNavigate();
  const [ready, setReady] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(initialError ? t(`checkout.errors.${initialError}`) : null);
  /** The method chosen in the Payment Element ('card', 'blik', 'p24'…), for the waiting page's words. */
  const [method, setMethod] = useState('card');
  const message = useRef<HTMLParagraphElement>(null);
  const locked = useRef(false);
  useEffect(() => {
    if (error) revealMessage(message.current);
  }, [error]);

  const pay = async (event: React.FormEvent) => {
    event.preventDefault();
    if (locked.current) return;
    if (!stripe || !elements) {
      setError(t('checkout.errors.setupIncomplete'));
      return;
    }
    locked.current = true;
    setBusy(true);
    setError(null);
    try {
      const waiting = path(`/checkout?step=waiting&order=${encodeURIComponent(orderId)}&method=${method === 'blik' ? 'blik' : 'przelewy24'}`);
      const result = await stripe.confirmPayment({
        elements,
        // A bank's page (Przelewy24) sends the customer back to wait for its answer there.
        confirmParams: { return_url: new URL(waiting, window.location.origin).href },
        redirect: 'if_required',
      });
      if (result.error) {
        setError(result.error.message ?? t('checkout.errors.generic'));
      } else {
        const paid = result.paymentIntent?.status === 'succeeded';
        navigate(paid ? path(`/checkout?step=done&order=${encodeURIComponent(orderId)}`) : waiting);
        return;
      }
    } catch {
      setError(t('checkout.errors.unexpected'));
    }
    locked.current = false;
    setBusy(false);
  };

  return (
    <form onSubmit={pay} className="grid gap-4">
      {!ready && <PaymentLoading />}
      <PaymentElement onReady={() => setReady(true)} onChange={(event) => setMethod(event.value.type)} onLoadError={() => setError(t('checkout.errors.cannotConnect'))} />
      <div role="alert">{error && <p ref={message} className="scroll-mt-28 rounded-2xl bg-cherry-light px-4 py-3 text-sm text-cherry focus:outline-none">{error}</p>}</div>
      <button type="submit" className="btn-primary w-full py-3.5 text-base" disabled={!ready || busy} aria-busy={busy}>
        {busy ? t('checkout.processing') : t('checkout.pay', { amount })}
      </button>
    </form>
  );
}

function PaymentLoading() {
  const { t } = useI18n();
  return (
    <p role="status" className="flex items-center gap-3 rounded-2xl bg-sand/50 px-4 py-3 text-sm text-muted">
      <span aria-hidden="true" className="h-4 w-4 animate-spin rounded-full border-2 border-muted border-t-transparent" />
      {t('checkout.loading')}
    </p>
  );
}
