import { Link } from 'react-router';
import { ProductAdminActions } from '~/components/admin/product-admin-actions';
import { AddToCartButton } from '~/components/cart/add-to-cart-button';
import type { ProductSummary } from '~/modules/catalog/catalog.types';
import { lineName, variantLabel } from '~/modules/catalog/variants';
import { formatPrice } from '~/lib/format';
import { useI18n, useLocalePath } from '~/modules/i18n/react';
import { ProductImage } from './product-image';
import { ProductName } from './product-name';
import { Rating } from './rating';
import { UnitPrice } from './unit-price';
import { LowestPrice, PercentOff } from './reduction';

export function ProductCard({ product, eager = false }: { product: ProductSummary; eager?: boolean }) {
  const path = useLocalePath();
  const { t, locale } = useI18n();
  const price = (cents: number) => formatPrice(cents, product.currency, locale);
  const name = product.name || t('product.unnamed');
  const choice = variantLabel(product.defaultVariant, product.options, t, locale);
  const reduction = product.defaultVariant.reduction;
  return (
    <article className="group relative flex h-full flex-col rounded-3xl bg-paper shadow-[0_1px_0_rgba(43,26,18,0.06)] ring-1 ring-sand transition-shadow duration-200 hover:shadow-xl hover:shadow-roast/5">
      <div className="relative aspect-[4/5] overflow-hidden rounded-t-3xl bg-sand/50">
        <ProductImage
          image={product.image}
          alt={product.image ? name : t('product.noImage')}
          sizes="(min-width: 1280px) 300px, (min-width: 768px) 33vw, 50vw"
          eager={eager}
          className="h-full w-full object-cover transition-transform duration-500 group-hover:scale-[1.03]"
        />
        <PercentOff reduction={reduction} className="absolute top-3 left-3 px-2.5 py-1 text-sm shadow-sm" />
      </div>
      <div className="flex flex-1 flex-col gap-1.5 p-3 sm:gap-2 sm:p-5">
        {/* On a phone's narrow card only the island: the region would take two more lines. */}
        {(product.origin || product.region) && (
          <p className="eyebrow truncate sm:whitespace-normal">
            {product.origin || product.region}
            {product.origin && product.region && <span className="hidden sm:inline"> · {product.region}</span>}
          </p>
        )}
        {/* Two lines at most on a phone's narrow card; the link keeps the whole name for screen readers. */}
        <h3 className="line-clamp-2 text-[0.9375rem] leading-snug font-semibold sm:line-clamp-none sm:text-xl">
          <Link to={path(`/product/${product.id}`)} className="after:absolute after:inset-0 after:rounded-3xl after:content-[''] focus:outline-none focus-visible:after:ring-4 focus-visible:after:ring-leaf">
            <ProductName name={name} />
          </Link>
        </h3>
        {product.notes.length > 0 && <p className="hidden text-sm text-muted sm:block">{product.notes.slice(0, 3).join(' · ')}</p>}
        <p className="text-xs font-medium text-roast-600">
          {t(`categories.${product.category ?? 'uncategorized'}`)}
          {product.roast && ` · ${t(`roast.${product.roast}`)}`}
        </p>
        <Rating rating={product.rating} reviewCount={product.reviewCount} />
        <div className="relative z-10 mt-auto pt-2 sm:pt-3">
          {/* The Omnibus sentence stands above the reduced price it qualifies, across the card. */}
          {reduction && (
            <p className="mb-1.5">
              <LowestPrice reduction={reduction} currency={product.currency} className="text-xs leading-snug text-roast-800" />
            </p>
          )}
          <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between sm:gap-3">
            <p className="flex flex-col">
              <span className={`text-base font-semibold tabular-nums sm:text-lg ${reduction ? 'text-cherry' : ''}`} data-testid="card-price">
                {product.priceFrom ? t('product.fromPrice', { price: price(product.priceCents) }) : price(product.priceCents)}
              </span>
              <UnitPrice priceCents={product.priceCents} netWeightGrams={product.netWeightGrams} currency={product.currency} />
              {/* What "Add to cart" here adds; the product page offers the other sizes and grinds. */}
              {choice && !product.soldOut && <span className="text-xs text-muted" data-testid="card-variant">{choice}</span>}
            </p>
            {product.soldOut ? (
              // Nothing to add: the product page offers "notify me when it's back".
              <span className="inline-flex items-center justify-center rounded-full bg-cherry-light px-3 py-2 text-sm font-semibold whitespace-nowrap text-cherry sm:px-4" data-testid="card-sold-out">
                {t('product.soldOut')}
              </span>
            ) : (
              <AddToCartButton productId={product.id} variantId={product.defaultVariant.id} priceCents={product.priceCents} currency={product.currency} label={lineName(name, choice)} stretch />
            )}
          </div>
        </div>
        <ProductAdminActions productId={product.id} name={name} className="relative z-10 border-t border-sand pt-3" />
      </div>
    </article>
  );
}
