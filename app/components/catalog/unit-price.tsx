import { formatUnitPrice, formatWeight } from '~/modules/catalog/unit-price';
import { useI18n } from '~/modules/i18n/react';
import type { Currency } from '~/modules/pricing/currencies';

/**
 * The price per kilogram that stands beside a price ("€87.60 / kg"), with the net weight first when
 * `withWeight` ("250 g · €87.60 / kg"). Nothing when the product has no weight yet.
 */
export function UnitPrice({
  priceCents,
  netWeightGrams,
  withWeight = false,
  className = 'text-xs text-muted',
  currency,
}: {
  priceCents: number;
  /** The amount's currency (the product's, the cart's, the order's). */
  currency: Currency;
  netWeightGrams: number | null | undefined;
  withWeight?: boolean;
  className?: string;
}) {
  const { t, locale } = useI18n();
  const unit = formatUnitPrice(priceCents, netWeightGrams, currency, locale);
  if (!unit || !netWeightGrams) return null;
  return (
    <span className={`tabular-nums ${className}`} data-testid="unit-price">
      {withWeight && <>{formatWeight(netWeightGrams, locale)} · </>}
      <span className="sr-only">{t('product.unitPrice')}: </span>
      {unit}
    </span>
  );
}
