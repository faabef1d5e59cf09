import { AlertTriangle } from 'lucide-react';
import { useT } from '~/modules/i18n/react';

/** The spec's "Payment Service Unavailable" panel. */
export function PaymentUnavailable() {
  const t = useT();
  return (
    <section role="alert" className="rounded-2xl bg-cherry-light p-5 text-cherry">
      <h3 className="flex items-center gap-2 font-sans text-base font-semibold">
        <AlertTriangle aria-hidden="true" className="h-5 w-5" />
        {t('checkout.unavailable.title')}
      </h3>
      <p className="mt-2 text-sm">{t('checkout.unavailable.text')}</p>
      <p className="mt-2 text-sm">{t('checkout.errors.cannotConnect')}</p>
    </section>
  );
}
