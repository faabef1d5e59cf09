import { Download, FileText } from 'lucide-react';
import { Form } from 'react-router';
import { BuyerFields } from '~/components/invoices/buyer-fields';
import { formatDate } from '~/lib/format';
import type { BuyerErrors, InvoiceBuyer } from '~/modules/invoices/buyer';
import type { OrderInvoiceEntry } from '~/modules/invoices/invoices.server';
import { useI18n } from '~/modules/i18n/react';
import { KsefStanding, type KsefStandingName } from './ksef-standing';

/** The order's documents as the invoices module lists them (with their KSeF standing and buyer). */
export type OrderInvoiceList = OrderInvoiceEntry[];

/** The order's invoice on the owner's page: its documents to download, or the form that issues it. */
export function OrderInvoice({
  invoices,
  buyer,
  requested,
  paid,
  errors,
  busy,
  canIssue = true,
  nothing = false,
}: {
  invoices: OrderInvoiceList;
  /** Pre-filled: what the customer gave at checkout, or the order's name and address. */
  buyer: InvoiceBuyer;
  requested: boolean;
  paid: boolean;
  errors?: { values: InvoiceBuyer; errors: BuyerErrors };
  busy: boolean;
  /** False while the shop's legal details (SHOP_*) are not set: no invoice can be issued yet. */
  canIssue?: boolean;
  /** Cancelled or refunded in full before it was invoiced: there is nothing to invoice. */
  nothing?: boolean;
}) {
  const { t, locale } = useI18n();
  const issued = invoices.some((i) => i.kind === 'invoice');
  if (!paid && invoices.length === 0) return null;
  return (
    <section aria-labelledby="order-invoice" className="rounded-3xl bg-paper p-6 ring-1 ring-sand" data-testid="order-invoice">
      <h2 id="order-invoice" className="flex items-center gap-2 text-lg font-semibold">
        <FileText aria-hidden="true" className="h-5 w-5 text-leaf" />
        {t('admin.invoices.heading')}
      </h2>
      {invoices.length > 0 && (
        <ul className="mt-3 grid gap-2 text-sm">
          {invoices.map((i) => (
            <li key={i.id} className="flex flex-wrap items-baseline justify-between gap-2">
              <a href={`/invoices/${i.id}`} download className="inline-flex items-center gap-1.5 font-medium text-leaf underline underline-offset-4">
                <Download aria-hidden="true" className="h-3.5 w-3.5" />
                {t(i.kind === 'correction' ? 'invoices.downloadCorrection' : 'invoices.download', { number: i.number })}
              </a>
              <span className="flex items-center gap-3 text-muted">
                {i.ksef && (
                  <a href={`/admin/invoices/${i.id}/xml`} download className="font-medium text-leaf underline underline-offset-4" aria-label={t('admin.invoices.xmlLabel', { number: i.number })}>
                    {t('admin.invoices.xml')}
                  </a>
                )}
                {formatDate(i.issuedAt, locale)}
              </span>
              <p className="w-full text-xs text-muted" data-testid="invoice-buyer">
                {i.buyerName}
                {i.buyerTaxId && ` · ${t('admin.invoices.taxId', { taxId: i.buyerTaxId })}`}
              </p>
              {i.ksefStatus ? (
                <div className="w-full">
                  <KsefStanding standing={i.ksefStatus as KsefStandingName} ksefNumber={i.ksefNumber} errorCode={i.ksefErrorCode} errorText={i.ksefErrorText} handedOverAt={i.ksefHandedOverAt} />
                  {i.ksefStatus === 'refused' && (
                    <a href="/admin/invoices?status=refused" className="mt-1 inline-block text-xs font-semibold text-leaf underline underline-offset-4">{t('admin.invoicesPage.fix')}</a>
                  )}
                </div>
              ) : (
                i.ksef && <KsefNumberForm invoice={i} busy={busy} />
              )}
            </li>
          ))}
        </ul>
      )}
      {!issued && paid && nothing && (
        <p className="mt-3 text-sm text-muted" data-testid="invoice-nothing">{t('admin.invoices.nothing')}</p>
      )}
      {!issued && paid && !nothing && !canIssue && (
        <p className="mt-3 text-sm text-muted" data-testid="invoice-seller-missing">
          {requested && <span className="mb-1 block">{t('admin.invoices.requested')}</span>}
          {t('admin.orders.errors.invoice_seller_missing')}
        </p>
      )}
      {!issued && paid && !nothing && canIssue && (
        <Form method="post" className="mt-3 grid gap-4">
          <input type="hidden" name="intent" value="invoice" />
          <p className="text-sm text-muted">{t(requested ? 'admin.invoices.requested' : 'admin.invoices.none')}</p>
          <BuyerFields values={errors?.values ?? buyer} errors={errors?.errors ?? {}} idPrefix="owner-invoice" />
          <div>
            <button type="submit" className="btn-primary px-4 py-2 text-sm" disabled={busy}>{t('admin.invoices.issue')}</button>
          </div>
        </Form>
      )}
    </section>
  );
}

/**
 * The number KSeF gave the invoice once the owner sent its XML there: kept, so a later correction refers to it.
 * Inline, small: most days it is filled in once and not looked at again.
 */
function KsefNumberForm({ invoice, busy }: { invoice: OrderInvoiceList[number]; busy: boolean }) {
  const { t } = useI18n();
  const id = `ksef-${invoice.id}`;
  return (
    <Form method="post" className="flex w-full flex-wrap items-end gap-2" aria-label={t('admin.invoices.ksefFor', { number: invoice.number })}>
      <input type="hidden" name="intent" value="ksef" />
      <input type="hidden" name="invoiceId" value={invoice.id} />
      <div className="min-w-0 flex-1">
        <label htmlFor={id} className="block text-xs font-semibold text-roast-600">{t('admin.invoices.ksefNumber')}</label>
        <input
          id={id}
          name="ksefNumber"
          defaultValue={invoice.ksefNumber ?? ''}
          placeholder="5260250274-20261128-0A1B2C3D4E5F-F7"
          maxLength={40}
          autoComplete="off"
          spellCheck={false}
          aria-describedby={`${id}-hint`}
          className="field-input mt-1 py-1.5 font-mono text-xs"
        />
        <p id={`${id}-hint`} className="mt-1 text-xs text-muted">{t(invoice.ksefNumber ? 'admin.invoices.ksefKept' : 'admin.invoices.ksefHint')}</p>
      </div>
      <button type="submit" className="btn-outline mb-5 px-3 py-1.5 text-xs" disabled={busy}>{t('admin.invoices.ksefSave')}</button>
    </Form>
  );
}
