import { Lock, ShoppingBag } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, data, redirect, useFetchers } from 'react-router';
import { CartLine } from '~/components/cart/cart-line';
import { StockNotes } from '~/components/cart/stock-notes';
import { track } from '~/lib/analytics';
import { focusQuietly, mainHeading } from '~/lib/navigation-focus';
import { safeRedirect } from '~/lib/safe-redirect';
import { useHydrated } from '~/lib/use-hydrated';
import { cartFormSchema } from '~/modules/cart/cart.schema';
import type { CartRefusal } from '~/modules/cart/refusal';
import { readForm } from '~/http/body.server';
import { keepCountry, keepGuestCart, shopperContext } from '~/http/shopper.server';
import { amountToFreeDelivery, cheapestDelivery, chooseCountry, deliveryOptions, getDeliveryTable, servedCountries, inCurrency } from '~/modules/delivery/index.server';
import { CartCountry, CartDelivery } from '~/components/cart/cart-delivery';
import { type StockRefusal, addToCart, cartWeightGrams, defaultVariantOf, ensureUserCart, enterCode, getCart, removeCode, removeFromCart, setLineQuantity } from '~/modules/cart/index.server';
import { normalizeCode } from '~/modules/promotions/codes';
import { goodsToPay } from '~/modules/cart/cart.types';
import { CartCodeForm, CodeRow } from '~/components/cart/cart-code';
import { getMessages, getT } from '~/modules/i18n/index.server';
import { formatPrice } from '~/lib/format';
import { useI18n, useLocalePath } from '~/modules/i18n/react';
import type { Route } from './+types/cart';
import { appContext } from '~/context';

export async function loader({ url, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  const { user, locale, currency, cartId } = shopper;
  const [cart, stored] = await Promise.all([getCart(app.db, app.storage, cartId, locale, currency), getDeliveryTable(app.db)]);
  const table = inCurrency(stored, currency);
  const t = getT(locale);
  // The country chosen here (a GET form, so it works without JavaScript) is remembered for the product pages and the checkout.
  const asked = url.searchParams.get('country');
  const country = chooseCountry(table, asked, shopper.country);
  if (asked && asked === country) keepCountry(shopper, country);
  const options = deliveryOptions(table, { country, goodsGrams: cartWeightGrams(cart), goodsCents: goodsToPay(cart) });
  const cheapest = cheapestDelivery(options);
  const freeByCode = cart.code?.applies === true && cart.code.freeDelivery;
  return {
    cart,
    delivery: {
      currency: cart.currency,
      country,
      countries: servedCountries(table),
      cheapest: cheapest ? { kind: cheapest.kind, priceCents: freeByCode ? 0 : cheapest.priceCents } : null,
      toFree: freeByCode ? null : amountToFreeDelivery(options, goodsToPay(cart)),
    },
    /** Without JavaScript the checkout button is a link to ?checkout=1, which shows the login message. */
    signedIn: Boolean(user),
    checkoutAttempt: url.searchParams.has('checkout'),
    meta: { title: `${t('cart.title')} · Kopi`, description: t('cart.metaDescription') },
    messages: getMessages(locale, 'cart', 'delivery'),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.meta.title },
  { name: 'description', content: loaderData?.meta.description },
  { name: 'robots', content: 'noindex' },
];

/** Every cart change posts here, switched on `intent`. The server decides prices; the browser sends ids. */
export async function action({ request, context }: Route.ActionArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  const form = await readForm(request);
  const parsed = cartFormSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return data<CartRefusal>({ ok: false, error: 'invalid', field: faultyField(parsed.error.issues) }, { status: 400 });
  const input = parsed.data;
  const { user, cartId } = shopper;

  if (input.intent === 'add') {
    const variantId = input.variantId ?? (await defaultVariantOf(app.db, input.productId!));
    if (!variantId) return data<CartRefusal>({ ok: false, error: 'variant_not_found' }, { status: 404 });
    const target = user ? (cartId ?? (await ensureUserCart(app.db, user.id))) : cartId;
    const result = await addToCart(app.db, target, variantId, input.quantity, input.requestKey);
    if (!result.ok) return refused(result);
    // A repeated add answers like the first one; a guest whose first answer (and cookie) was lost gets the
    // cart it went to, but a cart already in the cookie is never swapped for another.
    if (!user && result.cartId !== cartId && !(result.repeated && cartId)) keepGuestCart(shopper, result.cartId);
  } else if (input.intent === 'code') {
    if (!normalizeCode(input.code)) return data({ ok: false as const, error: 'code', reason: 'invalid' as const }, { status: 400 });
    const outcome = await enterCode(app.db, app.storage, { cartId, typed: input.code, locale: shopper.locale, currency: shopper.currency, userId: user?.id ?? null, email: user?.email ?? null, ip: app.clientIp }, app.limits);
    if (!outcome.ok) {
      const status = outcome.reason === 'rate_limited' ? 429 : outcome.reason === 'unknown' ? 404 : 409;
      return data({ ok: false as const, error: 'code', reason: outcome.reason, minimumCents: outcome.minimumCents }, { status });
    }
  } else if (input.intent === 'uncode') {
    await removeCode(app.db, cartId);
  } else if (cartId) {
    if (input.intent === 'remove') await removeFromCart(app.db, cartId, input.variantId);
    else if (input.intent === 'set') {
      const set = await setLineQuantity(app.db, cartId, input.variantId, input.quantity);
      if (typeof set === 'object') return refused(set, input.variantId);
    }
  }

  const redirectTo = form.get('redirectTo');
  if (typeof redirectTo === 'string') return redirect(safeRedirect(redirectTo));
  return { ok: true as const };
}

/** A refused code's answer (without JavaScript it comes back as the page's action data). */
const codeRefusal = (answer: unknown) => {
  const refusal = answer as { error?: string; reason?: string; minimumCents?: number } | undefined;
  return refusal?.error === 'code' && refusal.reason ? { reason: refusal.reason, minimumCents: refusal.minimumCents } : undefined;
};

/** Why an add or a quantity was refused: an unknown variant (404), or the stock (409: sold out, only `left`). */
function refused(result: { reason: 'variant_not_found' } | StockRefusal, variantId?: string) {
  if (result.reason === 'variant_not_found') return data<CartRefusal>({ ok: false, error: result.reason }, { status: 404 });
  return data<CartRefusal>({ ok: false, error: result.reason, left: result.reason === 'not_enough' ? result.left : 0, variantId }, { status: 409 });
}

/** The field a form the cart cannot read is wrong in (the one its message names), if one of those. */
function faultyField(issues: readonly { path: readonly PropertyKey[] }[]): 'quantity' | 'variantId' | 'productId' | null {
  const fields = issues.map((issue) => issue.path[0]);
  return fields.includes('quantity') ? 'quantity' : fields.includes('variantId') ? 'variantId' : fields.includes('productId') ? 'productId' : null;
}

export default function CartPage({ loaderData, actionData }: Route.ComponentProps) {
  const path = useLocalePath();
  const { cart, checkoutAttempt, signedIn } = loaderData;
  const { t, locale } = useI18n();
  const price = (cents: number) => formatPrice(cents, cart.currency, locale);
  const hydrated = useHydrated();
  const [showLogin, setShowLogin] = useState(checkoutAttempt);
  const removing = useFetchers().filter((f) => f.formAction === path('/cart') && f.formData?.get('intent') === 'remove').length;

  const empty = cart.lines.length === 0 || removing >= cart.lines.length;
  // Removing the last line swaps the page for the empty cart: its heading takes the focus the line had.
  useEffect(() => {
    if (empty && document.activeElement === document.body) focusQuietly(mainHeading());
  }, [empty]);

  if (empty) {
    return (
      <section className="container-page flex flex-col items-center py-24 text-center">
        <span className="flex h-20 w-20 items-center justify-center rounded-full bg-sand text-roast-600">
          <ShoppingBag aria-hidden="true" className="h-9 w-9" />
        </span>
        <h1 className="mt-8 text-4xl font-semibold">{t('cart.empty.title')}</h1>
        <p className="mt-3 max-w-md text-lg text-muted">{t('cart.empty.text')}</p>
        {cart.removedVariantIds.length > 0 && (
          <p role="status" className="mt-6 rounded-2xl bg-cherry-light px-4 py-3 text-sm text-cherry">
            {t('cart.removedUnavailable', { count: cart.removedVariantIds.length })}
          </p>
        )}
        <StockNotes capped={cart.stockCapped} refused={actionData} />
        <Link to={path('/')} className="btn-primary mt-10">{t('cart.empty.back')}</Link>
      </section>
    );
  }

  const proceed = () => {
    setShowLogin(true);
    track('checkout_attempt_guest', { cart_value: cart.totalCents, currency: cart.currency, items_count: cart.count });
  };

  return (
    <div className="container-page py-10 md:py-14">
      <h1 className="text-4xl font-semibold md:text-5xl">{t('cart.title')}</h1>
      <p className="mt-2 text-muted">{t('cart.items', { count: cart.count })}</p>
      {cart.removedVariantIds.length > 0 && (
        <p role="status" className="mt-6 rounded-2xl bg-cherry-light px-4 py-3 text-sm text-cherry">
          {t('cart.removedUnavailable', { count: cart.removedVariantIds.length })}
        </p>
      )}
      <StockNotes capped={cart.stockCapped} refused={actionData} />

      <div className="mt-8 grid gap-10 lg:grid-cols-[1fr_22rem]">
        <ul className="divide-y divide-sand border-y border-sand">
          {cart.lines.map((line) => (
            <CartLine key={line.variantId} line={line} currency={cart.currency} />
          ))}
        </ul>

        <aside aria-labelledby="summary-heading" className="h-fit rounded-3xl bg-paper p-6 ring-1 ring-sand lg:sticky lg:top-28">
          <h2 id="summary-heading" className="text-xl font-semibold">{t('cart.summary')}</h2>
          <div className="mt-4">
            <CartCountry delivery={loaderData.delivery} />
          </div>
          <dl className="mt-5 space-y-3 text-sm">
            <div className="flex justify-between">
              <dt className="text-muted">{t('cart.subtotal')}</dt>
              <dd className="tabular-nums">{price(cart.totalCents)}</dd>
            </div>
            <CodeRow code={cart.code} currency={cart.currency} />
            <CartDelivery delivery={loaderData.delivery} />
            <div className="flex justify-between border-t border-sand pt-3 text-lg font-semibold">
              <dt>{t('cart.total')}</dt>
              <dd className="tabular-nums" data-testid="cart-total">{price(goodsToPay(cart))}</dd>
            </div>
          </dl>
          <p className="mt-2 text-xs text-muted">{t('cart.taxNote')}</p>
          <CartCodeForm code={cart.code} currency={cart.currency} refused={codeRefusal(actionData)} />

          {signedIn ? (
            <Link to={path('/checkout')} onClick={() => track('begin_checkout', { cart_value: cart.totalCents, currency: cart.currency, items_count: cart.count })} className="btn-primary mt-6 w-full py-3 text-base">
              <Lock aria-hidden="true" className="h-4 w-4" />
              {t('cart.checkout')}
            </Link>
          ) : hydrated ? (
            <button type="button" onClick={proceed} className="btn-primary mt-6 w-full py-3 text-base">
              <Lock aria-hidden="true" className="h-4 w-4" />
              {t('cart.checkout')}
            </button>
          ) : (
            <Link to={path('/cart?checkout=1')} className="btn-primary mt-6 w-full py-3 text-base">
              <Lock aria-hidden="true" className="h-4 w-4" />
              {t('cart.checkout')}
            </Link>
          )}
          <div role="alert" aria-live="assertive">
            {showLogin && (
              <div className="animate-fade-in mt-4 rounded-2xl bg-leaf-light p-4 text-sm text-leaf-dark">
                <p>{t('cart.loginRequired')}</p>
                <Link to={path('/auth?redirectTo=%2Fcheckout')} className="btn-leaf mt-3 w-full">
                  {t('cart.loginButton')}
                </Link>
              </div>
            )}
          </div>
          <Link to={path('/')} className="btn-ghost mt-3 w-full">{t('cart.continueShopping')}</Link>
        </aside>
      </div>
    </div>
  );
}

