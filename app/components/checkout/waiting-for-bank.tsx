import { Loader2, Smartphone } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, useRevalidator } from 'react-router';
import { formatPrice } from '~/lib/format';
import { useI18n } from '~/modules/i18n/react';
import type { Currency } from '~/modules/pricing/currencies';

/** How often the page asks the server whether the bank has answered: often at first (BLIK answers in seconds), then calmly. */
const POLL_MS = 1_500;
const CALM_POLL_MS = 5_000;
const CALM_AFTER_MS = 60_000;

/**
 * "Waiting for your bank": shown while a BLIK code waits to be confirmed in the banking app, or a Przelewy24
 * payment waits for the bank's answer. The page asks the server again and again (with JavaScript every 1.5 s,
 * without it by refreshing itself every 3 s); the server follows the payment and sends the shopper to the success
 * page once it is paid, or back to the payment step with the reason once it failed.
 */
export function WaitingForBank({ orderId, amountCents, currency, method }: { orderId: string; amountCents: number; currency: Currency; method: 'blik' | 'przelewy24' }) {
  const { t, locale, path } = useI18n();
  const revalidator = useRevalidator();
  const latest = useRef(revalidator);
  latest.current = revalidator;
  useEffect(() => {
    const started = Date.now();
    let timer: ReturnType<typeof setTimeout>;
    const ask = () => {
      if (latest.current.state === 'idle') void latest.current.revalidate();
      timer = setTimeout(ask, Date.now() - started < CALM_AFTER_MS ? POLL_MS : CALM_POLL_MS);
    };
    timer = setTimeout(ask, POLL_MS);
    return () => clearTimeout(timer);
  }, []);
  const amount = formatPrice(amountCents, currency, locale);
  return (
    <div className="container-page py-14 md:py-20">
      <noscript>
        <meta httpEquiv="refresh" content="3" />
      </noscript>
      <section className="mx-auto max-w-xl rounded-3xl bg-paper p-8 text-center ring-1 ring-sand" aria-labelledby="waiting-heading" data-testid="waiting-for-bank">
        <div className="mx-auto flex h-16 w-16 items-center justify-center rounded-full bg-sand/70 text-roast">
          <Smartphone aria-hidden="true" className="h-7 w-7" />
        </div>
        <h1 id="waiting-heading" className="mt-5 text-3xl font-semibold md:text-4xl">{t('checkout.waiting.heading')}</h1>
        <p role="status" className="mt-3 text-muted">
          {t(method === 'blik' ? 'checkout.waiting.blik' : 'checkout.waiting.bank', { amount })}
        </p>
        <p className="mt-6 inline-flex items-center gap-2 text-sm font-medium text-leaf-dark">
          <Loader2 aria-hidden="true" className="h-4 w-4 motion-safe:animate-spin" />
          {t('checkout.waiting.checking')}
        </p>
        <p className="mt-6 text-xs text-muted">{t('checkout.waiting.leave')}</p>
        {/* Another way to pay: a new attempt replaces this one, whose answer then no longer counts. */}
        <Link to={path(`/checkout?step=payment&order=${encodeURIComponent(orderId)}`)} className="btn-ghost mt-4 px-3 text-sm">
          {t('checkout.waiting.another')}
        </Link>
      </section>
    </div>
  );
}
