import { AlertTriangle, CheckCircle2, Download, FileText, Send } from 'lucide-react';
import { Form, Link, data, useNavigation } from 'react-router';
import { KsefStanding } from '~/components/admin/ksef-standing';
import { SellerProblem } from '~/components/admin/seller-problem';
import { BuyerFields } from '~/components/invoices/buyer-fields';
import { appContext } from '~/context';
import { field, readForm } from '~/http/body.server';
import { requireAdmin, shopperContext } from '~/http/shopper.server';
import { SHOP_TIME_ZONE, formatDate, formatDateTime, formatPrice } from '~/lib/format';
import { isShopDay, shopDayOf } from '~/lib/shop-days';
import { getT } from '~/modules/i18n/index.server';
import { useI18n } from '~/modules/i18n/react';
import { type BuyerErrors, type InvoiceBuyer, parseBuyer, sellerProblem } from '~/modules/invoices/index.server';
import { KSEF_FILTERS, type KsefFilter } from '~/modules/invoices/ksef-filters';
import { invoiceRegister, resendRefusedInvoice } from '~/modules/invoices/register.server';
import { certificateValidAt } from '~/modules/ksef/index.server';
import { isCurrency } from '~/modules/pricing/currencies';
import type { Route } from './+types/invoices';

/**
 * The owner's invoices (docs/decisions/0034): every invoice and correction of a month with its buyer, amount and
 * KSeF standing, filtered by that standing; the XML, the UPO and the PDF of each; a refused invoice's buyer
 * corrected and sent again under the same number; and, above all, whether the shop can send to KSeF at all.
 */
export async function loader({ url, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  requireAdmin(shopper);
  const thisMonth = shopDayOf(new Date(), SHOP_TIME_ZONE).slice(0, 7);
  const asked = url.searchParams.get('month') ?? '';
  const month = /^\d{4}-\d{2}$/.test(asked) && isShopDay(`${asked}-01`) ? asked : thisMonth;
  const status = url.searchParams.get('status') ?? '';
  const filter = (KSEF_FILTERS as readonly string[]).includes(status) ? (status as KsefFilter) : undefined;
  const [entries, state] = await Promise.all([invoiceRegister(app.db, { month, filter }), app.ksef.context?.state() ?? null]);
  const { sender, environment, token, offlineCertificate: certificate } = app.config.ksef;
  return {
    title: getT(shopper.locale)('admin.meta.invoicesTitle'),
    month,
    filter: filter ?? '',
    entries,
    ksef: { sender, environment, hasToken: Boolean(token), problem: state?.problem ?? null, problemAt: state?.problemAt ?? null, pausedUntil: state?.pausedUntil?.toISOString() ?? null, authenticated: state?.authenticated ?? false,
      offlineCertificate: certificate ? { serialNumber: certificate.serialNumber, validFrom: certificate.validFrom.toISOString(), validTo: certificate.validTo.toISOString(), valid: certificateValidAt(certificate, new Date()) } : null,
    },
    sellerProblem: sellerProblem(app.config.seller),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${loaderData?.title} · Kopi` }, { name: 'robots', content: 'noindex' }];

type Result = { ok: true; number: string } | { ok: false; error: 'invalid' | 'not_found' | 'not_refused' | 'no_xml'; invoiceId?: string; values?: InvoiceBuyer; errors?: BuyerErrors };

export async function action({ request, context }: Route.ActionArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  const user = requireAdmin(shopper);
  const form = await readForm(request);
  const invoiceId = field(form, 'invoiceId');
  if (field(form, 'intent') !== 'resend' || !/^[A-Za-z0-9_-]{1,64}$/.test(invoiceId)) return data<Result>({ ok: false, error: 'not_found' }, { status: 400 });
  const parsed = parseBuyer((name) => field(form, name));
  if (!parsed.ok) return data<Result>({ ok: false, error: 'invalid', invoiceId, values: parsed.values, errors: parsed.errors }, { status: 400 });
  const outcome = await resendRefusedInvoice(app.db, user, { invoiceId, buyer: parsed.buyer });
  if (!outcome.ok) return data<Result>({ ok: false, error: outcome.reason, invoiceId }, { status: outcome.reason === 'not_found' ? 404 : 409 });
  app.ksef.kick();
  return data<Result>({ ok: true, number: outcome.number });
}

export default function AdminInvoicesPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t, locale } = useI18n();
  const { month, filter, entries } = loaderData;
  const result = actionData as Result | undefined;
  const busy = useNavigation().state === 'submitting';
  return (
    <div>
      <h1 className="text-3xl font-semibold md:text-4xl">{t('admin.invoicesPage.heading')}</h1>
      <p className="mt-2 max-w-3xl text-muted">{t('admin.invoicesPage.intro')}</p>
      <SellerProblem problem={loaderData.sellerProblem} />
      <KsefConnection ksef={loaderData.ksef} waiting={entries.filter((e) => e.standing === 'queued' || e.standing === 'waiting').length} />

      <div role="status" aria-live="polite">
        {result?.ok && <p className="mt-6 rounded-2xl bg-leaf-light px-4 py-3 text-leaf-dark" data-testid="invoices-message">{t('admin.invoicesPage.resent', { number: result.number })}</p>}
        {result && !result.ok && result.error !== 'invalid' && <p className="mt-6 rounded-2xl bg-cherry-light px-4 py-3 text-cherry" data-testid="invoices-error">{t(`admin.invoicesPage.errors.${result.error}`)}</p>}
      </div>

      <Form method="get" className="mt-6 flex flex-wrap items-end gap-3" aria-label={t('admin.invoicesPage.filters')}>
        <div>
          <label htmlFor="invoices-month" className="field-label">{t('admin.tax.month')}</label>
          <input id="invoices-month" type="month" name="month" defaultValue={month} className="field-input" />
        </div>
        <div>
          <label htmlFor="invoices-status" className="field-label">{t('admin.invoicesPage.statusFilter')}</label>
          <select id="invoices-status" name="status" defaultValue={filter} className="field-input">
            <option value="">{t('admin.invoicesPage.all')}</option>
            {KSEF_FILTERS.map((f) => (
              <option key={f} value={f}>{t(`admin.invoicesPage.filter.${f}`)}</option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn-outline">{t('admin.invoicesPage.show')}</button>
        <a href={`/admin/tax/ksef?month=${month}`} download className="btn-ghost">
          <Download aria-hidden="true" className="h-4 w-4" />
          {t('admin.invoicesPage.zip')}
        </a>
      </Form>

      <p className="mt-6 text-sm text-muted" data-testid="invoices-count">{t('admin.invoicesPage.count', { count: entries.length })}</p>
      {entries.length === 0 ? (
        <p className="mt-4 rounded-3xl bg-paper p-10 text-center text-muted ring-1 ring-sand">{t('admin.invoicesPage.empty')}</p>
      ) : (
        <div className="relative mt-4 rounded-3xl bg-paper ring-1 ring-sand sm:overflow-x-auto">
          {/* On a phone each invoice is a card (its cells stacked, the headings kept for screen readers); wider, a table. */}
          <table role="table" className="w-full text-left text-sm max-sm:block sm:min-w-[56rem]">
            <thead role="rowgroup" className="border-b border-sand text-xs tracking-wide text-muted uppercase max-sm:sr-only">
              <tr role="row">
                <th scope="col" role="columnheader" className="px-4 py-3 font-semibold">{t('admin.invoicesPage.number')}</th>
                <th scope="col" role="columnheader" className="px-4 py-3 font-semibold">{t('admin.invoicesPage.buyer')}</th>
                <th scope="col" role="columnheader" className="px-4 py-3 text-right font-semibold">{t('admin.invoicesPage.amount')}</th>
                <th scope="col" role="columnheader" className="px-4 py-3 font-semibold">KSeF</th>
                <th scope="col" role="columnheader" className="px-4 py-3 font-semibold">{t('admin.invoicesPage.files')}</th>
              </tr>
            </thead>
            <tbody role="rowgroup" className="divide-y divide-sand max-sm:block">
              {entries.map((e) => (
                <tr key={e.id} role="row" data-testid="invoice-row" className="align-top max-sm:grid max-sm:grid-cols-2 max-sm:gap-x-4 max-sm:gap-y-3 max-sm:px-4 max-sm:py-4">
                  <th scope="row" role="rowheader" className="px-4 py-3 font-normal max-sm:p-0">
                    <span className="block font-mono font-semibold">{e.number}</span>
                    <span className="block text-xs text-muted">
                      {t(e.kind === 'correction' ? 'admin.invoicesPage.correction' : 'admin.invoicesPage.invoice')} · <time dateTime={e.issuedAt}>{formatDate(e.issuedAt, locale)}</time>
                    </span>
                    <Link to={`/admin/orders/${e.orderId}`} className="text-xs text-leaf underline underline-offset-4">{t('admin.invoicesPage.order', { label: e.orderLabel })}</Link>
                  </th>
                  <td role="cell" className="px-4 py-3 max-sm:p-0">
                    <span className="block font-medium">{e.buyerName}</span>
                    {e.buyerTaxId && <span className="block text-xs text-muted">{t('admin.invoices.taxId', { taxId: e.buyerTaxId })}</span>}
                  </td>
                  <td role="cell" className="px-4 py-3 text-right font-semibold whitespace-nowrap tabular-nums max-sm:p-0 max-sm:text-left">{formatPrice(e.grossCents, isCurrency(e.currency) ? e.currency : 'PLN', locale)}</td>
                  <td role="cell" className="max-w-72 px-4 py-3 max-sm:col-span-2 max-sm:max-w-none max-sm:p-0">
                    <KsefStanding standing={e.standing} ksefNumber={e.ksefNumber} errorCode={e.errorCode} errorText={e.errorText} deadline={e.deadline} offline={e.offline} handedOverAt={e.handedOverAt} />
                    {e.standing === 'refused' && <Resend entry={e} busy={busy} failed={result && !result.ok && result.invoiceId === e.id ? result : undefined} />}
                  </td>
                  <td role="cell" className="px-4 py-3 max-sm:p-0">
                    <ul className="grid gap-1 text-xs max-sm:flex max-sm:gap-4">
                      <li><a href={`/invoices/${e.id}`} download className="font-medium text-leaf underline underline-offset-4" aria-label={t('admin.invoicesPage.pdfLabel', { number: e.number })}>PDF</a></li>
                      {e.hasXml && <li><a href={`/admin/invoices/${e.id}/xml`} download className="font-medium text-leaf underline underline-offset-4" aria-label={t('admin.invoices.xmlLabel', { number: e.number })}>XML</a></li>}
                      {e.hasUpo && <li><a href={`/admin/invoices/${e.id}/upo`} download className="font-medium text-leaf underline underline-offset-4" aria-label={t('admin.invoicesPage.upoLabel', { number: e.number })}>UPO</a></li>}
                    </ul>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

/** Whether the shop can send to KSeF now, said plainly: who sends, a missing or refused token, KSeF's pause. */
function KsefConnection({ ksef, waiting }: { ksef: Route.ComponentProps['loaderData']['ksef']; waiting: number }) {
  const { t, locale } = useI18n();
  const environment = t(`admin.ksef.environments.${ksef.environment}`);
  if (ksef.sender === 'accounting') {
    return <p className="mt-6 max-w-3xl rounded-2xl bg-cream px-4 py-3 text-sm ring-1 ring-sand" data-testid="ksef-connection">{t('admin.ksef.byAccounting')}</p>;
  }
  const problem = !ksef.hasToken ? t('admin.ksef.noToken', { count: waiting }) : ksef.problem ? t('admin.ksef.tokenRefused', { when: formatDateTime(ksef.problemAt ?? new Date().toISOString(), locale), words: ksef.problem }) : null;
  if (problem) {
    return (
      <div role="alert" className="mt-6 flex max-w-3xl gap-3 rounded-2xl bg-cherry-light px-4 py-3 text-sm text-cherry" data-testid="ksef-connection">
        <AlertTriangle aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0" />
        <p>
          {problem} {t('admin.ksef.howToToken')}
        </p>
      </div>
    );
  }
  return (
    <p className="mt-6 flex max-w-3xl items-start gap-2 rounded-2xl bg-leaf-light px-4 py-3 text-sm text-leaf-dark" data-testid="ksef-connection">
      {ksef.pausedUntil ? <Send aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" /> : <CheckCircle2 aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />}
      <span>
        {t('admin.ksef.byKopi', { environment })}
        {ksef.pausedUntil && <span className="mt-1 block font-semibold" data-testid="ksef-paused">{t('admin.ksef.paused', { when: formatDateTime(ksef.pausedUntil, locale) })}</span>}
        <OfflineCertificateNote certificate={ksef.offlineCertificate} />
      </span>
    </p>
  );
}

/** What happens to a buyer's invoice while KSeF is down: handed over offline with KOD II, or kept until KSeF numbers it. */
function OfflineCertificateNote({ certificate }: { certificate: Route.ComponentProps['loaderData']['ksef']['offlineCertificate'] }) {
  const { t, locale } = useI18n();
  if (!certificate) return <span className="mt-1 block text-roast-600" data-testid="ksef-offline-certificate">{t('admin.ksef.noOfflineCertificate')}</span>;
  const dates = { serial: certificate.serialNumber, from: formatDateTime(certificate.validFrom, locale), until: formatDateTime(certificate.validTo, locale) };
  return certificate.valid ? (
    <span className="mt-1 block" data-testid="ksef-offline-certificate">{t('admin.ksef.offlineCertificate', dates)}</span>
  ) : (
    <span className="mt-1 block font-semibold text-cherry" data-testid="ksef-offline-certificate">{t('admin.ksef.offlineCertificateExpired', dates)}</span>
  );
}

/** A refused invoice: its buyer corrected, the same number sent to KSeF again. */
function Resend({ entry, busy, failed }: { entry: { id: string; number: string; buyer: InvoiceBuyer; handedOverAt: string | null }; busy: boolean; failed?: Extract<Result, { ok: false }> }) {
  const { t } = useI18n();
  return (
    <details className="mt-3" open={failed?.error === 'invalid'}>
      <summary className="cursor-pointer text-xs font-semibold text-leaf underline underline-offset-4">{t('admin.invoicesPage.fix')}</summary>
      <Form method="post" className="mt-3 grid gap-3" aria-label={t('admin.invoicesPage.fixFor', { number: entry.number })}>
        <input type="hidden" name="intent" value="resend" />
        <input type="hidden" name="invoiceId" value={entry.id} />
        <p className="text-xs text-muted">{t('admin.invoicesPage.fixHint')}</p>
        {entry.handedOverAt && <p className="text-xs text-roast-600" data-testid="resend-handed-over">{t('admin.invoicesPage.fixHandedOver')}</p>}
        <BuyerFields values={failed?.values ?? entry.buyer} errors={failed?.errors ?? {}} idPrefix={`resend-${entry.id}`} />
        <div>
          <button type="submit" className="btn-primary px-4 py-2 text-sm" disabled={busy}>
            <FileText aria-hidden="true" className="h-4 w-4" />
            {t('admin.invoicesPage.resend')}
          </button>
        </div>
      </Form>
    </details>
  );
}
