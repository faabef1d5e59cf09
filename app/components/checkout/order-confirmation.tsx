import { CheckCircle2, CircleAlert } from 'lucide-react';
import { Link } from 'react-router';
import { formatDate, formatPrice } from '~/lib/format';
import type { OrderView } from '~/modules/orders/orders.types';
import { useI18n, useLocalePath } from '~/modules/i18n/react';
import { OrderLines, linesOfOrder, orderDiscountShown } from './order-lines';

/**
 * The one design for "your order is placed", shared by the checkout's done step and /success (the page a
 * payment provider returns to): a check mark, the page's title, the order's label ("Order X7K2QA", never
 * the database id), its date, lines, payment state and total, and the way on. `reference` is shown when a
 * provider's reference is all there is (no order for this visitor).
 */
export function OrderConfirmation({
  title,
  heading,
  text,
  order,
  reference,
  labelTestId,
  profileLabel,
  orderPage = '/profile?tab=orders',
}: {
  title: string;
  heading?: string;
  text: string;
  order: OrderView | null;
  reference?: string | null;
  labelTestId: string;
  profileLabel: string;
  /** Where the order is followed: My Orders, or a guest's private order page. */
  orderPage?: string;
}) {
  const path = useLocalePath();
  const { t, locale } = useI18n();
  // Paid after the coffee sold out, or after a newer order replaced it: not a thank-you (it is refunded in full).
  const replaced = order?.replaced === true && order.paymentStatus === 'succeeded';
  const short = order?.stockShort === true || replaced;
  return (
    <div className="container-page py-12 md:py-20">
      <section className="mx-auto max-w-2xl rounded-3xl bg-paper p-6 ring-1 ring-sand sm:p-10" aria-labelledby="confirmation-title">
        <div className="text-center">
          <span className={`mx-auto flex h-16 w-16 items-center justify-center rounded-full ${short ? 'bg-cherry-light' : 'bg-leaf-light'}`}>
            {short ? <CircleAlert aria-hidden="true" className="h-9 w-9 text-cherry" /> : <CheckCircle2 aria-hidden="true" className="h-9 w-9 text-leaf" />}
          </span>
          <h1 id="confirmation-title" className="mt-5 text-3xl font-semibold md:text-4xl">{replaced ? t('checkout.done.replacedHeading') : short ? t('checkout.done.stockShortHeading') : title}</h1>
          {heading && !short && <h2 className="mt-3 text-xl font-semibold text-roast-800">{heading}</h2>}
          <p className="mt-2 text-muted" data-testid={replaced ? 'order-replaced' : short ? 'order-stock-short' : undefined}>
            {replaced ? t('checkout.done.replacedText') : short ? t('checkout.done.stockShortText') : text}
          </p>
          {reference && !order && (
            <p className="mt-6 text-lg font-semibold tracking-wide" data-testid={labelTestId}>
              {t('checkout.success.reference', { ref: reference })}
            </p>
          )}
        </div>
        {order && (
          <div className="mt-8 border-t border-sand pt-6">
            <p className="flex flex-wrap items-baseline justify-between gap-2">
              <span className="font-serif text-xl font-semibold tracking-wide" data-testid={labelTestId}>
                {t('checkout.order', { label: order.label })}
              </span>
              <span className="text-sm text-muted">{formatDate(order.createdAt, locale)}</span>
            </p>
            <div className="mt-2">
              <OrderLines lines={linesOfOrder(order)} currency={order.currency} totalCents={order.totalCents} placed goodsCents={order.goodsCents} delivery={order.delivery} discount={orderDiscountShown(order)} vat={order.vat} />
            </div>
            <p className="mt-4 flex items-center gap-2 text-sm text-muted">
              <span
                aria-hidden="true"
                className={`h-2 w-2 shrink-0 rounded-full ${order.paymentStatus === 'succeeded' ? 'bg-leaf' : 'bg-gold'}`}
              />
              {short ? t('checkout.done.refunded') : order.paymentStatus === 'succeeded' ? t('checkout.success.paid') : t('checkout.success.processing')} ·{' '}
              {formatPrice(order.totalCents, order.currency, locale)}
            </p>
          </div>
        )}
        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <Link to={path('/')} className="btn-primary">{t('checkout.continueShopping')}</Link>
          <Link to={path(orderPage)} className="btn-outline">{profileLabel}</Link>
        </div>
      </section>
    </div>
  );
}
