import { formatNumber } from '~/lib/format';
import { useI18n } from '~/modules/i18n/react';

/** Five stars filled to the rating (one CSS-masked element, so a grid of cards stays light). */
export function Rating({ rating, reviewCount, size = 'sm' }: { rating: number; reviewCount: number; size?: 'sm' | 'md' }) {
  const { t, locale } = useI18n();
  const value = formatNumber(rating, locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const fill = `${Math.max(0, Math.min(100, (rating / 5) * 100))}%`;
  return (
    <p className={`flex items-center gap-1.5 ${size === 'sm' ? 'text-xs' : 'text-sm'} text-muted`}>
      <span
        role="img"
        aria-label={t('product.rating', { rating: value })}
        className={`stars ${size === 'sm' ? 'h-3.5 w-[4.375rem]' : 'h-4 w-20'}`}
        style={{ '--fill': fill } as React.CSSProperties}
      />
      <span aria-hidden="true" className="font-semibold text-roast">{value}</span>
      <span>({t('product.reviews', { count: reviewCount })})</span>
    </p>
  );
}
