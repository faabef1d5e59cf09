import type { Locale, T } from '~/modules/i18n/translate';
import type { ProductDetail } from './catalog.schema';
import { type StockState, stockState } from '~/modules/stock/stock.types';
import { unitPriceCents } from './unit-price';
import type { Currency } from '~/modules/pricing/currencies';

const availability: Record<StockState, string> = { inStock: 'InStock', low: 'LimitedAvailability', soldOut: 'OutOfStock' };
import { type Variant, choiceQuery, lineName, optionLabel, optionValue, optionValueLabel, variantLabel } from './variants';

/**
 * schema.org data for search engines (rendered as JSON-LD on the product page): a `Product` for one sold one way,
 * else a `ProductGroup` whose `hasVariant` lists a `Product` per variant on sale, each with its `Offer`. Sizes and
 * packs are `size` (what `variesBy` names); a grind has no schema.org property, so it is an `additionalProperty`.
 * Offers are in the page's currency (the product's prices were read in it).
 */
export function productJsonLd(product: ProductDetail, name: string, url: string, base: URL, locale: Locale, currency: Currency, t: T) {
  const image = product.images.map((image) => new URL(image.src, base).href);
  const rating = product.reviewCount > 0 ? { aggregateRating: { '@type': 'AggregateRating', ratingValue: product.rating, reviewCount: product.reviewCount } } : {};
  const brand = { '@type': 'Brand', name: 'Kopi' };
  const offer = (variant: Variant, at: string) => {
    const unitPrice = unitPriceCents(variant.priceCents, variant.netWeightGrams);
    return {
      '@type': 'Offer',
      price: (variant.priceCents / 100).toFixed(2),
      priceCurrency: currency,
      // A sale's price holds until the sale ends.
      ...(variant.reduction ? { priceValidUntil: variant.reduction.endsAt.slice(0, 10) } : {}),
      ...(unitPrice === null
        ? {}
        : {
            priceSpecification: {
              '@type': 'UnitPriceSpecification',
              price: (unitPrice / 100).toFixed(2),
              priceCurrency: currency,
              referenceQuantity: { '@type': 'QuantitativeValue', value: 1, unitCode: 'KGM' },
            },
          }),
      availability: `https://schema.org/${availability[stockState(variant.left ?? null)]}`,
      url: at,
    };
  };
  const weight = (variant: Variant) => (variant.netWeightGrams ? { weight: { '@type': 'QuantitativeValue', value: variant.netWeightGrams, unitCode: 'GRM' } } : {});
  if (product.options.length === 0) {
    const variant = product.defaultVariant;
    return {
      '@context': 'https://schema.org',
      '@type': 'Product',
      name,
      inLanguage: locale,
      description: product.description || undefined,
      sku: variant.sku,
      url,
      image,
      category: product.category ?? undefined,
      brand,
      ...weight(variant),
      ...rating,
      offers: offer(variant, url),
    };
  }
  const sized = product.options.includes('size') || product.options.includes('pack');
  return {
    '@context': 'https://schema.org',
    '@type': 'ProductGroup',
    name,
    inLanguage: locale,
    description: product.description || undefined,
    url,
    image,
    category: product.category ?? undefined,
    brand,
    productGroupID: product.id,
    ...(sized ? { variesBy: ['https://schema.org/size'] } : {}),
    ...rating,
    hasVariant: product.variants.map((variant) => {
      const size = product.options.find((kind) => kind === 'size' || kind === 'pack');
      const grind = product.options.includes('grind') ? optionValue(variant, 'grind') : '';
      const query = choiceQuery(variant, product.options);
      return {
        '@type': 'Product',
        name: lineName(name, variantLabel(variant, product.options, t, locale)),
        sku: variant.sku,
        image,
        ...(size ? { size: optionValueLabel(size, optionValue(variant, size), t, locale) } : {}),
        ...(grind ? { additionalProperty: { '@type': 'PropertyValue', name: optionLabel('grind', t), value: optionValueLabel('grind', grind, t, locale) } } : {}),
        ...weight(variant),
        offers: offer(variant, query ? `${url}?${query}` : url),
      };
    }),
  };
}

/** schema.org Organization for the home page: the shop, its logo and how to reach it. */
export function organizationJsonLd(siteUrl: string, email: string) {
  return {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    name: 'Kopi',
    url: `${siteUrl}/`,
    logo: `${siteUrl}/favicon.svg`,
    ...(email ? { contactPoint: { '@type': 'ContactPoint', contactType: 'customer service', email } } : {}),
  };
}
