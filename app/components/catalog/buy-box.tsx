import { useEffect, useRef, useState } from 'react';
import { AddToCartButton } from '~/components/cart/add-to-cart-button';
import { type Variant, lineName } from '~/modules/catalog/variants';
import { UnitPrice } from './unit-price';
import type { Currency } from '~/modules/pricing/currencies';

/**
 * The product page's buy box, and below `lg` a bar fixed to the bottom of the screen with the price and
 * Add to cart whenever the box itself is out of view (on a phone the gallery pushes it below the first
 * screen). Both buttons are one fetcher (the same key), so "Added" shows on both. The bar is `hidden` (out
 * of the accessibility tree) while the box is in view, and gives way to the footer at the foot of the page;
 * it never shows without JavaScript.
 */
export function BuyBox({
  productId,
  variant,
  label,
  name,
  price,
  currency,
}: {
  productId: string;
  variant: Variant;
  currency: Currency;
  /** The variant as a shopper reads it ("1 kg, espresso"); '' for a product sold one way. */
  label: string;
  name: string;
  price: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [inView, setInView] = useState({ box: true, footer: false });

  useEffect(() => {
    const element = box.current;
    const footer = document.querySelector('footer');
    if (!element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      setInView((before) => {
        const next = { ...before };
        for (const entry of entries) next[entry.target === element ? 'box' : 'footer'] = entry.isIntersecting;
        return next;
      });
    });
    observer.observe(element);
    if (footer) observer.observe(footer);
    return () => observer.disconnect();
  }, []);

  return (
    <>
      <div ref={box} className="mt-8">
        <AddToCartButton productId={productId} variantId={variant.id} priceCents={variant.priceCents} currency={currency} variant="large" label={lineName(name, label)} />
      </div>
      <div
        hidden={inView.box || inView.footer}
        data-testid="buy-bar"
        data-bottom-bar
        className="fixed inset-x-0 bottom-0 z-30 border-t border-sand bg-paper/95 pb-[env(safe-area-inset-bottom)] shadow-[0_-8px_24px_rgba(43,26,18,0.08)] backdrop-blur lg:hidden"
      >
        <div className="container-page flex items-center gap-3 py-3">
          <div className="min-w-0 flex-1">
            <p className="truncate text-sm font-medium text-roast-600">{lineName(name, label)}</p>
            <p className="flex flex-wrap items-baseline gap-x-2">
              <span className="text-lg font-semibold tabular-nums">{price}</span>
              <UnitPrice priceCents={variant.priceCents} netWeightGrams={variant.netWeightGrams} currency={currency} />
            </p>
          </div>
          <AddToCartButton productId={productId} variantId={variant.id} priceCents={variant.priceCents} currency={currency} label={lineName(name, label)} />
        </div>
      </div>
    </>
  );
}

