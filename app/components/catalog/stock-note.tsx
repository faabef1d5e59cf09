import { Flame } from 'lucide-react';
import { formatDate } from '~/lib/format';
import { useI18n } from '~/modules/i18n/react';
import { stockState } from '~/modules/stock/stock.types';

/**
 * What a product page says of the chosen variant's stock — "In stock", "Only 3 left", "Sold out" (nothing when
 * its stock is not tracked) — and the day the coffee that ships was roasted.
 */
export function StockNote({ left, roastedOn }: { left: number | null; roastedOn: string | null }) {
  const { t, locale } = useI18n();
  const state = left === null ? null : stockState(left);
  if (state === null && !roastedOn) return null;
  const badge = {
    inStock: { dot: 'bg-leaf', text: 'text-leaf-dark', label: t('product.stock.inStock') },
    low: { dot: 'bg-gold', text: 'text-roast', label: t('product.onlyLeft', { count: left ?? 0 }) },
    soldOut: { dot: 'bg-cherry', text: 'text-cherry', label: t('product.soldOut') },
  };
  return (
    <p className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm" data-testid="stock-note">
      {state && (
        <span className={`inline-flex items-center gap-2 font-semibold ${badge[state].text}`} data-testid="availability" data-state={state}>
          <span aria-hidden="true" className={`h-2 w-2 rounded-full ${badge[state].dot}`} />
          {badge[state].label}
        </span>
      )}
      {roastedOn && state !== 'soldOut' && (
        <span className="inline-flex items-center gap-1.5 text-roast-800" data-testid="roasted-on" title={t('product.stock.roastedOnNote')}>
          <Flame aria-hidden="true" className="h-4 w-4 text-leaf" />
          {t('product.stock.roastedOn', { date: formatDate(roastedOn, locale) })}
        </span>
      )}
    </p>
  );
}
