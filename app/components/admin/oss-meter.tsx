import { AlertTriangle } from 'lucide-react';
import { formatPrice } from '~/lib/format';
import { useI18n } from '~/modules/i18n/react';

/** The year's sales to consumers elsewhere in the EU (net, in euros) against the OSS threshold, warning from 80%. */
export type OssFigures = { year: number; netCents: { EUR: number; PLN: number }; totalEurCents: number; thresholdCents: number; share: number; warn: boolean; passed: boolean; passedLastYear: boolean };

export function OssMeter({ sales, registered }: { sales: OssFigures; registered: boolean }) {
  const { t, locale } = useI18n();
  const percent = Math.floor(sales.share * 1000) / 10;
  const label = t('admin.tax.crossBorder', { year: String(sales.year) });
  return (
    <div>
      <p className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
        <span>{label}</span>
        <span className="font-semibold tabular-nums" data-testid="oss-figure">
          {t('admin.tax.ofThreshold', {
            amount: formatPrice(sales.totalEurCents, 'EUR', locale),
            threshold: formatPrice(sales.thresholdCents, 'EUR', locale),
            percent: `${percent.toLocaleString(locale === 'pl' ? 'pl-PL' : 'en-GB')}%`,
          })}
        </span>
      </p>
      <div role="meter" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.min(100, percent)} aria-valuetext={`${percent}%`} className="mt-2 h-2 overflow-hidden rounded-full bg-sand">
        <div className={`h-full rounded-full ${sales.warn ? 'bg-cherry' : 'bg-leaf'}`} style={{ width: `${Math.min(100, percent)}%` }} />
      </div>
      {sales.netCents.PLN !== 0 && <p className="mt-2 text-xs text-muted">{t('admin.tax.zlotyEstimate', { amount: formatPrice(sales.netCents.PLN, 'PLN', locale) })}</p>}
      {sales.warn && !registered && (
        <p role="alert" className="mt-3 flex gap-2 rounded-2xl bg-cherry-light px-4 py-3 text-sm text-cherry" data-testid="oss-warning">
          <AlertTriangle aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
          {t(sales.passed ? 'admin.tax.passed' : sales.passedLastYear ? 'admin.tax.passedLastYear' : 'admin.tax.nearing')}
        </p>
      )}
    </div>
  );
}
