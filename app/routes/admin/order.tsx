import { formatRate } from '~/modules/tax/vat';
import { ArrowLeft, Ban, Download, PackageCheck, PackagePlus, RefreshCw, Truck, Undo2 } from 'lucide-react';
import { Form, Link, data, useNavigation } from 'react-router';
import { StatusBadge } from '~/components/orders/status-badge';
import { OrderInvoice } from '~/components/admin/order-invoice';
import { type BuyerErrors, type InvoiceBuyer, issueInvoice, listOrderInvoices, parseBuyer, recordKsefNumber, sellerOf } from '~/modules/invoices/index.server';
import { nothingToInvoice } from '~/modules/invoices/buyer';
import { ProductImage } from '~/components/catalog/product-image';
import { type AppContext, appContext } from '~/context';
import { field, readForm } from '~/http/body.server';
import { requireAdmin, shopperContext } from '~/http/shopper.server';
import { SHOP_TIME_ZONE, formatDate, formatDateTime, formatNumber, formatPrice } from '~/lib/format';
import { shopDayOf } from '~/lib/shop-days';
import { carrierNames, carriers, isParcelSize, parcelSizeLetters, parcelSizes, trackingUrl } from '~/modules/fulfilment/carriers';
import {
  type ShipmentOutcome,
  canCancel,
  canMove,
  cancelOrder,
  confirmShipment,
  createShipment,
  getOwnerOrder,
  moveOrder,
  orderParcelGrams,
  sendOrderMailAgain,
  refundWithdrawal,
  shipmentService,
  suggestedSize,
} from '~/modules/fulfilment/index.server';
import { getT } from '~/modules/i18n/index.server';
import { countryName } from '~/modules/delivery/countries';
import { orderLabel } from '~/modules/orders/index.server';
import { textByPaidWith } from '~/modules/orders/orders.types';
import { useI18n } from '~/modules/i18n/react';
import type { Route } from './+types/order';

export async function loader({ params, url, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  requireAdmin(shopper);
  const order = await getOwnerOrder(app.db, app.storage, params.id, { locale: shopper.locale });
  if (!order) throw data(null, { status: 404 });
  // Through ShipX: a locker, or InPost's courier in Poland, when the shop has a ShipX token.
  const service = app.shipx ? shipmentService(order.delivery) : null;
  const grams = service ? await orderParcelGrams(app.db, order.lines) : 0;
  return {
    title: getT(shopper.locale)('admin.meta.orderTitle', { label: order.label }),
    order,
    /** The shop's calendar day now (the delivery date's default and latest), and the shipping day (its earliest). */
    today: shopDayOf(new Date(), SHOP_TIME_ZONE),
    shippedOn: order.shippedAt ? shopDayOf(new Date(order.shippedAt), SHOP_TIME_ZONE) : null,
    // An order paid after its coffee sold out is refunded, never shipped; one with an InPost shipment waiting for
    // InPost's confirmation is shipped by it (a number typed meanwhile would leave that paid parcel behind).
    canShip: canMove(order.shippingStatus, 'shipped', order.delivery?.kind ?? null) && !order.stockShort && !order.replaced && !order.shipment,
    canDeliver: canMove(order.shippingStatus, 'delivered', order.delivery?.kind ?? null) && !order.stockShort && !order.replaced,
    canCancel: canCancel(order.shippingStatus),
    /**
     * Whether cancelling asks if the goods go back to stock (only when they came off it), and the answer it
     * starts from: yes before shipping (the bags are on the shelf), no once shipped (only if they come back).
     */
    cancelBackToStock: canCancel(order.shippingStatus) && order.stockOut ? { checked: order.shippingStatus === 'processing' } : null,
    inpost: service
      ? {
          service,
          grams,
          suggestedSize: suggestedSize(grams),
          canCreate: !order.shipment && order.shippingStatus === 'processing' && !order.stockShort && !order.replaced,
        }
      : null,
    labelUnavailable: url.searchParams.get('label') === 'unavailable',
    invoices: await listOrderInvoices(app.db, order.id),
    invoiceRequested: order.invoiceBuyer !== null,
    canIssueInvoice: sellerOf(app.config.seller) !== null,
    invoiceBuyer: order.invoiceBuyer ?? { name: order.shipping.fullName, taxId: '', country: order.delivery?.country || 'PL', address: order.shipping.address, zipCode: order.shipping.zipCode, city: order.shipping.city },
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${loaderData?.title} · Kopi` }, { name: 'robots', content: 'noindex' }];

type Result =
  | { ok: true; moved: 'shipped' | 'delivered' | 'shipmentShipped' | 'shipmentWaiting' | 'mailQueued' }
  | { ok: true; moved: 'cancelled' | 'withdrawalRefunded'; refundedCents: number }
  | { ok: true; moved: 'invoiced' | 'ksefRecorded'; number: string }
  | { ok: false; error: string; status?: string; message?: string; deliveredOn?: string; invoice?: { values: InvoiceBuyer; errors: BuyerErrors } };

export async function action({ request, params, context }: Route.ActionArgs) {
  const app = context.get(appContext);
  const user = requireAdmin(context.get(shopperContext));
  const form = await readForm(request);
  const intent = field(form, 'intent');
  const backToStock = field(form, 'backToStock') === 'on';
  if (intent === 'cancel') return cancel(app, user, params.id, backToStock);
  if (intent === 'refund-withdrawal') return refundTheWithdrawal(app, user, params.id, field(form, 'withdrawalId'), backToStock);
  if (intent === 'invoice') return invoice(app, user, params.id, form);
  if (intent === 'ksef') return ksefNumber(app, user, params.id, form);
  if (intent === 'mail-again') {
    if (!(await sendOrderMailAgain(app.db, params.id, field(form, 'mailId')))) return data<Result>({ ok: false, error: 'mail_not_found' }, { status: 404 });
    app.kickMail();
    return data<Result>({ ok: true, moved: 'mailQueued' });
  }
  if (intent === 'shipment' || intent === 'check-shipment') return shipment(app, user, params.id, intent === 'shipment' ? field(form, 'size') : null);
  if (intent !== 'ship' && intent !== 'deliver') return data<Result>({ ok: false, error: 'failed' }, { status: 400 });
  try {
    const outcome = await moveOrder(
      { db: app.db, publicUrl: app.config.publicUrl.href },
      user,
      params.id,
      intent === 'ship' ? { to: 'shipped', carrier: field(form, 'carrier'), trackingNumber: field(form, 'trackingNumber') } : { to: 'delivered', deliveredOn: field(form, 'deliveredOn') || undefined },
    );
    if (!outcome.ok) {
      const status = outcome.reason === 'not_found' ? 404 : outcome.reason === 'not_allowed' ? 409 : 400;
      return data<Result>({ ok: false, error: outcome.reason, status: outcome.from, ...(intent === 'deliver' ? { deliveredOn: field(form, 'deliveredOn') } : {}) }, { status });
    }
    app.kickMail();
    return data<Result>({ ok: true, moved: intent === 'ship' ? 'shipped' : 'delivered' });
  } catch (error) {
    app.log.error({ err: error }, 'changing an order failed');
    return data<Result>({ ok: false, error: 'failed' }, { status: 503 });
  }
}

/** Issues the order's invoice for the buyer the owner gave. */
async function invoice(app: AppContext, user: { id: string; email: string }, id: string, form: FormData) {
  const parsed = parseBuyer((name) => field(form, name));
  if (!parsed.ok) return data<Result>({ ok: false, error: 'invoice_invalid', invoice: { values: parsed.values, errors: parsed.errors } }, { status: 400 });
  const issued = await issueInvoice(app.db, { orderId: id, buyer: parsed.buyer, seller: sellerOf(app.config.seller), by: { admin: user }, rates: app.rates });
  if (issued.ok) {
    app.kickMail();
    app.ksef.kick();
    return data<Result>({ ok: true, moved: 'invoiced', number: issued.invoice.number });
  }
  const status = { not_found: 404, not_paid: 409, already_issued: 409, window_closed: 409, seller_missing: 409, nothing_to_invoice: 409 }[issued.reason];
  if (issued.reason === 'not_found') throw data(null, { status: 404 });
  return data<Result>({ ok: false, error: `invoice_${issued.reason}` }, { status });
}

/** Records the number KSeF gave one of the order's invoices. */
async function ksefNumber(app: AppContext, user: { id: string; email: string }, id: string, form: FormData) {
  const outcome = await recordKsefNumber(app.db, user, { orderId: id, invoiceId: field(form, 'invoiceId'), ksefNumber: field(form, 'ksefNumber') });
  if (outcome.ok) return data<Result>({ ok: true, moved: 'ksefRecorded', number: outcome.number });
  return data<Result>({ ok: false, error: `ksef_${outcome.reason}` }, { status: outcome.reason === 'invalid' ? 400 : outcome.reason === 'sent_by_shop' ? 409 : 404 });
}

/** Creates the order's InPost shipment (`size` given), or asks InPost whether it is confirmed yet. */
async function shipment(app: AppContext, user: { id: string; email: string }, id: string, size: string | null) {
  const services = { db: app.db, shipx: app.shipx, publicUrl: app.config.publicUrl.href, log: app.log };
  let outcome: ShipmentOutcome;
  try {
    outcome = size === null ? await confirmShipment(services, user, id) : await createShipment(services, user, id, size);
  } catch (error) {
    app.log.error({ err: error }, 'an InPost shipment failed');
    return data<Result>({ ok: false, error: 'failed' }, { status: 503 });
  }
  if (outcome.ok) {
    if (outcome.shipped) app.kickMail();
    return data<Result>({ ok: true, moved: outcome.shipped ? 'shipmentShipped' : 'shipmentWaiting' });
  }
  const status = { not_found: 404, not_allowed: 409, in_progress: 409, cancelled: 409, not_configured: 409, invalid_size: 400, refused: 422, unreachable: 503, uncertain: 502 }[outcome.reason];
  // `message`: InPost's words for a refusal; for an unclear answer, the reference to look for in InPost Manager.
  const message = outcome.reason === 'refused' ? outcome.message : outcome.reason === 'uncertain' ? orderLabel(id) : undefined;
  const error = outcome.reason === 'not_allowed' ? 'shipment_not_allowed' : outcome.reason;
  return data<Result>({ ok: false, error, message }, { status });
}

async function cancel(app: AppContext, user: { id: string; email: string }, id: string, backToStock: boolean) {
  try {
    const outcome = await cancelOrder({ db: app.db, payments: app.payments, publicUrl: app.config.publicUrl.href, log: app.log }, user, id, { backToStock });
    if (outcome.ok) {
      app.kickMail();
      return data<Result>({ ok: true, moved: 'cancelled', refundedCents: outcome.refundedCents });
    }
    if (outcome.reason === 'refund_failed') return data<Result>({ ok: false, error: 'refund_failed', message: outcome.message }, { status: 502 });
    if (outcome.reason === 'refund_unavailable') return data<Result>({ ok: false, error: 'refund_unavailable' }, { status: 503 });
    return data<Result>({ ok: false, error: outcome.reason, status: outcome.from }, { status: outcome.reason === 'not_found' ? 404 : 409 });
  } catch (error) {
    app.log.error({ err: error }, 'cancelling an order failed');
    return data<Result>({ ok: false, error: 'failed' }, { status: 503 });
  }
}

async function refundTheWithdrawal(app: AppContext, user: { id: string; email: string }, id: string, withdrawalId: string, backToStock: boolean) {
  try {
    const outcome = await refundWithdrawal({ db: app.db, payments: app.payments, publicUrl: app.config.publicUrl.href, log: app.log }, user, id, withdrawalId, { backToStock });
    if (outcome.ok) {
      app.kickMail();
      return data<Result>({ ok: true, moved: 'withdrawalRefunded', refundedCents: outcome.refundedCents });
    }
    if (outcome.reason === 'refund_failed') return data<Result>({ ok: false, error: 'refund_failed', message: outcome.message }, { status: 502 });
    if (outcome.reason === 'refund_unavailable') return data<Result>({ ok: false, error: 'refund_unavailable' }, { status: 503 });
    return data<Result>({ ok: false, error: outcome.reason }, { status: outcome.reason === 'not_found' ? 404 : 409 });
  } catch (error) {
    app.log.error({ err: error }, 'refunding a withdrawal failed');
    return data<Result>({ ok: false, error: 'failed' }, { status: 503 });
  }
}

export default function AdminOrderPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t, locale } = useI18n();
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting';
  const { order, canShip, canDeliver, canCancel, cancelBackToStock, today, shippedOn, inpost, labelUnavailable } = loaderData;
  const result = actionData as Result | undefined;
  const dateError = result && !result.ok && ['invalid_date', 'delivered_in_future', 'delivered_before_shipping'].includes(result.error);
  const statusText = (s: string) => t(`orders.status.${s}`);
  const parcelUrl = trackingUrl(order.carrier, order.trackingNumber);
  return (
    <div className="grid gap-6">
      <Link to="/admin/orders" className="inline-flex w-fit items-center gap-2 text-sm font-medium text-leaf hover:underline">
        <ArrowLeft aria-hidden="true" className="h-4 w-4" />
        {t('admin.orders.back')}
      </Link>
      <div className="flex flex-wrap items-center gap-4">
        <h1 className="text-3xl font-semibold md:text-4xl">{t('orders.label', { label: order.label })}</h1>
        <StatusBadge status={order.status} size="sm" testId="admin-order-status" />
        {order.partlyWithdrawn && <span className="rounded-full bg-gold/20 px-3 py-1 text-sm font-semibold text-roast">{t('orders.withdrawn')}</span>}
      </div>
      {order.stockShort && (
        <p role="note" className="rounded-2xl bg-cherry-light px-5 py-3 text-sm font-medium text-cherry ring-1 ring-cherry/20" data-testid="order-stock-short">
          {t('admin.orders.stockShort')}
        </p>
      )}
      {order.replaced && (
        <p role="note" className="rounded-2xl bg-cherry-light px-5 py-3 text-sm font-medium text-cherry ring-1 ring-cherry/20" data-testid="order-replaced">
          {t('admin.orders.replaced')}
        </p>
      )}
      {order.withdrawals.length > 0 && (
        <section aria-labelledby="order-withdrawals" className="rounded-3xl bg-gold/10 p-6 ring-1 ring-gold/40" data-testid="order-withdrawals">
          <h2 id="order-withdrawals" className="flex items-center gap-2 text-lg font-semibold">
            <Undo2 aria-hidden="true" className="h-5 w-5" />
            {t('admin.orders.withdrawals')}
          </h2>
          <ul className="mt-3 grid gap-4">
            {order.withdrawals.map((w) => (
              <li key={w.id} className="grid gap-2 text-sm sm:flex sm:items-start sm:justify-between sm:gap-6" data-testid="order-withdrawal">
                <div>
                  <p className="font-medium">
                    {t('admin.orders.withdrawalBy', { name: w.name, date: formatDateTime(w.createdAt, locale) })}
                  </p>
                  <p className="text-muted">{w.lines.map((line) => `${line.quantity} × ${line.title}`).join(', ')}</p>
                  {w.deliveryCents > 0 && <p className="text-muted" data-testid="withdrawal-delivery">{t('admin.orders.withdrawalDelivery', { amount: formatPrice(w.deliveryCents, order.currency, locale) })}</p>}
                  {w.reason && <p className="mt-1 text-muted">{t('admin.orders.withdrawalReason', { reason: w.reason })}</p>}
                </div>
                {w.refundedAt ? (
                  <p className="shrink-0 font-medium text-leaf-dark" data-testid="withdrawal-refunded">
                    {t('admin.orders.withdrawalRefunded', { amount: formatPrice(w.refundedCents ?? 0, order.currency, locale), date: formatDate(w.refundedAt, locale) })}
                  </p>
                ) : (
                  <Form method="post" className="grid shrink-0 justify-items-end gap-2 text-right">
                    <input type="hidden" name="intent" value="refund-withdrawal" />
                    <input type="hidden" name="withdrawalId" value={w.id} />
                    {order.stockOut && <BackToStock id={`back-${w.id}`} hint={t('admin.orders.backToStockReturnedHint')} />}
                    <button type="submit" className="btn-primary" disabled={busy}>
                      {t('admin.orders.refundWithdrawal', { amount: formatPrice(w.amountCents, order.currency, locale) })}
                    </button>
                    <p className="mt-1 text-xs text-muted">{t('admin.orders.refundDue', { date: formatDate(w.refundDueAt, locale) })}</p>
                  </Form>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}

      <div aria-live="polite">
        {result?.ok && (
          <p role="status" className="rounded-2xl bg-leaf-light px-5 py-3 text-sm font-medium text-leaf-dark ring-1 ring-leaf/20">
            {result.moved === 'invoiced' || result.moved === 'ksefRecorded'
              ? t(result.moved === 'invoiced' ? 'admin.invoices.issued' : 'admin.invoices.ksefRecorded', { number: result.number })
              : result.moved === 'withdrawalRefunded'
              ? t('admin.orders.moved.withdrawalRefunded', { amount: formatPrice(result.refundedCents, order.currency, locale) })
              : result.moved === 'cancelled' && result.refundedCents > 0
                ? t('admin.orders.moved.cancelledRefunded', { amount: formatPrice(result.refundedCents, order.currency, locale) })
                : t(`admin.orders.moved.${result.moved}`)}
          </p>
        )}
        {result && !result.ok && (
          <p role="alert" className="rounded-2xl bg-cherry-light px-5 py-3 text-sm font-medium text-cherry ring-1 ring-cherry/20">
            {t(`admin.orders.errors.${result.error}`, { status: result.status ? statusText(result.status) : '', message: result.message ?? '', date: shippedOn ? formatDate(`${shippedOn}T12:00:00Z`, locale) : '' })}
          </p>
        )}
        {!result && labelUnavailable && (
          <p role="alert" className="rounded-2xl bg-cherry-light px-5 py-3 text-sm font-medium text-cherry ring-1 ring-cherry/20">
            {t('admin.orders.errors.label_unavailable')}
          </p>
        )}
      </div>

      <div className="grid gap-6 lg:grid-cols-[2fr_1fr]">
        <section aria-labelledby="order-lines" className="relative self-start overflow-x-auto rounded-3xl bg-paper p-6 ring-1 ring-sand">
          <h2 id="order-lines" className="text-lg font-semibold">{t('admin.orders.lines')}</h2>
          <table className="mt-4 w-full text-left text-sm" data-testid="order-lines">
            <thead className="text-xs tracking-wide text-muted uppercase">
              <tr>
                <th scope="col" className="py-2"><span className="sr-only">{t('admin.products.picture')}</span></th>
                <th scope="col" className="py-2 pl-3">{t('admin.products.name')}</th>
                <th scope="col" className="py-2 pl-3 text-right">{t('admin.orders.quantity')}</th>
                <th scope="col" className="hidden py-2 pl-4 text-right sm:table-cell">{t('admin.orders.unitPrice')}</th>
                <th scope="col" className="py-2 pl-4 text-right">{t('admin.orders.lineTotal')}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-sand">
              {order.lines.map((line) => (
                <tr key={`${line.productId}-${line.variantId ?? line.title}`}>
                  <td className="w-14 py-2"><div className="h-12 w-10 overflow-hidden rounded-lg bg-sand/50"><ProductImage image={line.image} alt="" sizes="40px" className="h-full w-full object-cover" /></div></td>
                  <td className="py-2 pl-3 font-medium">
                    {line.title || t('product.unnamed')}
                    {line.label && <span className="block text-sm font-normal text-roast-600" data-testid="line-label">{line.label}</span>}
                    {line.sku && <span className="block font-mono text-xs font-normal text-muted">{line.sku}</span>}
                    {line.roastedOn.length > 0 && (
                      <span className="block text-xs font-normal text-leaf-dark" data-testid="line-roasted-on">
                        {t('admin.orders.roastedOn', { dates: line.roastedOn.map((day) => formatDate(day, locale)).join(', ') })}
                      </span>
                    )}
                    {/* On a phone the unit price column gives way: it is said here instead. */}
                    <span className="block text-xs font-normal text-muted tabular-nums sm:hidden">{formatPrice(line.unitPriceCents, order.currency, locale)}</span>
                  </td>
                  <td className="py-2 pl-3 text-right tabular-nums">{line.quantity}</td>
                  <td className="hidden py-2 pl-4 text-right whitespace-nowrap tabular-nums sm:table-cell">{formatPrice(line.unitPriceCents, order.currency, locale)}</td>
                  <td className="py-2 pl-4 text-right font-semibold whitespace-nowrap tabular-nums">{formatPrice(line.unitPriceCents * line.quantity, order.currency, locale)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              {order.discount && (
                <tr data-testid="order-discount-row" className="text-leaf-dark">
                  <th scope="row" colSpan={3} className="pt-3 text-right font-normal sm:hidden">{t('cart.code.discount', { code: order.discount.code })}</th>
                  <th scope="row" colSpan={4} className="hidden pt-3 text-right font-normal sm:table-cell">{t('cart.code.discount', { code: order.discount.code })}</th>
                  <td className="pt-3 pl-4 text-right whitespace-nowrap tabular-nums">
                    {order.discount.goodsCents > 0 ? `−${formatPrice(order.discount.goodsCents, order.currency, locale)}` : t('cart.code.freeDelivery', { code: order.discount.code })}
                  </td>
                </tr>
              )}
              {order.delivery && (
                <tr data-testid="order-delivery-row">
                  <th scope="row" colSpan={3} className="pt-3 text-right font-normal sm:hidden">{t('delivery.deliveryVia', { method: t(`delivery.kinds.${order.delivery.kind}`) })}</th>
                  <th scope="row" colSpan={4} className="hidden pt-3 text-right font-normal sm:table-cell">{t('delivery.deliveryVia', { method: t(`delivery.kinds.${order.delivery.kind}`) })}</th>
                  <td className="pt-3 pl-4 text-right whitespace-nowrap tabular-nums">{order.delivery.priceCents === 0 ? t('delivery.free') : formatPrice(order.delivery.priceCents, order.currency, locale)}</td>
                </tr>
              )}
              <tr>
                <th scope="row" colSpan={3} className="pt-3 text-right sm:hidden">{t('admin.orders.total')}</th>
                <th scope="row" colSpan={4} className="hidden pt-3 text-right sm:table-cell">{t('admin.orders.total')}</th>
                <td className="pt-3 pl-4 text-right text-base font-semibold whitespace-nowrap tabular-nums">{formatPrice(order.totalCents, order.currency, locale)}</td>
              </tr>
              {order.vat.map((part) => (
                <tr key={part.rateBp} data-testid="order-vat-row" className="text-muted">
                  <th scope="row" colSpan={3} className="pt-1 text-right font-normal sm:hidden">{t('admin.orders.vatRow', { rate: formatRate(part.rateBp, locale), country: order.taxCountry ?? '' })}</th>
                  <th scope="row" colSpan={4} className="hidden pt-1 text-right font-normal sm:table-cell">
                    {t('admin.orders.vatRow', { rate: formatRate(part.rateBp, locale), country: order.taxCountry ?? '' })}
                    <span className="block text-xs">{t('admin.orders.vatNet', { net: formatPrice(part.netCents, order.currency, locale) })}</span>
                  </th>
                  <td className="pt-1 pl-4 text-right align-top whitespace-nowrap tabular-nums">{formatPrice(part.vatCents, order.currency, locale)}</td>
                </tr>
              ))}
            </tfoot>
          </table>
        </section>

        <div className="grid content-start gap-6">
          <section aria-labelledby="order-fulfil" className="rounded-3xl bg-paper p-6 ring-1 ring-sand">
            <h2 id="order-fulfil" className="text-lg font-semibold">{t('admin.orders.fulfil')}</h2>
            {order.trackingNumber && (
              <p className="mt-3 text-sm">
                <Truck aria-hidden="true" className="mr-1 inline h-4 w-4 text-leaf" />
                {parcelUrl ? (
                  <a href={parcelUrl} target="_blank" rel="noopener noreferrer" className="font-medium text-leaf underline underline-offset-4">
                    {order.carrier && carrierNames[order.carrier as keyof typeof carrierNames]} {order.trackingNumber}
                  </a>
                ) : (
                  <span>{order.trackingNumber}</span>
                )}
              </p>
            )}
            {inpost && (inpost.canCreate || order.shipment) && <InpostShipment order={order} inpost={inpost} busy={busy} />}
            {canShip && (
              <Form method="post" className="mt-4 grid gap-4">
                {inpost?.canCreate && <h3 className="font-sans text-sm font-semibold">{t('admin.orders.shipment.orManually')}</h3>}
                <input type="hidden" name="intent" value="ship" />
                <div>
                  <label htmlFor="carrier" className="field-label">{t('admin.orders.carrier')}</label>
                  <select id="carrier" name="carrier" defaultValue="inpost" className="field-input">
                    {carriers.map((c) => (
                      <option key={c} value={c}>{c === 'other' ? t('admin.orders.otherCarrier') : carrierNames[c]}</option>
                    ))}
                  </select>
                </div>
                <div>
                  <label htmlFor="trackingNumber" className="field-label">{t('admin.orders.trackingNumber')}</label>
                  <input id="trackingNumber" name="trackingNumber" maxLength={40} autoComplete="off" className="field-input font-mono" />
                </div>
                <button type="submit" className="btn-primary" disabled={busy}>
                  <Truck aria-hidden="true" className="h-4 w-4" />
                  {t('admin.orders.ship')}
                </button>
              </Form>
            )}
            {canDeliver && (
              <Form method="post" className="mt-4 grid gap-4">
                <input type="hidden" name="intent" value="deliver" />
                <div>
                  <label htmlFor="deliveredOn" className="field-label">{t(order.delivery?.kind === 'pickup' ? 'admin.orders.collectedOn' : 'admin.orders.deliveredOn')}</label>
                  <input
                    id="deliveredOn"
                    name="deliveredOn"
                    type="date"
                    required
                    defaultValue={(result && !result.ok && result.deliveredOn) || today}
                    min={shippedOn ?? undefined}
                    max={today}
                    aria-describedby="deliveredOn-hint"
                    aria-invalid={dateError ? true : undefined}
                    className="field-input"
                  />
                  <p id="deliveredOn-hint" className="mt-1 text-xs text-muted">{t('admin.orders.deliveredOnHint')}</p>
                </div>
                <button type="submit" className="btn-leaf w-full" disabled={busy}>
                  <PackageCheck aria-hidden="true" className="h-4 w-4" />
                  {t(order.delivery?.kind === 'pickup' ? 'admin.orders.collect' : 'admin.orders.deliver')}
                </button>
              </Form>
            )}
            {!canShip && !canDeliver && <p className="mt-3 text-sm text-muted">{t('admin.orders.nothingToDo', { status: statusText(order.shippingStatus) })}</p>}
            {canCancel && (
              <details className="group mt-6 border-t border-sand pt-4" data-testid="order-cancel">
                <summary className="inline-flex cursor-pointer items-center gap-2 rounded-full text-sm font-semibold text-cherry hover:underline">
                  <Ban aria-hidden="true" className="h-4 w-4" />
                  {t('admin.orders.cancel')}
                </summary>
                <p className="mt-3 text-sm leading-relaxed text-roast-800">
                  {t(textByPaidWith('admin.orders.cancelExplain', order.paidWith), { amount: formatPrice(order.totalCents - order.refundedCents, order.currency, locale), language: t(`admin.orders.languages.${order.locale}`) })}
                </p>
                {order.shipment && <p className="mt-2 text-sm font-medium text-cherry">{t('admin.orders.shipment.cancelWarning', { id: order.shipment.id })}</p>}
                <Form method="post" className="mt-4 grid gap-3">
                  <input type="hidden" name="intent" value="cancel" />
                  {cancelBackToStock && (
                    <BackToStock
                      id="cancel-back-to-stock"
                      defaultChecked={cancelBackToStock.checked}
                      hint={t(order.shippingStatus === 'processing' ? 'admin.orders.backToStockHint' : 'admin.orders.backToStockReturnedHint')}
                    />
                  )}
                  <button type="submit" className="btn w-full bg-cherry text-white hover:bg-cherry/90" disabled={busy}>
                    <Ban aria-hidden="true" className="h-4 w-4" />
                    {t('admin.orders.confirmCancel', { amount: formatPrice(order.totalCents - order.refundedCents, order.currency, locale) })}
                  </button>
                </Form>
              </details>
            )}
          </section>

          <section aria-labelledby="order-customer" className="rounded-3xl bg-paper p-6 text-sm ring-1 ring-sand">
            <h2 id="order-customer" className="text-lg font-semibold">{t('admin.orders.customerHeading')}</h2>
            <p className="mt-3 font-medium">
              {order.customer.name}
              {order.customer.guest && <span className="ml-2 rounded-full bg-sand px-2 py-0.5 text-xs font-semibold text-roast-800" data-testid="order-guest">{t('admin.orders.guest')}</span>}
            </p>
            {order.customer.removed ? (
              <p className="font-medium text-muted" data-testid="order-deleted-customer">{t(order.customer.removed === 'deletion' ? 'admin.customers.deletedCustomer' : 'admin.customers.detailsRemoved')}</p>
            ) : (
              <p><a href={`mailto:${order.customer.email}`} className="text-leaf underline underline-offset-4">{order.customer.email}</a></p>
            )}
            <p className="mt-1 text-muted">{t('admin.orders.language')}: {t(`admin.orders.languages.${order.locale}`)}</p>
            <h3 className="mt-5 font-sans text-sm font-semibold">{t('admin.orders.shippingHeading')}</h3>
            <div className="mt-1" data-testid="order-delivery">
              {order.delivery && (
                <p className="font-medium">
                  {t(`delivery.kinds.${order.delivery.kind}`)}
                  {order.delivery.point && <span className="ml-1 font-mono">{order.delivery.point}</span>} ·{' '}
                  <span className="tabular-nums">{order.delivery.priceCents === 0 ? t('delivery.free') : formatPrice(order.delivery.priceCents, order.currency, locale)}</span>
                </p>
              )}
              <address className="not-italic">
                {order.shipping.fullName}
                {order.delivery?.kind === 'locker' || order.delivery?.kind === 'pickup' ? (
                  <>
                    <br />
                    {order.delivery.pointAddress}
                  </>
                ) : (
                  <>
                    <br />
                    {order.shipping.address}
                    <br />
                    {order.shipping.zipCode} {order.shipping.city}
                  </>
                )}
                {order.delivery?.country && order.delivery.country !== 'PL' && (
                  <>
                    <br />
                    {countryName(order.delivery.country, locale)}
                  </>
                )}
                {order.delivery?.phone && (
                  <>
                    <br />
                    <a href={`tel:${order.delivery.phone}`} className="text-leaf underline underline-offset-4">{order.delivery.phone}</a>
                  </>
                )}
              </address>
            </div>
            <h3 className="mt-5 font-sans text-sm font-semibold">{t('admin.orders.paymentHeading')}</h3>
            <p className="mt-1">{t('admin.orders.provider')}: {order.paymentProvider}</p>
            <p className="break-all">{t('admin.orders.paymentReference')}: <span className="font-mono">{order.paymentReference}</span></p>
            {order.refunds.length > 0 && (
              <>
                <h3 className="mt-5 font-sans text-sm font-semibold">{t('admin.orders.refundsHeading')}</h3>
                <ul className="mt-1 grid gap-1" data-testid="order-refunds">
                  {order.refunds.map((refund) => (
                    <li key={refund.id}>
                      <span className="font-semibold tabular-nums">{formatPrice(refund.amountCents, order.currency, locale)}</span>{' '}
                      <span className="text-muted">· {t(`admin.orders.refundStatus.${refund.status}`)}</span>
                      {refund.providerRefundId && <span className="block font-mono text-xs break-all text-muted">{refund.providerRefundId}</span>}
                    </li>
                  ))}
                </ul>
              </>
            )}
          </section>
          <OrderInvoice invoices={loaderData.invoices} buyer={loaderData.invoiceBuyer} requested={loaderData.invoiceRequested} paid={order.paymentStatus === 'succeeded'} nothing={nothingToInvoice({ shippingStatus: order.shippingStatus, refundedCents: order.refundedCents, totalCents: order.totalCents })} errors={result && !result.ok && result.invoice ? result.invoice : undefined} busy={busy} canIssue={loaderData.canIssueInvoice} />
        </div>
      </div>

      <section aria-labelledby="order-timeline" className="rounded-3xl bg-paper p-6 ring-1 ring-sand">
        <h2 id="order-timeline" className="text-lg font-semibold">{t('admin.orders.timeline')}</h2>
        <ol className="mt-4 grid gap-3 border-l-2 border-sand pl-5 text-sm" data-testid="order-timeline">
          {order.timeline.map((entry, i) => (
            <li key={`${entry.at}-${i}`}>
              <time dateTime={entry.at} className="block text-xs text-muted">{formatDateTime(entry.at, locale)}</time>
              <span className="font-medium">
                {t(`admin.orders.events.${entry.kind === 'cancelled' && !entry.amountCents ? 'cancelledNoRefund' : entry.kind === 'delivered' && entry.deliveredAt ? 'deliveredOn' : entry.kind}`, { by: entry.by ?? '', date: entry.deliveredAt ? formatDate(entry.deliveredAt, locale) : '', detail: entry.detail ?? '', status: entry.mailStatus ? t(`admin.orders.mailStatus.${entry.mailStatus}`) : '', amount: entry.amountCents ? formatPrice(entry.amountCents, order.currency, locale) : '', due: entry.dueAt ? formatDate(entry.dueAt, locale) : '' })}
              </span>
              {entry.detail && entry.kind !== 'mail' && entry.kind !== 'withdrawal' && entry.kind !== 'stock_short' && entry.kind !== 'replaced' && <span className="ml-2 font-mono text-xs text-muted">{entry.detail}</span>}
              {entry.kind === 'mail' && entry.mailStatus === 'failed' && entry.mailId && (
                <div className="mt-2 flex flex-wrap items-center gap-3 rounded-2xl bg-cherry-light px-4 py-3 text-cherry" data-testid="mail-refused">
                  <p className="min-w-0 flex-1">{t('admin.orders.mailRefused', { reason: entry.mailError ?? '' })}</p>
                  <Form method="post">
                    <input type="hidden" name="intent" value="mail-again" />
                    <input type="hidden" name="mailId" value={entry.mailId} />
                    <button type="submit" className="btn-outline bg-paper px-4 py-2" disabled={busy}>
                      {t('admin.orders.mailAgain')}
                    </button>
                  </Form>
                </div>
              )}
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}

/** The order's InPost shipment: its parcel size and "Create shipment", then InPost's confirmation, then the label. */
function InpostShipment({ order, inpost, busy }: { order: Route.ComponentProps['loaderData']['order']; inpost: NonNullable<Route.ComponentProps['loaderData']['inpost']>; busy: boolean }) {
  const { t, locale } = useI18n();
  return (
    <div className="mt-4 grid gap-3 rounded-2xl bg-cream p-4 text-sm ring-1 ring-sand" data-testid="inpost-shipment">
      <div>
        <h3 className="font-sans text-sm font-semibold">{t('admin.orders.shipment.heading')}</h3>
        <p className="mt-1 text-muted">
          {inpost.service === 'locker' ? t('admin.orders.shipment.toLocker', { code: order.delivery?.point ?? '' }) : t('admin.orders.shipment.byCourier')} ·{' '}
          {t('admin.orders.shipment.weight', { weight: `${formatNumber(inpost.grams / 1000, locale)} kg` })}
        </p>
      </div>
      {inpost.canCreate ? (
        <Form method="post" className="grid gap-3">
          <input type="hidden" name="intent" value="shipment" />
          <p className="text-muted">{t('admin.orders.shipment.intro')}</p>
          <div>
            <label htmlFor="parcel-size" className="field-label">{t('admin.orders.shipment.size')}</label>
            <select id="parcel-size" name="size" defaultValue={inpost.suggestedSize} className="field-input">
              {parcelSizes.map((size) => (
                <option key={size} value={size}>{t(`admin.orders.shipment.sizes.${size}`)}</option>
              ))}
            </select>
          </div>
          <button type="submit" className="btn-primary" disabled={busy}>
            <PackagePlus aria-hidden="true" className="h-4 w-4" />
            {t('admin.orders.shipment.create')}
          </button>
        </Form>
      ) : order.shipment ? (
        <>
          <p className="font-medium" data-testid="inpost-shipment-id">
            {t('admin.orders.shipment.created', { id: order.shipment.id, size: isParcelSize(order.shipment.size) ? parcelSizeLetters[order.shipment.size] : '' })}
          </p>
          {order.shippingStatus === 'cancelled' ? (
            <p className="text-cherry" data-testid="inpost-shipment-cancelled">{t('admin.orders.shipment.cancelledNote', { id: order.shipment.id })}</p>
          ) : order.shippingStatus === 'processing' ? (
            <Form method="post" className="grid gap-2">
              <input type="hidden" name="intent" value="check-shipment" />
              <p className="text-muted">{t('admin.orders.shipment.waiting')}</p>
              <button type="submit" className="btn-outline" disabled={busy}>
                <RefreshCw aria-hidden="true" className="h-4 w-4" />
                {t('admin.orders.shipment.check')}
              </button>
            </Form>
          ) : order.customer.removed ? (
            <p className="text-muted" data-testid="inpost-label-removed">{t('admin.orders.errors.label_removed')}</p>
          ) : (
            <a href={`/admin/orders/${order.id}/label`} className="btn-primary" download>
              <Download aria-hidden="true" className="h-4 w-4" />
              {t('admin.orders.shipment.label')}
            </a>
          )}
        </>
      ) : null}
    </div>
  );
}

/** Whether the goods go back to stock (a cancellation before shipping: yes by default; returned goods: the owner's call). */
function BackToStock({ id, hint, defaultChecked = false }: { id: string; hint: string; defaultChecked?: boolean }) {
  const { t } = useI18n();
  return (
    <div className="flex items-start gap-2 text-left text-sm">
      <input id={id} name="backToStock" type="checkbox" defaultChecked={defaultChecked} aria-describedby={`${id}-hint`} className="mt-1 h-4 w-4 accent-leaf" />
      <div>
        <label htmlFor={id} className="font-medium">{t('admin.orders.backToStock')}</label>
        <p id={`${id}-hint`} className="text-xs text-muted">{hint}</p>
      </div>
    </div>
  );
}
