import { CheckCircle2 } from 'lucide-react';
import { Link } from 'react-router';
import { OrderLines, linesOfOrder } from '~/components/checkout/order-lines';
import { formatDate, formatPrice } from '~/lib/format';
import { getMessages, getT } from '~/modules/i18n/index.server';
import { useI18n, useLocalePath } from '~/modules/i18n/react';
import { confirmOrderPayment, paymentServices } from '~/modules/checkout/index.server';
import { getOrderForUser } from '~/modules/orders/index.server';
import type { Route } from './+types/success';
import { appContext } from '~/context';
import { shopperContext } from '~/http/shopper.server';

/**
 * Where a payment provider returns after a redirect: the order's details for its owner, otherwise the
 * reference from `session_id` (its first 8 characters, as the spec shows it).
 */
export async function loader({ url, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const { locale, user } = context.get(shopperContext);
  const orderId = url.searchParams.get('order');
  const paymentId = url.searchParams.get('payment_intent');
  if (user && orderId) {
    // Back from a payment redirect: ask the provider now rather than wait for its webhook (both are idempotent).
    await confirmOrderPayment(paymentServices(app), { userId: user.id, orderId, ...(paymentId ? { paymentId } : {}) });
  }
  const order = user && orderId ? await getOrderForUser(app.db, app.storage, user.id, orderId) : null;
  const sessionId = url.searchParams.get('session_id') ?? '';
  return {
    order,
    reference: sessionId ? sessionId.slice(0, 8) : null,
    meta: { title: `${getT(locale)('checkout.success.title')} · Kopi` },
    messages: getMessages(locale, 'checkout', 'cart'),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.meta.title }, { name: 'robots', content: 'noindex' }];

export default function SuccessPage({ loaderData }: Route.ComponentProps) {
  const path = useLocalePath();
  const { t, locale } = useI18n();
  const { order, reference } = loaderData;
  return (
    <div className="container-page py-12 md:py-20">
      <section className="mx-auto max-w-2xl rounded-3xl bg-paper p-8 ring-1 ring-sand" aria-labelledby="success-heading">
        <div className="text-center">
          <CheckCircle2 aria-hidden="true" className="mx-auto h-14 w-14 text-leaf" />
          <h1 id="success-heading" className="mt-4 text-3xl font-semibold md:text-4xl">{t('checkout.success.title')}</h1>
          <p className="mt-2 text-muted">{t('checkout.success.text')}</p>
          {reference && !order && (
            <p className="mt-6 font-mono text-lg" data-testid="order-reference">{t('checkout.success.reference', { ref: reference })}</p>
          )}
        </div>
        {order && (
          <div className="mt-8">
            <p className="flex flex-wrap justify-between gap-2 text-sm text-muted">
              <span className="font-mono text-base text-roast" data-testid="order-reference">{t('checkout.success.order', { label: order.label })}</span>
              <span>{formatDate(order.createdAt, locale)}</span>
            </p>
            <div className="mt-4">
              <OrderLines
                lines={linesOfOrder(order)}
                totalCents={order.totalCents}
                placed
              />
            </div>
            <p className="mt-4 text-sm text-muted">
              {order.paymentStatus === 'succeeded' ? t('checkout.success.paid') : t('checkout.success.processing')} · {formatPrice(order.totalCents, locale)}
            </p>
          </div>
        )}
        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <Link to={path('/')} className="btn-primary">{t('checkout.continueShopping')}</Link>
          <Link to={path('/profile?tab=orders')} className="btn-outline">{t('checkout.viewProfile')}</Link>
        </div>
      </section>
    </div>
  );
}
