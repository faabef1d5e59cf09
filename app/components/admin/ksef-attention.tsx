import { TriangleAlert } from 'lucide-react';
import { Link } from 'react-router';
import { formatDateTime } from '~/lib/format';
import { useI18n } from '~/modules/i18n/react';

/**
 * The dashboard's KSeF alarms, said plainly: the shop should send but has no token or KSeF refused it, invoices
 * KSeF refused (not issued until corrected), invoices whose offline deadline is under a day away. Nothing when all
 * is well.
 */
export function KsefAttention({ ksef }: { ksef: { sends: boolean; hasToken: boolean; problem: string | null; refused: number; dueSoon: number; earliestDeadline: string | null } }) {
  const { t, locale } = useI18n();
  const lines = [
    ksef.sends && !ksef.hasToken ? t('admin.ksef.dashboard.noToken') : null,
    ksef.sends && ksef.problem ? t('admin.ksef.dashboard.tokenRefused', { words: ksef.problem }) : null,
    ksef.refused > 0 ? t('admin.ksef.dashboard.refused', { count: ksef.refused }) : null,
    ksef.dueSoon > 0 && ksef.earliestDeadline ? t('admin.ksef.dashboard.dueSoon', { count: ksef.dueSoon, when: formatDateTime(ksef.earliestDeadline, locale) }) : null,
  ].filter((line): line is string => line !== null);
  if (lines.length === 0) return null;
  return (
    <div role="alert" className="flex items-start gap-3 rounded-2xl bg-cherry-light px-5 py-4 text-sm text-cherry ring-1 ring-cherry/20" data-testid="ksef-attention">
      <TriangleAlert aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
      <div className="grid gap-1">
        {lines.map((line) => (
          <p key={line}>{line}</p>
        ))}
        <Link to="/admin/invoices" className="font-semibold underline underline-offset-4">{t('admin.ksef.dashboard.open')}</Link>
      </div>
    </div>
  );
}
