import { formatDateTime, formatNumber, formatPrice } from '~/lib/format';
import { useI18n } from '~/modules/i18n/react';
import type { Currency } from '~/modules/pricing/currencies';
import type { CodeOffer, Reduction } from '~/modules/promotions/reductions';

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

/** A code the owner advertises for this variant (an announced reduction): its price with the code, and the 30 days' lowest price. */
export function CodeOfferNote({ offer, currency }: { offer: CodeOffer | undefined; currency: Currency }) {
  const { t, locale } = useI18n();
  if (!offer) return null;
  return (
    <div className="mt-3 rounded-2xl bg-leaf-light px-4 py-3 text-sm text-roast-800 ring-1 ring-leaf/20" data-testid="code-offer">
      <p className="flex flex-wrap items-center gap-2 font-semibold text-leaf-dark">
        {t('product.codeOffer', { code: offer.code, price: formatPrice(offer.priceCents, currency, locale) })}
        {offer.percentOff !== null && <span className="tabular-nums">({t('product.percentOff', { percent: formatNumber(offer.percentOff, locale, { maximumFractionDigits: 1 }) })})</span>}
      </p>
      {offer.minimumCents !== null && <p className="mt-0.5">{t('product.codeMinimum', { amount: formatPrice(offer.minimumCents, currency, locale) })}</p>}
      <p className="mt-0.5">{t('product.lowestPrice', { price: formatPrice(offer.lowestCents, currency, locale) })}</p>
    </div>
  );
}
