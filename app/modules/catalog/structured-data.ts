import type { Locale } from '~/modules/i18n/translate';
import type { ProductDetail } from './catalog.schema';
import { unitPriceCents } from './unit-price';

/** schema.org Product data for search engines (rendered as JSON-LD on the product page). */
export function productJsonLd(product: ProductDetail, name: string, url: string, base: URL, locale: Locale) {
  const unitPrice = unitPriceCents(product.priceCents, product.netWeightGrams);
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name,
    inLanguage: locale,
    description: product.description || undefined,
    sku: product.id,
    url,
    image: product.images.map((image) => new URL(image.src, base).href),
    category: product.category ?? undefined,
    brand: { '@type': 'Brand', name: 'Kopi' },
    ...(product.netWeightGrams ? { weight: { '@type': 'QuantitativeValue', value: product.netWeightGrams, unitCode: 'GRM' } } : {}),
    ...(product.reviewCount > 0
      ? { aggregateRating: { '@type': 'AggregateRating', ratingValue: product.rating, reviewCount: product.reviewCount } }
      : {}),
    offers: {
      '@type': 'Offer',
      price: (product.priceCents / 100).toFixed(2),
      priceCurrency: 'EUR',
      ...(unitPrice === null
        ? {}
        : {
            priceSpecification: {
              '@type': 'UnitPriceSpecification',
              price: (unitPrice / 100).toFixed(2),
              priceCurrency: 'EUR',
              referenceQuantity: { '@type': 'QuantitativeValue', value: 1, unitCode: 'KGM' },
            },
          }),
      availability: 'https://schema.org/InStock',
      url,
    },
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
