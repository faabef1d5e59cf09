import { Minus, Plus, Trash2 } from 'lucide-react';
import { Link, useFetcher } from 'react-router';
import { ProductImage } from '~/components/catalog/product-image';
import { ProductName } from '~/components/catalog/product-name';
import { UnitPrice } from '~/components/catalog/unit-price';
import { track } from '~/lib/analytics';
import { focusQuietly, mainHeading } from '~/lib/navigation-focus';
import { useHydrated } from '~/lib/use-hydrated';
import { MAX_LINE_QUANTITY, type CartLine as Line } from '~/modules/cart/cart.types';
import { refusalMessage } from '~/modules/cart/refusal';
import { lineName } from '~/modules/catalog/variants';
import { useI18n, useLocalePath } from '~/modules/i18n/react';
import { formatPrice } from '~/lib/format';
import type { Currency } from '~/modules/pricing/currencies';
import { categoryOfChoice } from '~/modules/catalog/variants';

/** Focus leaves a removed line for the next line's name, or the cart's heading (see the cart page for the last line). */
function focusAfterRemoving(line: HTMLElement | null) {
  const next = line?.nextElementSibling?.querySelector<HTMLElement>('h2 a');
  focusQuietly(next ?? mainHeading());
}

/**
 * One cart line: − and + set the quantity they lead to, Remove removes (fetchers with JS, plain forms
 * without); a re-sent request therefore lands where the first one did.
 */
export function CartLine({ line, currency }: { line: Line; currency: Currency }) {
  const path = useLocalePath();
  const { t, locale } = useI18n();
  const price = (cents: number) => formatPrice(cents, currency, locale);
  const fetcher = useFetcher<{ ok: boolean; error?: string; left?: number }>({ key: `cart-line:${line.variantId}` });
  // The stock (or the cart) refused the change: said beside the line.
  const refusal = fetcher.state === 'idle' ? refusalMessage(fetcher.data, 'line') : null;
  const hydrated = useHydrated();
  // Two lines may hold one coffee (250 g and 1 kg): the controls' names say which.
  const name = lineName(line.name || t('product.unnamed'), line.label);
  const href = path(`/product/${line.productId}${line.choice ? `?${line.choice}` : ''}`);
  const pending = fetcher.formData;
  const quantity =
    pending?.get('intent') === 'remove' ? 0 : pending?.get('intent') === 'set' ? Number(pending.get('quantity')) : line.quantity;
  if (quantity <= 0 && fetcher.state !== 'idle') return null;

  /** A form for the quantity `target` (0 removes); `action` says which button it is. */
  const form = (action: 'decrease' | 'increase' | 'remove', target: number, label: string, icon: React.ReactNode, extra = '') => (
    <fetcher.Form
      method="post"
      action={path('/cart')}
      onSubmit={(event) => {
        if (action === 'remove') focusAfterRemoving(event.currentTarget.closest('li'));
        if (target < quantity) {
          track('remove_from_cart', { product_id: line.productId, quantity: quantity - target });
        } else {
          track('add_to_cart', { product_id: line.productId, quantity: target - quantity, value: line.unitPriceCents, currency });
        }
      }}
    >
      <input type="hidden" name="intent" value={action === 'remove' ? 'remove' : 'set'} />
      <input type="hidden" name="variantId" value={line.variantId} />
      {action !== 'remove' && <input type="hidden" name="quantity" value={target} />}
      {!hydrated && <input type="hidden" name="redirectTo" value="/cart" />}
      <button
        type="submit"
        aria-label={label}
        disabled={action === 'increase' && quantity >= MAX_LINE_QUANTITY}
        className={`flex h-9 items-center justify-center rounded-full transition-colors disabled:opacity-40 ${extra}`}
      >
        {icon}
      </button>
    </fetcher.Form>
  );

  return (
    <li className="flex gap-4 py-6 sm:gap-6" data-testid="cart-line">
      <Link to={href} className="w-20 shrink-0 self-start overflow-hidden rounded-2xl bg-sand/60 ring-1 ring-sand sm:w-28" tabIndex={-1} aria-hidden="true">
        <ProductImage image={line.image} alt="" sizes="112px" className="h-auto w-full" />
      </Link>
      <div className="flex flex-1 flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <h2 className="text-lg leading-snug font-semibold">
            <Link to={href} className="hover:underline">
              <ProductName name={line.name || t('product.unnamed')} />
            </Link>
          </h2>
          {line.label && <p className="mt-0.5 text-sm font-medium text-roast-600" data-testid="line-variant">{line.label}</p>}
          <p className="mt-1 text-sm text-muted" data-testid="line-category">{t(`categories.${categoryOfChoice(line.category, new URLSearchParams(line.choice).get('grind')) ?? 'uncategorized'}`)}</p>
          <p className="mt-1 text-sm">
            <span className="sr-only">{t('cart.unitPrice')}: </span>
            {price(line.unitPriceCents)}
          </p>
          <UnitPrice priceCents={line.unitPriceCents} netWeightGrams={line.netWeightGrams} currency={currency} withWeight className="mt-0.5 block text-xs text-muted" />
          <p role="status" className={refusal ? 'mt-2 text-sm font-medium text-cherry' : 'sr-only'}>
            {refusal ? t(refusal.key, refusal.vars) : ''}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2 sm:flex-col sm:flex-nowrap sm:items-end sm:gap-3">
          <div className="flex items-center rounded-full border border-sand-dark bg-paper" role="group" aria-label={t('cart.quantityOf', { name })}>
            {form('decrease', quantity - 1, t('cart.decrease', { name }), <Minus aria-hidden="true" className="h-4 w-4" />, 'w-9 hover:bg-sand/60')}
            <output className="min-w-8 text-center text-sm font-semibold tabular-nums" aria-live="polite" data-testid="line-quantity">
              {quantity}
            </output>
            {form('increase', Math.min(quantity + 1, MAX_LINE_QUANTITY), t('cart.increase', { name }), <Plus aria-hidden="true" className="h-4 w-4" />, 'w-9 hover:bg-sand/60')}
          </div>
          <p className="font-semibold tabular-nums" data-testid="line-total">
            <span className="sr-only">{t('cart.lineTotal')}: </span>
            {price(line.unitPriceCents * quantity)}
          </p>
          {form(
            'remove',
            0,
            t('cart.removeItem', { name }),
            <>
              <Trash2 aria-hidden="true" className="h-4 w-4" />
              <span className="text-sm">{t('cart.remove')}</span>
            </>,
            'gap-1.5 px-2 text-muted hover:text-cherry',
          )}
        </div>
      </div>
    </li>
  );
}
