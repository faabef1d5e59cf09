import { ArrowLeft } from 'lucide-react';
import { Suspense, lazy, useEffect, useState } from 'react';
import { Form, Link, createContext, data, redirect, useNavigation, type ShouldRevalidateFunction } from 'react-router';
import { OrderConfirmation } from '~/components/checkout/order-confirmation';
import { CheckoutSteps } from '~/components/checkout/checkout-steps';
import { LegalSentence } from '~/components/legal/legal-sentence';
import { OrderLines, type SummaryLine, linesOfOrder } from '~/components/checkout/order-lines';
import { PaymentUnavailable } from '~/components/checkout/payment-unavailable';
import { TestCardForm } from '~/components/checkout/test-card-form';
import { StockNotes } from '~/components/cart/stock-notes';
import { FormField } from '~/components/ui/form-field';
import { consentedVisitorId } from '~/lib/analytics';
import { useClientValidation } from '~/lib/use-client-validation';
import { formatPrice } from '~/lib/format';
import { field, readForm } from '~/http/body.server';
import { parseShippingForm, type ShippingAddress } from '~/modules/checkout/checkout.schema';
import { confirmOrderPayment, payWithCard, paymentServices, reviewCheckout, startPayment } from '~/modules/checkout/index.server';
import { visitorIdSchema } from '~/modules/analytics/analytics.schema';
import { getMessages, getT } from '~/modules/i18n/index.server';
import { useI18n, useLocalePath } from '~/modules/i18n/react';
import { getOrderForUser } from '~/modules/orders/index.server';
import type { Route } from './+types/checkout';
import { appContext } from '~/context';
import { pathFor, requireUser, shopperContext } from '~/http/shopper.server';

const StripePayment = lazy(() => import('~/components/checkout/stripe-payment'));

type PaymentStep = {
  step: 'payment';
  orderId: string;
  amountCents: number;
  lines: SummaryLine[];
  provider: 'test' | 'stripe';
  clientSecret?: string;
  publishableKey?: string;
  available: boolean;
  error?: string | null;
};
/** Set by the action when its answer is the payment step: the page shows that, so the loader skips the review. */
const paymentStepShown = createContext<boolean>(false);

type ReviewErrors = { step: 'review'; fieldErrors?: Record<string, string | undefined>; formError?: string; values?: Record<string, string> };

export async function loader({ url, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  const user = requireUser(shopper, url);
  const { locale, cartId } = shopper;
  const t = getT(locale);
  const base = { meta: { title: `${t('checkout.title')} · Kopi` }, messages: getMessages(locale, 'checkout', 'cart') };

  if (url.searchParams.get('step') === 'done') {
    const orderId = url.searchParams.get('order') ?? '';
    // After Stripe confirmed in the browser the webhook may not have arrived yet: ask the provider (idempotent).
    await confirmOrderPayment(paymentServices(app), { userId: user.id, orderId });
    const order = await getOrderForUser(app.db, app.storage, user.id, orderId);
    if (!order) throw redirect(pathFor(shopper, '/checkout'));
    // A test-provider order is paid at once or not at all; only a real provider can still be processing.
    if (order.paymentStatus !== 'succeeded' && app.payments.name === 'test') throw redirect(pathFor(shopper, '/checkout'));
    return { ...base, step: 'done' as const, order };
  }

  // The action just answered with the payment step (a form post without JavaScript renders in the same request).
  if (context.get(paymentStepShown)) return { ...base, step: 'review' as const, review: null };
  const review = await reviewCheckout(app.db, app.storage, { userId: user.id, cartId, locale });
  // An empty cart goes back to the cart, unless the stock just emptied it: then the review says what sold out.
  if (review.cart.lines.length === 0 && review.cart.stockCapped.length === 0) throw redirect(pathFor(shopper, '/cart'));
  return { ...base, step: 'review' as const, review };
}

/** After the action answered with the payment step, the review's data is not needed (browser navigations). */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  (actionResult as { step?: string } | undefined)?.step === 'payment' ? false : defaultShouldRevalidate;

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.meta.title }, { name: 'robots', content: 'noindex' }];

export async function action({ request, url, context }: Route.ActionArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  const user = requireUser(shopper, url);
  const form = await readForm(request);
  const intent = field(form, 'intent');
  const { locale, cartId } = shopper;
  const provider = app.payments;

  const paymentStep = async (orderId: string, extra: Partial<PaymentStep>) => {
    const order = await getOrderForUser(app.db, app.storage, user.id, orderId);
    if (!order) throw redirect(pathFor(shopper, '/checkout'));
    if (order.paymentStatus === 'succeeded') throw redirect(pathFor(shopper, `/checkout?step=done&order=${order.id}`));
    context.set(paymentStepShown, true);
    return {
      step: 'payment' as const,
      orderId: order.id,
      amountCents: order.totalCents,
      // The last screen before paying shows the price per kilogram too (the order keeps each variant's weight).
      lines: linesOfOrder(order).map((line, i) => ({ ...line, netWeightGrams: order.lines[i].netWeightGrams })),
      provider: provider.name,
      publishableKey: provider.publishableKey,
      available: true,
      ...extra,
    } satisfies PaymentStep;
  };

  if (intent === 'proceed') {
    const values = Object.fromEntries([...new Set(form.keys())].map((key) => [key, field(form, key)]));
    const parsed = parseShippingForm(form);
    if (!parsed.ok) return data<ReviewErrors>({ step: 'review', fieldErrors: parsed.fieldErrors, values }, { status: 400 });
    const available = await provider.checkHealth();
    if (!available) return data<ReviewErrors>({ step: 'review', formError: 'checkout.errors.cannotConnect', values }, { status: 503 });
    const visitor = visitorIdSchema.safeParse(field(form, 'visitorId'));
    const result = await startPayment(app.db, provider, {
      userId: user.id,
      email: user.email,
      locale,
      cartId,
      address: parsed.data,
      visitorId: visitor.success ? visitor.data : null,
      reservationMinutes: app.config.stockReservationMinutes,
      log: app.log,
    });
    if (!result.ok) {
      if (result.reason === 'empty_cart') throw redirect(pathFor(shopper, '/cart'));
      // The review shows the cart again, each line capped to what is left and said so.
      if (result.reason === 'out_of_stock') return data<ReviewErrors>({ step: 'review', formError: 'checkout.errors.outOfStock', values }, { status: 409 });
      const formError = result.reason === 'address_incomplete' ? 'checkout.errors.addressIncomplete' : 'checkout.errors.cannotConnect';
      return data<ReviewErrors>({ step: 'review', formError, values }, { status: result.reason === 'unavailable' ? 503 : 400 });
    }
    return paymentStep(result.orderId, { clientSecret: result.clientSecret });
  }

  if (intent === 'pay') {
    const orderId = field(form, 'orderId');
    const [month, year] = field(form, 'cardExpiry').split('/').map((p) => p.trim());
    const result = await payWithCard(paymentServices(app), {
      userId: user.id,
      orderId,
      card: {
        number: field(form, 'cardNumber'),
        expMonth: Number(month),
        expYear: Number(year?.length === 2 ? `20${year}` : year),
        cvc: field(form, 'cardCvc'),
      },
    });
    if (result.ok) throw redirect(pathFor(shopper, `/checkout?step=done&order=${result.orderId}`));
    if (result.code === 'already_paid') throw redirect(pathFor(shopper, `/checkout?step=done&order=${orderId}`));
    return data(await paymentStep(orderId, { error: result.code }), { status: result.code === 'out_of_stock' ? 409 : 402 });
  }
  return data<ReviewErrors>({ step: 'review', formError: 'checkout.errors.generic' }, { status: 400 });
}

export default function CheckoutPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useI18n();
  const payment = actionData && 'step' in actionData && actionData.step === 'payment' ? (actionData as PaymentStep) : null;
  const reviewResult = actionData && 'step' in actionData && actionData.step === 'review' ? (actionData as ReviewErrors) : undefined;
  if (loaderData.step === 'done') {
    const { order } = loaderData;
    return (
      <OrderConfirmation
        title={t('checkout.done.title')}
        heading={t('checkout.done.heading')}
        text={order.paymentStatus === 'succeeded' ? t('checkout.done.text') : t('checkout.success.processing')}
        order={order}
        labelTestId="order-id"
        profileLabel={t('checkout.viewInProfile')}
      />
    );
  }
  const step = payment ? 'payment' : 'review';

  return (
    <div className="container-page py-10 md:py-14">
      <h1 className="text-4xl font-semibold md:text-5xl">{t('checkout.title')}</h1>
      <div className="mt-6">
        <CheckoutSteps current={step} />
      </div>
      <div className="mt-8">
        {payment ? <Payment payment={payment} /> : loaderData.review && <Review review={loaderData.review} result={reviewResult} />}
      </div>
    </div>
  );
}

function Review({ review, result }: { review: NonNullable<Awaited<ReturnType<typeof reviewCheckout>>>; result?: ReviewErrors }) {
  const path = useLocalePath();
  const { t } = useI18n();
  const busy = useNavigation().state === 'submitting';
  const validation = useClientValidation(parseShippingForm);
  const errors: Record<string, string | undefined> = validation.errors ?? result?.fieldErrors ?? {};
  const value = (name: keyof ShippingAddress) => result?.values?.[name] ?? review.address[name];
  const savedAddress = Object.values(review.address).some(Boolean);
  const lines: SummaryLine[] = review.cart.lines.map((l) => ({ ...l, key: l.variantId }));
  return (
    <div className="grid gap-10 lg:grid-cols-[1fr_24rem]">
      <section aria-labelledby="review-heading" className="rounded-3xl bg-paper p-6 ring-1 ring-sand">
        <h2 id="review-heading" className="text-2xl font-semibold">{t('checkout.review.heading')}</h2>
        {review.removedVariantIds.length > 0 && (
          <p role="status" className="mt-4 rounded-2xl bg-cherry-light px-4 py-3 text-sm text-cherry">
            {t('cart.removedUnavailable', { count: review.removedVariantIds.length })}
          </p>
        )}
        <StockNotes capped={review.cart.stockCapped} />
        <div className="mt-4">
          <OrderLines lines={lines} totalCents={review.cart.totalCents} />
        </div>
        <Link to={path('/cart')} className="btn-ghost mt-6 px-3">
          <ArrowLeft aria-hidden="true" className="h-4 w-4" />
          {t('checkout.backToCart')}
        </Link>
      </section>

      {lines.length === 0 ? (
        <section aria-labelledby="nothing-left" className="h-fit rounded-3xl bg-paper p-6 ring-1 ring-sand" data-testid="nothing-left">
          <h2 id="nothing-left" className="text-2xl font-semibold">{t('checkout.review.nothingLeft')}</h2>
          <p className="mt-2 text-sm text-muted">{t('checkout.review.nothingLeftText')}</p>
          <Link to={path('/')} className="btn-primary mt-6 w-full py-3.5 text-base">{t('checkout.review.backToShop')}</Link>
        </section>
      ) : (
        <Form
          method="post"
          noValidate
          className="h-fit rounded-3xl bg-paper p-6 ring-1 ring-sand"
          onSubmit={validation.onSubmit}
        >
          <h2 className="text-2xl font-semibold">{t('checkout.address.heading')}</h2>
          <p className="mt-1 text-sm text-muted">{t(savedAddress ? 'checkout.address.hint' : 'checkout.address.hintNew')}</p>
          <input type="hidden" name="intent" value="proceed" />
          <VisitorIdField />
          <div className="mt-5 grid gap-4">
            <FormField name="fullName" label={t('checkout.address.fullName')} autoComplete="name" defaultValue={value('fullName')} error={errors.fullName} maxLength={120} required />
            <FormField name="address" label={t('checkout.address.address')} autoComplete="street-address" defaultValue={value('address')} error={errors.address} maxLength={200} required />
            <div className="grid gap-4 sm:grid-cols-[2fr_1fr] lg:grid-cols-1 xl:grid-cols-[2fr_1fr]">
              <FormField name="city" label={t('checkout.address.city')} autoComplete="address-level2" defaultValue={value('city')} error={errors.city} maxLength={100} required />
              <FormField name="zipCode" label={t('checkout.address.zipCode')} autoComplete="postal-code" defaultValue={value('zipCode')} error={errors.zipCode} maxLength={20} required />
            </div>
          </div>
          <div role="alert">{result?.formError && <p className="mt-4 rounded-2xl bg-cherry-light px-4 py-3 text-sm text-cherry">{t(result.formError)}</p>}</div>
          <button type="submit" className="btn-primary mt-6 w-full py-3.5 text-base" disabled={busy}>
            {t('checkout.proceed')}
          </button>
        </Form>
      )}
    </div>
  );
}

function Payment({ payment }: { payment: PaymentStep }) {
  const path = useLocalePath();
  const { t, locale } = useI18n();
  const amount = formatPrice(payment.amountCents, locale);
  return (
    <div className="grid gap-10 lg:grid-cols-[1fr_24rem]">
      <section aria-labelledby="payment-heading" className="rounded-3xl bg-paper p-6 ring-1 ring-sand">
        <h2 id="payment-heading" className="text-2xl font-semibold">{t('checkout.payment.heading')}</h2>
        <div className="mt-5">
          {!payment.available ? (
            <PaymentUnavailable />
          ) : payment.provider === 'stripe' && payment.clientSecret && payment.publishableKey ? (
            <Suspense fallback={<p role="status" className="text-sm text-muted">{t('checkout.loading')}</p>}>
              <StripePayment publishableKey={payment.publishableKey} clientSecret={payment.clientSecret} orderId={payment.orderId} amount={amount} />
            </Suspense>
          ) : (
            <TestCardForm orderId={payment.orderId} amount={amount} error={payment.error} />
          )}
          <LegalSentence name="payment" links={{ terms: 'terms', returns: 'shipping-returns' }} className="mt-4 text-sm leading-relaxed text-muted" />
        </div>
        <Link to={path('/checkout')} className="btn-ghost mt-6 px-3">
          <ArrowLeft aria-hidden="true" className="h-4 w-4" />
          {t('checkout.backToReview')}
        </Link>
      </section>
      <aside className="h-fit rounded-3xl bg-paper p-6 ring-1 ring-sand" aria-labelledby="summary-heading">
        <h2 id="summary-heading" className="text-xl font-semibold">{t('cart.summary')}</h2>
        <div className="mt-2">
          <OrderLines lines={payment.lines} totalCents={payment.amountCents} />
        </div>
      </aside>
    </div>
  );
}

/**
 * With consent, the analytics visitor id goes with the order, so the server records the purchase when the
 * payment is confirmed (the browser never reports a purchase itself). Without consent the field stays empty.
 */
function VisitorIdField() {
  const [visitorId, setVisitorId] = useState('');
  useEffect(() => setVisitorId(consentedVisitorId() ?? ''), []);
  return <input type="hidden" name="visitorId" value={visitorId} />;
}

