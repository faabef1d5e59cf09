import { Check, ShoppingBag } from 'lucide-react';
import type { Currency } from '~/modules/pricing/currencies';
import { useEffect, useRef, useState } from 'react';
import { useFetcher, useLocation } from 'react-router';
import { track } from '~/lib/analytics';
import { newRequestKey, useFormKey } from '~/lib/form-key';
import { useHydrated } from '~/lib/use-hydrated';
import { refusalMessage } from '~/modules/cart/refusal';
import { useLocalePath, useT } from '~/modules/i18n/react';

export const ADDED_LABEL_MS = 2000;
type AddResult = { ok: true } | { ok: false; error: string; left?: number };

/**
 * Adds one of a variant to the cart. Without JavaScript it is a plain form post that comes back to this page;
 * with it, a fetcher (no navigation) and an "Added" label for 2 s.
 *
 * Each add carries a request key, so a re-sent request (a browser retry, a double submit) adds once: without
 * JavaScript the response's form key (fresh in every response, cached pages included), with it a key per
 * click, renewed when the add has answered, so a deliberate second click adds a second bag.
 */
export function AddToCartButton({
  productId,
  variantId,
  priceCents,
  currency,
  variant = 'compact',
  stretch = false,
  label,
}: {
  productId: string;
  variantId: string;
  priceCents: number;
  /** The price's currency (the analytics event says it). */
  currency: Currency;
  variant?: 'compact' | 'large';
  /** A compact button as wide as its container below `sm`. */
  stretch?: boolean;
  label?: string;
}) {
  const path = useLocalePath();
  const t = useT();
  const fetcher = useFetcher<AddResult>({ key: `add-to-cart:${variantId}` });
  const location = useLocation();
  const hydrated = useHydrated();
  const [added, setAdded] = useState(false);
  const formKey = useFormKey();
  const [clickKey, setClickKey] = useState(newRequestKey);
  const lastData = useRef<AddResult | undefined>(undefined);

  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data || fetcher.data === lastData.current) return;
    lastData.current = fetcher.data;
    setClickKey(newRequestKey());
    if (!fetcher.data.ok) return;
    setAdded(true);
    track('add_to_cart', { product_id: productId, quantity: 1, value: priceCents, currency });
    const timer = setTimeout(() => setAdded(false), ADDED_LABEL_MS);
    return () => clearTimeout(timer);
  }, [fetcher.state, fetcher.data, productId, priceCents, currency]);

  // The refusal says why (the stock, a variant no longer sold, a quantity out of range); anything else is a plain failure.
  const failure = (result: AddResult | undefined) => {
    const refusal = refusalMessage(result, 'add');
    return refusal ? t(refusal.key, refusal.vars) : t('product.addFailed');
  };
  const busy = fetcher.state !== 'idle';
  const failed = fetcher.state === 'idle' && fetcher.data?.ok === false;
  // `large` and `stretch` buttons fill the width on phones (a product page, a half-width card).
  const fill = variant === 'large' || stretch;
  // On the narrowest phones a half-width card has room for the words only.
  const icon = `h-4 w-4 shrink-0 ${stretch ? 'max-[359px]:hidden' : ''}`;
  const size = variant === 'large' ? 'px-7 py-3.5 text-base' : 'px-3 py-2 whitespace-nowrap sm:px-4';
  return (
    <fetcher.Form method="post" action={path('/cart')} className={fill ? 'w-full sm:w-auto' : ''}>
      <input type="hidden" name="intent" value="add" />
      <input type="hidden" name="variantId" value={variantId} />
      <input type="hidden" name="quantity" value="1" />
      {/* The server's key stays in the page until hydration (the client never learns it), then the click's. */}
      <input type="hidden" name="requestKey" value={hydrated ? clickKey : formKey} suppressHydrationWarning />
      {!hydrated && <input type="hidden" name="redirectTo" value={location.pathname + location.search} />}
      <button
        type="submit"
        // Not `disabled`: a disabled button drops the keyboard focus while the add is on its way.
        aria-disabled={busy || undefined}
        onClick={(event) => {
          if (busy) event.preventDefault();
        }}
        aria-label={label ? `${added ? t('product.added') : t('product.addToCart')}: ${label}` : undefined}
        className={`btn ${size} ${fill ? 'w-full sm:w-auto' : ''} aria-disabled:cursor-progress aria-disabled:opacity-70 ${added ? 'bg-leaf text-white hover:bg-leaf-dark' : 'bg-roast text-cream hover:bg-roast-800'}`}
      >
        {added ? <Check aria-hidden="true" className={icon} /> : <ShoppingBag aria-hidden="true" className={icon} />}
        <span>{added ? t('product.added') : t('product.addToCart')}</span>
      </button>
      <p role="status" className={failed ? 'mt-2 text-sm text-cherry' : 'sr-only'}>
        {failed ? failure(fetcher.data) : added ? t('product.addedToCart') : ''}
      </p>
    </fetcher.Form>
  );
}
