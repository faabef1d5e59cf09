import { OrderConfirmation } from '~/components/checkout/order-confirmation';
import { getMessages, getT } from '~/modules/i18n/index.server';
import { useI18n } from '~/modules/i18n/react';
import { confirmOrderPayment, paymentServices } from '~/modules/checkout/index.server';
import { getOrderForUser, guestOrderPath } from '~/modules/orders/index.server';
import type { Route } from './+types/success';
import { appContext } from '~/context';
import { privatePageHeaders } from '~/http/private-page.server';
import { shopperContext } from '~/http/shopper.server';

/**
 * Where a payment provider returns after a redirect: the order's details for its owner, otherwise the
 * reference from `session_id` (its first 8 characters, as the spec shows it).
 */
export async function loader({ url, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const { locale, user, cartId } = context.get(shopperContext);
  const orderId = url.searchParams.get('order');
  const paymentId = url.searchParams.get('payment_intent');
  // The customer's order, or a guest's from the cart it was made from.
  const buyer = user ? { userId: user.id } : { userId: null, cartId };
  if (orderId && (user || cartId)) {
    // Back from a payment redirect: ask the provider now rather than wait for its webhook (both are idempotent).
    await confirmOrderPayment(paymentServices(app), { ...buyer, orderId, ...(paymentId ? { paymentId } : {}) });
  }
  const order = orderId && (user || cartId) ? await getOrderForUser(app.db, app.storage, user ? user.id : { cartId }, orderId) : null;
  // A guest follows the order on its private page.
  const guestPage = order && !user ? await guestOrderPath(app.db, order.id) : null;
  const sessionId = url.searchParams.get('session_id') ?? '';
  return {
    order,
    guestPage,
    reference: sessionId ? sessionId.slice(0, 8) : null,
    meta: { title: `${getT(locale)('checkout.success.title')} · Kopi` },
    messages: getMessages(locale, 'checkout', 'cart', 'delivery'),
  };
}

// A guest's confirmation links to the order's private page (its key): not for a cache, not for another site.
export const headers: Route.HeadersFunction = () => privatePageHeaders;

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.meta.title }, { name: 'robots', content: 'noindex' }];

export default function SuccessPage({ loaderData }: Route.ComponentProps) {
  const { t } = useI18n();
  return (
    <OrderConfirmation
      title={t('checkout.success.title')}
      text={t('checkout.success.text')}
      order={loaderData.order}
      reference={loaderData.reference}
      labelTestId="order-reference"
      profileLabel={loaderData.guestPage ? t('checkout.guest.followOrder') : t('checkout.viewProfile')}
      orderPage={loaderData.guestPage ?? undefined}
    />
  );
}
