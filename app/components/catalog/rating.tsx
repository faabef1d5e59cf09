import { Info } from 'lucide-react';
import { Link } from 'react-router';
import { formatNumber } from '~/lib/format';
import { useI18n, useLocalePath } from '~/modules/i18n/react';
import { legalPath } from '~/modules/legal/pages';

/**
 * Five stars filled to the average of a coffee's published reviews, the count, and a link to how reviews
 * are checked (the Omnibus rules ask for it next to every rating). Nothing at all without reviews.
 * One CSS-masked element for the stars, so a grid of cards stays light.
 */
export function Rating({ rating, reviewCount, size = 'sm', className = '' }: { rating: number; reviewCount: number; size?: 'sm' | 'md'; className?: string }) {
  const { t, locale } = useI18n();
  const path = useLocalePath();
  if (reviewCount <= 0) return null;
  const value = formatNumber(rating, locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const fill = `${Math.max(0, Math.min(100, (rating / 5) * 100))}%`;
  return (
    <p className={`flex items-center gap-1.5 ${size === 'sm' ? 'text-xs' : 'text-sm'} text-muted ${className}`} data-testid="rating">
      <span
        role="img"
        aria-label={t('product.rating', { rating: value })}
        className={`stars ${size === 'sm' ? 'h-3.5 w-[4.375rem]' : 'h-4 w-20'}`}
        style={{ '--fill': fill } as React.CSSProperties}
      />
      <span aria-hidden="true" className="font-semibold text-roast">{value}</span>
      <span>({t('product.reviews', { count: reviewCount })})</span>
      <Link
        to={path(legalPath('reviews'))}
        className="relative z-10 -my-1 inline-flex h-6 w-6 items-center justify-center rounded-full text-muted hover:text-roast focus-visible:outline-2 focus-visible:outline-leaf"
        aria-label={t('legal.pages.reviews')}
        title={t('legal.pages.reviews')}
      >
        <Info aria-hidden="true" className="h-3.5 w-3.5" />
      </Link>
    </p>
  );
}
