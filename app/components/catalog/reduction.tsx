import { formatDateTime, formatNumber, formatPrice } from '~/lib/format';
import { useI18n } from '~/modules/i18n/react';
import type { Currency } from '~/modules/pricing/currencies';
import type { Reduction } from '~/modules/promotions/reductions';

/**
 * What the Omnibus rule asks beside a reduced price (docs/decisions/0025): the lowest price of the 30 days before
 * the reduction, and a percentage only when it is computed from that price.
 */
export function PercentOff({ reduction, className = '' }: { reduction: Reduction | undefined; className?: string }) {
  const { t, locale } = useI18n();
  if (reduction?.percentOff == null) return null;
  return (
    <span className={`inline-flex items-center rounded-full bg-cherry px-2 py-0.5 text-xs font-bold text-white tabular-nums ${className}`} data-testid="percent-off">
      {t('product.percentOff', { percent: formatNumber(reduction.percentOff, locale, { maximumFractionDigits: 1 }) })}
    </span>
  );
}

export function LowestPrice({ reduction, currency, className = 'text-xs text-muted' }: { reduction: Reduction | undefined; currency: Currency; className?: string }) {
  const { t, locale } = useI18n();
  if (!reduction) return null;
  return (
    <span className={className} data-testid="lowest-price">
      {t('product.lowestPrice', { price: formatPrice(reduction.lowestCents, currency, locale) })}
    </span>
  );
}

/** The sale's label and when it ends: "Winter sale · until 3 December, 23:59". */
export function SaleTerms({ reduction, className = 'text-sm font-medium text-cherry' }: { reduction: Reduction | undefined; className?: string }) {
  const { t, locale } = useI18n();
  if (!reduction) return null;
  const label = locale === 'pl' ? reduction.label.pl || reduction.label.en : reduction.label.en || reduction.label.pl;
  return (
    <p className={className} data-testid="sale-terms">
      {[label, t('product.saleUntil', { date: formatDateTime(reduction.endsAt, locale) })].filter(Boolean).join(' · ')}
    </p>
  );
}
