import { formatDateTime, formatPrice } from '~/lib/format';
import { useI18n } from '~/modules/i18n/react';
import type { Currency } from '~/modules/pricing/currencies';

type Entry = { variantId: string; sku: string; currency: Currency; priceCents: number; regularCents: number; at: string; reason: string };

/** A product's price history for the owner (newest first): what the 30-day lowest price is worked out from. */
export function PriceHistory({ entries }: { entries: Entry[] }) {
  const { t, locale } = useI18n();
  return (
    <details className="mt-8 rounded-3xl bg-paper p-6 ring-1 ring-sand" data-testid="price-history">
      <summary className="cursor-pointer text-lg font-semibold focus-visible:outline-2 focus-visible:outline-leaf">
        {t('admin.promotions.history.heading')} <span className="text-muted tabular-nums">({entries.length})</span>
      </summary>
      <p className="mt-2 max-w-2xl text-sm text-muted">{t('admin.promotions.history.intro')}</p>
      {entries.length === 0 ? (
        <p className="mt-4 text-sm text-muted">{t('admin.promotions.history.none')}</p>
      ) : (
        <div className="mt-4 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">{t('admin.promotions.history.heading')}</caption>
            <thead className="text-xs tracking-wide text-muted uppercase">
              <tr>
                <th scope="col" className="py-2 pr-3">{t('admin.promotions.history.when')}</th>
                <th scope="col" className="py-2 pr-3">{t('admin.promotions.history.variant')}</th>
                <th scope="col" className="py-2 pr-3 text-right">{t('admin.promotions.history.price')}</th>
                <th scope="col" className="py-2 pr-3 text-right">{t('admin.promotions.history.regular')}</th>
                <th scope="col" className="py-2">{t('admin.promotions.history.reason')}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-sand">
              {entries.map((e, i) => (
                <tr key={`${e.variantId}-${e.currency}-${e.at}-${i}`} data-testid="history-entry">
                  <td className="py-2 pr-3 whitespace-nowrap tabular-nums">{formatDateTime(e.at, locale)}</td>
                  <td className="py-2 pr-3 text-xs">{e.sku}</td>
                  <td className={`py-2 pr-3 text-right whitespace-nowrap tabular-nums ${e.priceCents < e.regularCents ? 'font-semibold text-cherry' : ''}`}>{formatPrice(e.priceCents, e.currency, locale)}</td>
                  <td className="py-2 pr-3 text-right whitespace-nowrap text-muted tabular-nums">{formatPrice(e.regularCents, e.currency, locale)}</td>
                  <td className="py-2">{t(`admin.promotions.history.reasons.${e.reason}`)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </details>
  );
}
