import { Star } from 'lucide-react';
import { formatNumber } from '~/lib/format';
import { useI18n } from '~/modules/i18n/react';

export function Rating({ rating, reviewCount, size = 'sm' }: { rating: number; reviewCount: number; size?: 'sm' | 'md' }) {
  const { t, locale } = useI18n();
  const value = formatNumber(rating, locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const icon = size === 'sm' ? 'h-3.5 w-3.5' : 'h-4 w-4';
  return (
    <p className={`flex items-center gap-1.5 ${size === 'sm' ? 'text-xs' : 'text-sm'} text-muted`}>
      <span className="flex items-center" role="img" aria-label={t('product.rating', { rating: value })}>
        {[1, 2, 3, 4, 5].map((n) => (
          <Star
            key={n}
            aria-hidden="true"
            className={`${icon} ${rating >= n - 0.25 ? 'fill-gold text-gold' : rating >= n - 0.75 ? 'fill-gold/50 text-gold' : 'text-sand-dark'}`}
          />
        ))}
      </span>
      <span aria-hidden="true" className="font-semibold text-roast">{value}</span>
      <span>({t('product.reviews', { count: reviewCount })})</span>
    </p>
  );
}
