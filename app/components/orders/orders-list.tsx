import { BadgeCheck, FileText, Star, Truck, Undo2 } from 'lucide-react';
import { invoiceWindowEnds, nothingToInvoice } from '~/modules/invoices/buyer';
import { Link } from 'react-router';
import { OrderLines, linesOfOrder, orderDiscountShown } from '~/components/checkout/order-lines';
import { formatDate, formatPrice } from '~/lib/format';
import { type OrderView, displayStatus, reviewableProductIds, withdrawalOpen } from '~/modules/orders/orders.types';
import { StatusBadge } from './status-badge';
import { carrierNames, isCarrier, trackingUrl } from '~/modules/fulfilment/carriers';
import { useI18n, useLocalePath, useT } from '~/modules/i18n/react';

/** The customer's orders, newest first, with "Show more" (a link, so it works without JavaScript). */
/** An order's invoices and corrections as My Orders lists them. */
export type OrderInvoices = Record<string, Array<{ id: string; number: string; kind: 'invoice' | 'correction'; pending?: boolean }>>;

export function OrdersList({ orders, hasMore, page, reviewed = [], invoices = {}, canAskInvoice = false }: { orders: OrderView[]; hasMore: boolean; page: number; reviewed?: string[]; invoices?: OrderInvoices; canAskInvoice?: boolean }) {
  const path = useLocalePath();
  const t = useT();
  return (
    <div>
      <ul className="grid gap-6">
        {orders.map((order, i) => (
          <OrderCard key={order.id} order={order} position={i + 1} reviewed={reviewed} invoices={invoices[order.id]} canAskInvoice={canAskInvoice} />
        ))}
      </ul>
      {hasMore && (
        <div className="mt-8 flex justify-center">
          <Link to={path(`/profile?tab=orders&page=${page + 1}#order-${orders.length + 1}`)} preventScrollReset className="btn-outline px-8 py-3">
            {t('orders.showMore')}
          </Link>
        </div>
      )}
    </div>
  );
}

/**
 * One order in My Orders: its number and date, its status, lines, parcel, address, and what can be done next.
 * A guest's (`guestKey`, on its private page) withdraws through the key and has no reviews (they need an account).
 */
export function OrderCard({ order, position, reviewed, guestKey, invoices, canAskInvoice = false }: { order: OrderView; position: number; reviewed: string[]; guestKey?: string; invoices?: OrderInvoices[string]; canAskInvoice?: boolean }) {
  const path = useLocalePath();
  const { t, locale } = useI18n();
  const { status, partlyWithdrawn } = displayStatus({ ...order, positions: order.lines.map((line) => line.position) });
  return (
    <li id={`order-${position}`} className="scroll-mt-28 rounded-3xl bg-paper p-6 ring-1 ring-sand" data-testid="order">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h3 className="font-sans text-lg font-semibold">{t('orders.label', { label: order.label })}</h3>
          <p className="text-sm text-muted">{t('orders.placed', { date: formatDate(order.createdAt, locale) })}</p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {order.paymentStatus === 'succeeded' && order.refundedCents === 0 && (
            <span className="inline-flex items-center gap-1 rounded-full bg-leaf-light px-3 py-1 text-xs font-semibold text-leaf-dark">
              <BadgeCheck aria-hidden="true" className="h-3.5 w-3.5" />
              {t('orders.paymentSuccessful')}
            </span>
          )}
          {order.refundedCents > 0 && status !== 'returned' && (
            <span className="inline-flex items-center gap-1 rounded-full bg-sand px-3 py-1 text-xs font-semibold text-roast" data-testid="order-refunded">
              <Undo2 aria-hidden="true" className="h-3.5 w-3.5" />
              {order.refundedCents >= order.totalCents ? t('orders.refunded') : t('orders.partlyRefunded', { amount: formatPrice(order.refundedCents, order.currency, locale) })}
            </span>
          )}
          {partlyWithdrawn && (
            <span className="inline-flex items-center gap-1 rounded-full bg-gold/20 px-3 py-1 text-xs font-semibold text-roast" data-testid="order-withdrawn">
              <Undo2 aria-hidden="true" className="h-3.5 w-3.5" />
              {t('orders.withdrawn')}
            </span>
          )}
          <StatusBadge status={status} testId="order-status" />
        </div>
      </div>
      <div className="mt-4">
        <OrderLines lines={linesOfOrder(order)} currency={order.currency} totalCents={order.totalCents} placed goodsCents={order.goodsCents} delivery={order.delivery} discount={orderDiscountShown(order)} vat={order.vat} />
      </div>
      {order.stockShort && (
        <p className="mt-4 rounded-2xl bg-cherry-light px-4 py-3 text-sm text-cherry" data-testid="order-stock-short">
          {t('orders.stockShort')}
        </p>
      )}
      {order.replaced && (
        <p className="mt-4 rounded-2xl bg-cherry-light px-4 py-3 text-sm text-cherry" data-testid="order-replaced">
          {t('orders.replaced')}
        </p>
      )}
      {order.parcel?.trackingNumber && <Parcel parcel={order.parcel} />}
      <p className="mt-4 text-sm text-muted" data-testid="order-ship-to">
        <span className="font-medium text-roast">{t(order.delivery?.kind === 'pickup' ? 'orders.pickupBy' : 'orders.shipTo')}</span>{' '}
        {order.delivery?.kind === 'locker'
          ? `${order.shipping.fullName}, ${t('delivery.locker', { code: order.delivery.point ?? '' })}: ${order.delivery.pointAddress ?? ''}`
          : order.delivery?.kind === 'pickup'
            ? `${order.shipping.fullName} · ${order.delivery.pointAddress ?? ''}`
            : `${order.shipping.fullName}, ${order.shipping.address}, ${order.shipping.zipCode} ${order.shipping.city}`}
      </p>
      {!guestKey && <Invoices order={order} invoices={invoices ?? []} canAsk={canAskInvoice} />}
      {!guestKey && <ReviewLinks order={order} reviewed={reviewed} />}
      {withdrawalOpen(order) && (
        <Link to={path(`/withdraw?order=${order.id}${guestKey ? `&key=${encodeURIComponent(guestKey)}` : ''}`)} className="mt-3 inline-flex items-center gap-1.5 text-sm font-medium text-leaf underline underline-offset-4 hover:text-leaf-dark">
          <Undo2 aria-hidden="true" className="h-3.5 w-3.5" />
          {t('legal.withdraw')}
        </Link>
      )}
    </li>
  );
}

/** The order's invoices to download, or "Ask for an invoice" while the customer still may (the server decides again). */
function Invoices({ order, invoices, canAsk }: { order: OrderView; invoices: OrderInvoices[string]; canAsk: boolean }) {
  const t = useT();
  const path = useLocalePath();
  const open = canAsk && order.paymentStatus === 'succeeded' && order.paidAt !== null && !nothingToInvoice(order) && new Date() < invoiceWindowEnds(order.deliveredAt ?? order.paidAt);
  if (invoices.length === 0 && !open) return null;
  return (
    <ul className="mt-4 flex flex-wrap gap-x-5 gap-y-2 text-sm" data-testid="order-invoices">
      {invoices.map((invoice) => (
        <li key={invoice.id}>
          {invoice.pending ? (
            <span className="inline-flex items-center gap-1.5 text-muted" data-testid="invoice-in-ksef">
              <FileText aria-hidden="true" className="h-3.5 w-3.5" />
              {t('invoices.inKsef', { number: invoice.number })}
            </span>
          ) : (
            <a href={`/invoices/${invoice.id}`} download className="inline-flex items-center gap-1.5 font-medium text-leaf underline underline-offset-4 hover:text-leaf-dark">
              <FileText aria-hidden="true" className="h-3.5 w-3.5" />
              {t(invoice.kind === 'correction' ? 'invoices.downloadCorrection' : 'invoices.download', { number: invoice.number })}
            </a>
          )}
        </li>
      ))}
      {open && !invoices.some((invoice) => invoice.kind === 'invoice') && (
        <li>
          <Link to={path(`/invoice/${order.id}`)} className="inline-flex items-center gap-1.5 font-medium text-leaf underline underline-offset-4 hover:text-leaf-dark">
            <FileText aria-hidden="true" className="h-3.5 w-3.5" />
            {t('invoices.ask')}
          </Link>
        </li>
      )}
    </ul>
  );
}

/** A delivered order's coffees that were kept, each with "Review" or "Edit your review" (one review per coffee). */
function ReviewLinks({ order, reviewed }: { order: OrderView; reviewed: string[] }) {
  const t = useT();
  const path = useLocalePath();
  const reviewable = reviewableProductIds(order);
  const products = [...new Map(order.lines.map((line) => [line.productId, line.title || t('product.unnamed')])).entries()].filter(([id]) => reviewable.includes(id));
  if (products.length === 0) return null;
  return (
    <ul className="mt-4 flex flex-wrap gap-2" data-testid="order-reviews">
      {products.map(([productId, title]) => {
        const done = reviewed.includes(productId);
        return (
          <li key={productId}>
            <Link
              to={path(`/review?product=${encodeURIComponent(productId)}`)}
              aria-label={t(done ? 'reviews.editLabel' : 'reviews.writeLabel', { name: title })}
              className="inline-flex items-center gap-1.5 rounded-full bg-cream px-3 py-1.5 text-sm font-medium text-roast ring-1 ring-sand hover:ring-roast/40"
            >
              <Star aria-hidden="true" className={`h-3.5 w-3.5 ${done ? 'fill-gold text-gold' : 'text-gold'}`} />
              {t(done ? 'reviews.edit' : 'reviews.write')}
              <span className="max-w-[14rem] truncate text-muted">· {title}</span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

/** The parcel's tracking number, a link to the carrier's tracking page where there is one. */
function Parcel({ parcel }: { parcel: { carrier: string; trackingNumber: string | null } }) {
  const t = useT();
  const carrier = isCarrier(parcel.carrier) ? carrierNames[parcel.carrier] : '';
  const url = trackingUrl(parcel.carrier, parcel.trackingNumber);
  const text = t('orders.tracking.number', { carrier, number: parcel.trackingNumber ?? '' }).trim();
  return (
    <p className="mt-4 flex items-center gap-2 text-sm" data-testid="order-tracking">
      <Truck aria-hidden="true" className="h-4 w-4 text-leaf" />
      <span className="font-medium text-roast">{t('orders.tracking.label')}:</span>
      {url ? (
        <a href={url} target="_blank" rel="noopener noreferrer" className="font-medium text-leaf underline underline-offset-4">{text}</a>
      ) : (
        <span>{text}</span>
      )}
    </p>
  );
}
