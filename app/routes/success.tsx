import { OrderConfirmation } from '~/components/checkout/order-confirmation';
import { getMessages, getT } from '~/modules/i18n/index.server';
import { useI18n } from '~/modules/i18n/react';
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
    messages: getMessages(locale, 'checkout', 'cart', 'delivery'),
  };
}

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
      profileLabel={t('checkout.viewProfile')}
    />
  );
}
