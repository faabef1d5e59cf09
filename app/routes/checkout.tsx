import { ArrowLeft, ArrowRight, Clock, Info } from 'lucide-react';
import { Suspense, lazy, useEffect, useState } from 'react';
import { Form, Link, createContext, data, redirect, useNavigation, type ShouldRevalidateFunction } from 'react-router';
import { OrderConfirmation } from '~/components/checkout/order-confirmation';
import { CheckoutSteps } from '~/components/checkout/checkout-steps';
import { LegalSentence } from '~/components/legal/legal-sentence';
import { type DeliveryRow, OrderLines, type SummaryLine, linesOfOrder } from '~/components/checkout/order-lines';
import { type DeliveryResult, type DeliveryStepData, DeliveryStepForm, initialMethodOf } from '~/components/checkout/delivery-step';
import { PaymentUnavailable } from '~/components/checkout/payment-unavailable';
import { TestPaymentMethods } from '~/components/checkout/test-payment-methods';
import { WaitingForBank } from '~/components/checkout/waiting-for-bank';
import { StockNotes } from '~/components/cart/stock-notes';
import { consentedVisitorId } from '~/lib/analytics';
import { formatPrice } from '~/lib/format';
import { field, readForm } from '~/http/body.server';
import { parseDeliveryForm } from '~/modules/checkout/checkout.schema';
import { confirmOrderPayment, deliveryStep, lockerSearchAllowed, payWithCard, paymentServices, reviewCheckout, startAsyncPayment, startPayment } from '~/modules/checkout/index.server';
import { type PaymentMethodKind, isBlikCode, isPaymentMethodKind, methodOfPreference, methodsFor } from '~/modules/payments/methods';
import { getProfile } from '~/modules/accounts/index.server';
import { cartWeightGrams } from '~/modules/cart/index.server';
import { type CartCode, goodsToPay } from '~/modules/cart/cart.types';
import { deliveryOptions, getDeliveryTable, chooseCountry, inCurrency } from '~/modules/delivery/index.server';
import type { Currency } from '~/modules/pricing/currencies';
import { visitorIdSchema } from '~/modules/analytics/analytics.schema';
import { getMessages, getT } from '~/modules/i18n/index.server';
import { useI18n, useLocalePath } from '~/modules/i18n/react';
import { findOrderRecord, getOrderForUser, guestOrderPath } from '~/modules/orders/index.server';
import { countryName } from '~/modules/delivery/countries';
import type { Route } from './+types/checkout';
import { appContext } from '~/context';
import { type Shopper, keepCountry, pathFor, requireUser, shopperContext } from '~/http/shopper.server';
import type { AppContext } from '~/context';
import { emailSchema } from '~/modules/accounts/accounts.schema';
import { heldUntil, holdClient } from '~/modules/stock/index.server';
import type { HoldRefusal } from '~/modules/stock/stock.types';

import type { VatPart } from '~/modules/tax/vat';
import { parseBuyer } from '~/modules/invoices/buyer';
import { sellerOf } from '~/modules/invoices/index.server';

const StripePayment = lazy(() => import('~/components/checkout/stripe-payment'));

type PaymentStep = {
  step: 'payment';
  orderId: string;
  amountCents: number;
  goodsCents: number;
  /** The order's code: what it took off the goods, or that it made the delivery free. */
  discount: { code: string; goodsCents: number; freeDelivery: boolean } | null;
  /** The order's currency (every amount here is in it). */
  currency: Currency;
  delivery: DeliveryRow | null;
  lines: SummaryLine[];
  /** The VAT in the amount, per rate. */
  vat: VatPart[];
  /** The country whose VAT the prices were converted to (prices that follow the buyer's VAT under OSS). */
  pricesIn: string | null;
  provider: 'test' | 'stripe';
  clientSecret?: string;
  publishableKey?: string;
  available: boolean;
  error?: string | null;
  /** The methods offered for the order's currency, and the one shown first (the customer's preference when offered). */
  methods: PaymentMethodKind[];
  preferred: PaymentMethodKind;
  /** The method an error is about (its form opens with it). */
  method?: PaymentMethodKind;
  /** How long its coffee is held for it, or why it is not (null: nothing of it is kept in stock). */
  hold: { minutes: number } | { refused: HoldRefusal } | null;
};
/** Set by the action when its answer is the payment step: the page shows that, so the loader skips the review. */
const paymentStepShown = createContext<boolean>(false);

type ReviewErrors = DeliveryResult;

/**
 * Who checks out: the signed-in customer; or, when the owner accepts guests, a guest known by their cart (they
 * give an email at the delivery step). Otherwise a guest is sent to sign in first, as the specification says.
 */
async function checkoutBuyer(app: AppContext, shopper: Shopper, url: URL) {
  if (!shopper.user && (await getDeliveryTable(app.db)).guestCheckout) return { userId: null, email: null, cartId: shopper.cartId, guest: true } as const;
  const user = requireUser(shopper, url);
  return { userId: user.id, email: user.email, cartId: shopper.cartId, guest: false } as const;
}
const ownerOf = (buyer: Awaited<ReturnType<typeof checkoutBuyer>>) => (buyer.userId ?? { cartId: buyer.cartId });

/** The payment step of one of the buyer's pending orders (a paid one goes to its success page). */
async function paymentStepOf(app: AppContext, shopper: Shopper, buyer: Awaited<ReturnType<typeof checkoutBuyer>>, orderId: string, extra: Partial<PaymentStep> = {}): Promise<PaymentStep> {
  const order = await getOrderForUser(app.db, app.storage, ownerOf(buyer), orderId);
  if (!order) throw redirect(pathFor(shopper, '/checkout'));
  if (order.paymentStatus === 'succeeded') throw redirect(pathFor(shopper, `/checkout?step=done&order=${order.id}`));
  // A newer order of the cart replaced it (another tab changed the delivery): the checkout starts from the cart.
  if (order.replaced) throw redirect(pathFor(shopper, '/checkout'));
  const methods = methodsFor(order.currency);
  const preference = buyer.userId ? methodOfPreference((await getProfile(app.db, buyer.userId)).paymentMethod) : 'card';
  // Stripe's Payment Element needs the payment's client secret (this is the buyer's own order: checked above).
  const [record, until] = await Promise.all([findOrderRecord(app.db, order.id), heldUntil(app.db, order.id)]);
  const clientSecret = app.payments.name === 'stripe' ? (record?.clientSecret ?? undefined) : undefined;
  const hold = until ? { minutes: Math.max(1, Math.ceil((until.getTime() - Date.now()) / 60_000)) } : record?.holdRefused ? { refused: record.holdRefused } : null;
  return {
    step: 'payment' as const,
    orderId: order.id,
    amountCents: order.totalCents,
    goodsCents: order.goodsCents,
    discount: order.discount ? { code: order.discount.code, goodsCents: order.discount.goodsCents, freeDelivery: order.discount.deliveryCents > 0 } : null,
    currency: order.currency,
    delivery: order.delivery ? { kind: order.delivery.kind, priceCents: order.delivery.priceCents, point: order.delivery.point } : null,
    // The last screen before paying shows the price per kilogram too (the order keeps each variant's weight).
    lines: linesOfOrder(order).map((line, i) => ({ ...line, netWeightGrams: order.lines[i].netWeightGrams })),
    vat: order.vat,
    // Its prices follow the buyer's country's VAT (under OSS, by the owner's choice): said beside them.
    pricesIn: order.pricesIn,
    provider: app.payments.name,
    publishableKey: app.payments.publishableKey,
    available: true,
    methods,
    preferred: methods.includes(preference) ? preference : 'card',
    hold,
    ...(clientSecret ? { clientSecret } : {}),
    ...extra,
  };
}

export async function loader({ url, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  const buyer = await checkoutBuyer(app, shopper, url);
  const { locale, currency, cartId } = shopper;
  const t = getT(locale);
  const base = { meta: { title: `${t('checkout.title')} · Kopi` }, messages: getMessages(locale, 'checkout', 'cart', 'delivery', 'invoices') };

  if (url.searchParams.get('step') === 'done') {
    const orderId = url.searchParams.get('order') ?? '';
    // After Stripe confirmed in the browser the webhook may not have arrived yet: ask the provider (idempotent).
    await confirmOrderPayment(paymentServices(app), { userId: buyer.userId, cartId, orderId });
    const order = await getOrderForUser(app.db, app.storage, ownerOf(buyer), orderId);
    if (!order) throw redirect(pathFor(shopper, '/checkout'));
    // A test-provider order's success page comes once it is paid (cards at once, BLIK and Przelewy24 from the
    // waiting page); only a real provider's can still be processing here.
    if (order.paymentStatus !== 'succeeded' && app.payments.name === 'test') throw redirect(pathFor(shopper, '/checkout'));
    // A guest follows the order on its private page (its mails link there too).
    const guestPage = buyer.guest ? await guestOrderPath(app.db, order.id) : null;
    return { ...base, step: 'done' as const, order, guestPage };
  }

  // The action just answered with the payment step (a form post without JavaScript renders in the same request).
  if (context.get(paymentStepShown)) return { ...base, step: 'review' as const, review: null, deliveryFromCents: null };

  // Waiting for a bank (BLIK confirmed in the app, a Przelewy24 page): the page asks until it is paid or failed.
  if (url.searchParams.get('step') === 'waiting') {
    const orderId = url.searchParams.get('order') ?? '';
    const state = await confirmOrderPayment(paymentServices(app), { userId: buyer.userId, cartId, orderId });
    if (state.status === 'not_found') throw redirect(pathFor(shopper, '/checkout'));
    if (state.status === 'paid') throw redirect(pathFor(shopper, `/checkout?step=done&order=${state.orderId}`));
    const method = url.searchParams.get('method') === 'przelewy24' ? ('przelewy24' as const) : ('blik' as const);
    if (state.status === 'failed') throw redirect(pathFor(shopper, `/checkout?step=payment&order=${state.orderId}&method=${method}&failed=${state.failure}`));
    if (!state.awaitingBank) throw redirect(pathFor(shopper, `/checkout?step=payment&order=${state.orderId}`));
    const order = await getOrderForUser(app.db, app.storage, ownerOf(buyer), orderId);
    if (!order) throw redirect(pathFor(shopper, '/checkout'));
    return { ...base, step: 'waiting' as const, waiting: { orderId: order.id, amountCents: order.totalCents, currency: order.currency, method } };
  }

  // Back to the payment step (a bank declined, or nobody confirmed in time): the order as it is, and why.
  if (url.searchParams.get('step') === 'payment') {
    const failed = url.searchParams.get('failed');
    const error = failed === 'declined' ? 'bank_declined' : failed === 'expired' ? 'bank_expired' : null;
    const method = url.searchParams.get('method');
    const extra = { error, ...(isPaymentMethodKind(method) ? { method } : {}) };
    return { ...base, step: 'payment' as const, payment: await paymentStepOf(app, shopper, buyer, url.searchParams.get('order') ?? '', extra) };
  }

  if (url.searchParams.get('step') === 'delivery') {
    const delivery = await deliveryStep(app.db, app.storage, app.lockers, {
      userId: buyer.userId,
      cartId,
      locale,
      currency,
      country: url.searchParams.get('country'),
      shopperCountry: shopper.country,
      lockerQuery: url.searchParams.get('lockerQuery'),
      allowLockerSearch: () => lockerSearchAllowed(app.db, app.limits.lockerSearch, { cartId, ip: app.clientIp }),
    });
    if (url.searchParams.get('country') === delivery.country) keepCountry(shopper, delivery.country);
    if (delivery.cart.lines.length === 0) throw redirect(pathFor(shopper, '/checkout'));
    const chosen = { methodId: url.searchParams.get('method'), lockerCode: url.searchParams.get('locker') };
    return { ...base, step: 'delivery' as const, delivery: { ...delivery, guest: buyer.guest, invoices: sellerOf(app.config.seller) !== null }, chosen };
  }

  const [review, stored] = await Promise.all([reviewCheckout(app.db, app.storage, { userId: buyer.userId, cartId, locale, currency }), getDeliveryTable(app.db)]);
  const table = inCurrency(stored, currency);
  // An empty cart goes back to the cart, unless the stock just emptied it: then the review says what sold out.
  if (review.cart.lines.length === 0 && review.cart.stockCapped.length === 0) throw redirect(pathFor(shopper, '/cart'));
  const options = deliveryOptions(table, { country: chooseCountry(table, shopper.country, review.country), goodsGrams: cartWeightGrams(review.cart), goodsCents: goodsToPay(review.cart) });
  const shipped = options.filter((o) => o.kind !== 'pickup');
  const freeByCode = review.cart.code?.applies === true && review.cart.code.freeDelivery;
  const deliveryFromCents = shipped.length ? (freeByCode ? 0 : Math.min(...shipped.map((o) => o.priceCents))) : null;
  return { ...base, step: 'review' as const, review, deliveryFromCents, guest: buyer.guest };
}

/** After the action answered with the payment step, the review's data is not needed (browser navigations). */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  (actionResult as { step?: string } | undefined)?.step === 'payment' ? false : defaultShouldRevalidate;

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.meta.title }, { name: 'robots', content: 'noindex' }];

/** The invoice's billing address as typed, or — all three left empty — the delivery address given above it. */
const billingOrDelivery = (get: (name: string) => string) => {
  const billing = { invoiceAddress: 'address', invoiceZipCode: 'zipCode', invoiceCity: 'city' } as const;
  const empty = Object.keys(billing).every((name) => get(name).trim() === '');
  return (name: string) => (empty && name in billing ? get(billing[name as keyof typeof billing]) : get(name));
};

export async function action({ request, url, context }: Route.ActionArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  const buyer = await checkoutBuyer(app, shopper, url);
  const form = await readForm(request);
  const intent = field(form, 'intent');
  const { locale, cartId } = shopper;
  const provider = app.payments;

  const paymentStep = async (orderId: string, extra: Partial<PaymentStep>) => {
    const step = await paymentStepOf(app, shopper, buyer, orderId, extra);
    context.set(paymentStepShown, true);
    return step;
  };

  if (intent === 'proceed') {
    const values = Object.fromEntries([...new Set(form.keys())].map((key) => [key, field(form, key)]));
    const table = await getDeliveryTable(app.db);
    const kindOf = (id: string) => table.zones.flatMap((zone) => zone.methods).find((m) => m.id === id && m.active)?.kind;
    const parsed = parseDeliveryForm(form, kindOf);
    // A guest gives the email the order's mails go to.
    const guestEmail = buyer.guest ? emailSchema.safeParse(field(form, 'email')) : null;
    const emailError = guestEmail && !guestEmail.success ? { email: 'checkout.errors.emailInvalid' } : {};
    // Asked for an invoice: the buyer's details are checked like the rest (a wrong NIP is said before paying).
    const invoice = field(form, 'invoice') === 'on' ? parseBuyer(billingOrDelivery((name) => field(form, name))) : null;
    const invoiceErrors = invoice && !invoice.ok ? { invoiceErrors: invoice.errors } : {};
    if (!parsed.ok || guestEmail?.success === false || (invoice && !invoice.ok)) {
      return data<ReviewErrors>({ step: 'delivery', fieldErrors: { ...(parsed.ok ? {} : parsed.fieldErrors), ...emailError }, ...invoiceErrors, values }, { status: 400 });
    }
    const available = await provider.checkHealth();
    if (!available) return data<ReviewErrors>({ step: 'delivery', formError: 'checkout.errors.cannotConnect', values }, { status: 503 });
    const visitor = visitorIdSchema.safeParse(field(form, 'visitorId'));
    const choice = parsed.data;
    const result = await startPayment(app.db, provider, {
      userId: buyer.userId,
      client: holdClient(app.clientIp),
      email: buyer.email ?? guestEmail!.data!.toLowerCase(),
      locale,
      currency: shopper.currency,
      cartId,
      address: choice.address,
      delivery: choice,
      lockers: app.lockers,
      visitorId: visitor.success ? visitor.data : null,
      reservationMinutes: app.config.stockReservationMinutes,
      invoiceBuyer: invoice?.ok ? invoice.buyer : null,
      log: app.log,
    });
    if (!result.ok) {
      if (result.reason === 'empty_cart') throw redirect(pathFor(shopper, '/cart'));
      // The review shows the cart again, each line capped to what is left and said so.
      if (result.reason === 'out_of_stock') return data<ReviewErrors>({ step: 'delivery', formError: 'checkout.errors.outOfStock', values }, { status: 409 });
      // The cart's code went to someone else's order first (or this customer has used theirs): said, nothing made.
      if (result.reason === 'code_refused') return data<ReviewErrors>({ step: 'delivery', formError: `checkout.errors.code${result.why.charAt(0).toUpperCase()}${result.why.slice(1)}`, values }, { status: 409 });
      const error = `checkout.errors.${result.reason}`;
      if (result.reason === 'country_not_served') return data<ReviewErrors>({ step: 'delivery', fieldErrors: { country: error }, values }, { status: 400 });
      if (result.reason === 'method_unavailable') return data<ReviewErrors>({ step: 'delivery', fieldErrors: { methodId: error }, values }, { status: 400 });
      if (result.reason === 'locker_unknown') return data<ReviewErrors>({ step: 'delivery', fieldErrors: { lockerCode: error }, values }, { status: 400 });
      if (result.reason === 'lockers_unavailable') return data<ReviewErrors>({ step: 'delivery', formError: error, values }, { status: 503 });
      const formError = result.reason === 'address_incomplete' ? 'checkout.errors.addressIncomplete' : 'checkout.errors.cannotConnect';
      return data<ReviewErrors>({ step: 'delivery', formError, values }, { status: result.reason === 'unavailable' ? 503 : 400 });
    }
    return paymentStep(result.orderId, { clientSecret: result.clientSecret });
  }

  if (intent === 'pay') {
    const orderId = field(form, 'orderId');
    const [month, year] = field(form, 'cardExpiry').split('/').map((p) => p.trim());
    const result = await payWithCard(paymentServices(app), {
      userId: buyer.userId,
      cartId,
      client: holdClient(app.clientIp),
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
    // Its hold ran out and its prices no longer hold: the shopper reviews it again, re-priced.
    if (result.code === 'prices_changed') return data<ReviewErrors>({ step: 'delivery', formError: 'checkout.errors.prices_changed' }, { status: 409 });
    return data(await paymentStep(orderId, { error: result.code, method: 'card' }), { status: result.code === 'out_of_stock' ? 409 : 402 });
  }

  if (intent === 'blik' || intent === 'przelewy24') {
    const orderId = field(form, 'orderId');
    const code = field(form, 'blikCode').replace(/\s/g, '');
    if (intent === 'blik' && !isBlikCode(code)) return data(await paymentStep(orderId, { error: 'blik_format', method: 'blik' }), { status: 400 });
    const result = await startAsyncPayment(paymentServices(app), { userId: buyer.userId, cartId, orderId, method: intent, code, client: holdClient(app.clientIp) });
    if (result.ok) {
      const waiting = pathFor(shopper, `/checkout?step=waiting&order=${result.orderId}&method=${intent}`);
      // A bank page first (Przelewy24), which sends the shopper back to wait for its answer.
      throw redirect(result.redirectUrl ? `${pathFor(shopper, result.redirectUrl)}?return=${encodeURIComponent(waiting)}` : waiting);
    }
    if (result.code === 'already_paid') throw redirect(pathFor(shopper, `/checkout?step=done&order=${orderId}`));
    if (result.code === 'prices_changed') return data<ReviewErrors>({ step: 'delivery', formError: 'checkout.errors.prices_changed' }, { status: 409 });
    const status = result.code === 'out_of_stock' ? 409 : result.code === 'not_found' ? 404 : result.code === 'unavailable' ? 503 : 400;
    return data(await paymentStep(orderId, { error: result.code, method: intent }), { status });
  }
  return data<ReviewErrors>({ step: 'delivery', formError: 'checkout.errors.generic' }, { status: 400 });
}

export default function CheckoutPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useI18n();
  const payment =
    actionData && 'step' in actionData && actionData.step === 'payment' ? (actionData as PaymentStep) : loaderData.step === 'payment' ? loaderData.payment : null;
  const deliveryResult = actionData && 'step' in actionData && actionData.step === 'delivery' ? (actionData as ReviewErrors) : undefined;
  if (loaderData.step === 'done') {
    const { order } = loaderData;
    return (
      <OrderConfirmation
        title={t('checkout.done.title')}
        heading={t('checkout.done.heading')}
        text={order.paymentStatus === 'succeeded' ? t('checkout.done.text') : t('checkout.success.processing')}
        order={order}
        labelTestId="order-id"
        profileLabel={loaderData.guestPage ? t('checkout.guest.followOrder') : t('checkout.viewInProfile')}
        orderPage={loaderData.guestPage ?? undefined}
      />
    );
  }
  if (loaderData.step === 'waiting') return <WaitingForBank {...loaderData.waiting} />;
  const step = payment ? 'payment' : loaderData.step === 'delivery' ? 'delivery' : 'review';

  return (
    <div className="container-page py-10 md:py-14">
      <h1 className="text-4xl font-semibold md:text-5xl">{t('checkout.title')}</h1>
      <div className="mt-6">
        <CheckoutSteps current={step} />
      </div>
      <div className="mt-8">
        {payment ? (
          <Payment payment={payment} />
        ) : loaderData.step === 'delivery' ? (
          <Delivery step={loaderData.delivery} chosen={loaderData.chosen} result={deliveryResult} />
        ) : (
          loaderData.step === 'review' &&
          loaderData.review && <Review review={loaderData.review} deliveryFromCents={loaderData.deliveryFromCents} guest={loaderData.guest === true} />
        )}
      </div>
    </div>
  );
}

/** The cart's code as a summary shows it, when it takes something off. */
const codeShown = (code: CartCode | null | undefined) => (code?.applies ? { code: code.code, goodsCents: code.goodsCents, freeDelivery: code.freeDelivery } : null);

function Review({ review, deliveryFromCents, guest }: { review: NonNullable<Awaited<ReturnType<typeof reviewCheckout>>>; deliveryFromCents: number | null; guest: boolean }) {
  const path = useLocalePath();
  const { t } = useI18n();
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
          <OrderLines lines={lines} currency={review.cart.currency} totalCents={goodsToPay(review.cart)} goodsCents={review.cart.totalCents} deliveryFromCents={deliveryFromCents} discount={codeShown(review.cart.code)} />
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
        <section aria-labelledby="next-heading" className="h-fit rounded-3xl bg-paper p-6 ring-1 ring-sand">
          <h2 id="next-heading" className="text-2xl font-semibold">{t('delivery.heading')}</h2>
          <p className="mt-2 text-sm text-muted">{t('checkout.review.next')}</p>
          {guest && (
            <p className="mt-4 rounded-2xl bg-cream px-4 py-3 text-sm" data-testid="guest-checkout">
              {t('checkout.guest.asGuest')}{' '}
              <Link to={path(`/auth?mode=login&redirectTo=${encodeURIComponent(path('/checkout'))}`)} className="font-medium text-leaf underline underline-offset-4">
                {t('checkout.guest.signIn')}
              </Link>
            </p>
          )}
          <Link to={path('/checkout?step=delivery')} className="btn-primary mt-6 w-full py-3.5 text-base">
            {t('checkout.continue')}
            <ArrowRight aria-hidden="true" className="h-4 w-4" />
          </Link>
        </section>
      )}
    </div>
  );
}

function Delivery({ step, chosen, result }: { step: DeliveryStepData; chosen: { methodId: string | null; lockerCode: string | null }; result?: ReviewErrors }) {
  const path = useLocalePath();
  const { t, locale } = useI18n();
  const lines: SummaryLine[] = step.cart.lines.map((l) => ({ ...l, key: l.variantId }));
  // The summary prices the way as soon as it is picked: goods, discount, delivery and the total to pay.
  const [methodId, setMethodId] = useState(() => initialMethodOf(step, chosen, result));
  const option = step.options.find((o) => o.methodId === methodId);
  const goods = goodsToPay(step.cart);
  const cheapest = step.options.length > 0 ? Math.min(...step.options.map((o) => o.priceCents)) : null;
  return (
    <div className="grid gap-10 lg:grid-cols-[1fr_24rem]">
      <section aria-labelledby="delivery-heading" className="rounded-3xl bg-paper p-6 ring-1 ring-sand">
        <h2 id="delivery-heading" className="text-2xl font-semibold">{t('delivery.heading')}</h2>
        <StockNotes capped={step.cart.stockCapped} />
        <div className="mt-5">
          <DeliveryStepForm step={step} chosen={chosen} result={result} visitorField={<VisitorIdField />} onMethod={setMethodId} />
        </div>
        <Link to={path('/checkout')} className="btn-ghost mt-6 px-3">
          <ArrowLeft aria-hidden="true" className="h-4 w-4" />
          {t('checkout.backToReviewShort')}
        </Link>
      </section>
      <aside className="h-fit rounded-3xl bg-paper p-6 ring-1 ring-sand" aria-labelledby="summary-heading">
        <h2 id="summary-heading" className="text-xl font-semibold">{t('cart.summary')}</h2>
        <div className="mt-2">
          <OrderLines
            lines={lines}
            currency={step.cart.currency}
            totalCents={goods + (option?.priceCents ?? 0)}
            goodsCents={step.cart.totalCents}
            discount={codeShown(step.cart.code)}
            delivery={option ? { kind: option.kind, priceCents: option.priceCents, point: null } : null}
            deliveryFromCents={option ? undefined : cheapest}
            beforeDelivery={!option}
          />
        </div>
        {step.pricesIn && (
          <p className="mt-3 rounded-2xl bg-cream px-4 py-3 text-sm text-muted" data-testid="prices-in-country">
            {t('checkout.pricesInCountry', { country: countryName(step.pricesIn, locale) })}
          </p>
        )}
      </aside>
    </div>
  );
}

function Payment({ payment }: { payment: PaymentStep }) {
  const path = useLocalePath();
  const { t, locale } = useI18n();
  const amount = formatPrice(payment.amountCents, payment.currency, locale);
  return (
    <div className="grid gap-10 lg:grid-cols-[1fr_24rem]">
      <section aria-labelledby="payment-heading" className="rounded-3xl bg-paper p-6 ring-1 ring-sand">
        <h2 id="payment-heading" className="text-2xl font-semibold">{t('checkout.payment.heading')}</h2>
        <HoldNote hold={payment.hold} />
        <div className="mt-5">
          {!payment.available ? (
            <PaymentUnavailable />
          ) : payment.provider === 'stripe' && payment.clientSecret && payment.publishableKey ? (
            <Suspense fallback={<p role="status" className="text-sm text-muted">{t('checkout.loading')}</p>}>
              <StripePayment publishableKey={payment.publishableKey} clientSecret={payment.clientSecret} orderId={payment.orderId} amount={amount} error={payment.error} />
            </Suspense>
          ) : (
            <TestPaymentMethods orderId={payment.orderId} amount={amount} error={payment.error} methods={payment.methods} preferred={payment.preferred} method={payment.method} />
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
          <OrderLines lines={payment.lines} currency={payment.currency} totalCents={payment.amountCents} goodsCents={payment.goodsCents} delivery={payment.delivery} discount={payment.discount} vat={payment.vat} />
        </div>
        {payment.pricesIn && (
          <p className="mt-3 rounded-2xl bg-cream px-4 py-3 text-sm text-muted" data-testid="prices-in-country">
            {t('checkout.pricesInCountry', { country: countryName(payment.pricesIn, locale) })}
          </p>
        )}
      </aside>
    </div>
  );
}

/** How long the coffee is held while the shopper pays, or why it is not (docs/decisions/0031). */
function HoldNote({ hold }: { hold: PaymentStep['hold'] }) {
  const { t } = useI18n();
  if (!hold) return null;
  const held = 'minutes' in hold;
  return (
    <p className={`mt-3 flex items-start gap-2 rounded-2xl px-4 py-3 text-sm ${held ? 'bg-cream text-muted' : 'bg-sand/60 text-roast'}`} data-testid="hold-note">
      {held ? <Clock aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" /> : <Info aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />}
      <span>{held ? t('checkout.payment.held', { count: hold.minutes }) : t(`checkout.payment.notHeld.${hold.refused}`)}</span>
    </p>
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

