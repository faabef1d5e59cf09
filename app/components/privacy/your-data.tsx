import { Download, Trash2 } from 'lucide-react';
import { Form, Link } from 'react-router';
import { useLocalePath, useT } from '~/modules/i18n/react';

export type DataSummary = Record<string, number>;

/** What counts are listed, in this order (only those above zero, after the account itself). */
const KINDS = ['orders', 'invoices', 'reviews', 'withdrawals', 'messages', 'backInStock', 'cart', 'sessions', 'consents', 'analyticsEvents', 'mails'] as const;

/** The profile's "Your data" tab: what the shop keeps, the download, and the way to delete the account. */
export function YourData({ summary, limited, taxYears }: { summary: DataSummary; limited: boolean; taxYears: number }) {
  const t = useT();
  const path = useLocalePath();
  return (
    <div className="grid gap-6 lg:grid-cols-[3fr_2fr]">
      <section aria-labelledby="your-data" className="rounded-3xl bg-paper p-6 ring-1 ring-sand md:p-8">
        <h2 id="your-data" className="font-serif text-2xl font-semibold">{t('privacy.data.title')}</h2>
        <p className="mt-2 text-muted">{t('privacy.data.intro')}</p>
        <ul className="mt-4 grid gap-1.5 text-sm" data-testid="data-summary">
          <li>{t('privacy.data.account')}</li>
          {KINDS.filter((kind) => (summary[kind] ?? 0) > 0).map((kind) => (
            <li key={kind}>{t(`privacy.data.counts.${kind}`, { count: summary[kind] ?? 0 })}</li>
          ))}
        </ul>
        {limited && (
          <p role="alert" className="mt-4 rounded-2xl bg-cherry-light px-4 py-3 text-sm text-cherry">{t('privacy.data.limited')}</p>
        )}
        <Form method="post" action="/profile/data" reloadDocument className="mt-6">
          <button type="submit" className="btn-primary inline-flex items-center gap-2 px-6 py-3">
            <Download aria-hidden="true" className="h-4 w-4" />
            {t('privacy.data.download')}
          </button>
        </Form>
        <p className="mt-4 text-sm text-muted">{t('privacy.data.note', { years: taxYears })}</p>
      </section>
      <section aria-labelledby="delete-account" className="content-start rounded-3xl bg-paper p-6 ring-1 ring-sand md:p-8">
        <h2 id="delete-account" className="font-serif text-2xl font-semibold">{t('privacy.data.deleteTitle')}</h2>
        <p className="mt-2 text-muted">{t('privacy.data.deleteText')}</p>
        <Link to={path('/profile/delete')} className="btn-outline mt-6 inline-flex items-center gap-2 border-cherry/40 text-cherry hover:bg-cherry-light">
          <Trash2 aria-hidden="true" className="h-4 w-4" />
          {t('privacy.data.deleteLink')}
        </Link>
      </section>
    </div>
  );
}
