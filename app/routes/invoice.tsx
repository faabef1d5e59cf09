import { Download, FileText } from 'lucide-react';
import { Form, Link, data, redirect, useNavigation } from 'react-router';
import { BuyerFields } from '~/components/invoices/buyer-fields';
import { appContext } from '~/context';
import { field, readForm } from '~/http/body.server';
import { pathFor, requireUser, shopperContext } from '~/http/shopper.server';
import { formatDate } from '~/lib/format';
import { getMessages, getT } from '~/modules/i18n/index.server';
import { useI18n, useLocalePath } from '~/modules/i18n/react';
import { type BuyerErrors, type InvoiceBuyer, invoiceWindow, issueInvoice, listOrderInvoices, parseBuyer, sellerOf } from '~/modules/invoices/index.server';
import { nothingToInvoice } from '~/modules/invoices/buyer';
import { getOrderForUser } from '~/modules/orders/index.server';
import type { Route } from './+types/invoice';

/**
 * A customer asks for the invoice of one of their orders (/invoice/{order}), reached from My Orders: the buyer's
 * name, tax number and address, pre-filled from the order; issued at once, in the order's language, and kept.
 * Refused after the legal window (the end of the third month after delivery) and for an order that has one.
 */
type Result = { status: 'invalid'; errors: BuyerErrors; values: InvoiceBuyer } | { status: 'refused'; problem: string };

async function orderFor(params: Route.LoaderArgs['params'], url: URL, context: Route.LoaderArgs['context']) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  const user = requireUser(shopper, url);
  const order = await getOrderForUser(app.db, app.storage, user.id, params.orderId);
  return { app, shopper, user, order: order?.paymentStatus === 'succeeded' ? order : null };
}

export async function loader({ params, url, context }: Route.LoaderArgs) {
  const { app, shopper, order } = await orderFor(params, url, context);
  const t = getT(shopper.locale);
  const base = { meta: { title: `${t('invoices.request.title')} · Kopi` }, messages: getMessages(shopper.locale, 'invoices', 'orders') };
  if (!order) return data({ ...base, order: null, invoices: [], window: { open: false, endsAt: null }, values: null }, { status: 404 });
  const invoices = await listOrderInvoices(app.db, order.id);
  const values: InvoiceBuyer = { name: order.shipping.fullName, taxId: '', country: order.delivery?.country || 'PL', address: order.shipping.address, zipCode: order.shipping.zipCode, city: order.shipping.city };
  // Cancelled or refunded in full: nothing to invoice, said instead of the form.
  const nothing = nothingToInvoice(order);
  return { ...base, order: { id: order.id, label: order.label, createdAt: order.createdAt }, invoices, window: nothing ? { open: false, endsAt: null } : invoiceWindow(order), nothing, values };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.meta.title }, { name: 'robots', content: 'noindex' }];

export async function action({ params, request, url, context }: Route.ActionArgs) {
  const { app, shopper, user, order } = await orderFor(params, url, context);
  const form = await readForm(request);
  if (!order) return data<Result>({ status: 'refused', problem: 'invoices.request.notFound' }, { status: 404 });
  const parsed = parseBuyer((name) => field(form, name));
  if (!parsed.ok) return data<Result>({ status: 'invalid', errors: parsed.errors, values: parsed.values }, { status: 400 });
  const issued = await issueInvoice(app.db, { orderId: order.id, buyer: parsed.buyer, seller: sellerOf(app.config.seller), by: { customer: user.id }, rates: app.rates });
  if (!issued.ok) {
    const problem = { not_found: 'notFound', not_paid: 'notFound', already_issued: 'alreadyIssued', window_closed: 'windowClosed', seller_missing: 'unavailable', nothing_to_invoice: 'nothingToInvoice' }[issued.reason];
    return data<Result>({ status: 'refused', problem: `invoices.request.${problem}` }, { status: issued.reason === 'seller_missing' ? 503 : 409 });
  }
  app.kickMail();
  app.ksef.kick();
  throw redirect(pathFor(shopper, `/invoice/${order.id}?issued=1`));
}

export default function InvoiceRequestPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t, locale } = useI18n();
  const path = useLocalePath();
  const busy = useNavigation().state === 'submitting';
  const result = actionData as Result | undefined;
  const { order, invoices, window, values } = loaderData;
  const nothing = 'nothing' in loaderData && loaderData.nothing === true;
  const invoice = invoices.find((i) => i.kind === 'invoice');
  return (
    <section className="mx-auto max-w-2xl px-4 py-10 sm:px-6" aria-labelledby="invoice-heading">
      <p className="eyebrow">{order ? t('orders.label', { label: order.label }) : ''}</p>
      <h1 id="invoice-heading" className="mt-2 text-3xl font-semibold">{t('invoices.request.title')}</h1>
      {!order ? (
        <p className="mt-4 text-muted">{t('invoices.request.notFound')}</p>
      ) : invoice ? (
        <div className="mt-6 rounded-3xl bg-paper p-6 ring-1 ring-sand" data-testid="invoice-issued">
          <p role="status" className="flex items-center gap-2 font-medium text-leaf-dark">
            <FileText aria-hidden="true" className="h-5 w-5" />
            {t('invoices.request.issued', { number: invoice.number })}
          </p>
          <ul className="mt-4 grid gap-2">
            {invoices.map((i) => (
              <li key={i.id}>
                {i.ksefStatus !== null && i.ksefStatus !== 'accepted' && !i.ksefHandedOverAt ? (
                  <span className="text-sm text-muted" data-testid="invoice-in-ksef">{t('invoices.inKsef', { number: i.number })}</span>
                ) : (
                  <a href={`/invoices/${i.id}`} className="inline-flex items-center gap-2 font-medium text-leaf underline underline-offset-4" download>
                    <Download aria-hidden="true" className="h-4 w-4" />
                    {t(i.kind === 'correction' ? 'invoices.downloadCorrection' : 'invoices.download', { number: i.number })}
                  </a>
                )}
              </li>
            ))}
          </ul>
          <Link to={path('/profile?tab=orders')} className="btn-outline mt-6 px-5 py-2.5 text-sm">{t('invoices.request.backToOrders')}</Link>
        </div>
      ) : !window.open ? (
        <p className="mt-4 rounded-2xl bg-cream px-5 py-4 text-sm ring-1 ring-sand" data-testid={nothing ? 'invoice-nothing' : 'invoice-window-closed'}>
          {t(nothing ? 'invoices.request.nothingToInvoice' : 'invoices.request.windowClosed')}
        </p>
      ) : (
        <Form method="post" className="mt-6 grid gap-6 rounded-3xl bg-paper p-6 ring-1 ring-sand" noValidate>
          <p className="text-sm text-muted">
            {t('invoices.request.intro', { date: formatDate(order.createdAt, locale), until: window.endsAt ? formatDate(new Date(new Date(window.endsAt).getTime() - 1).toISOString(), locale) : '' })}
          </p>
          {result?.status === 'refused' && (
            <p role="alert" className="rounded-2xl bg-cherry-light px-4 py-3 text-sm text-cherry" data-testid="invoice-refused">{t(result.problem)}</p>
          )}
          {result?.status === 'invalid' && (
            <p role="alert" className="rounded-2xl bg-cherry-light px-4 py-3 text-sm text-cherry">{t('invoices.request.fix')}</p>
          )}
          <BuyerFields values={result?.status === 'invalid' ? result.values : values!} errors={result?.status === 'invalid' ? result.errors : {}} />
          <div>
            <button type="submit" className="btn-primary px-6 py-3" disabled={busy}>{t('invoices.request.submit')}</button>
          </div>
        </Form>
      )}
    </section>
  );
}
