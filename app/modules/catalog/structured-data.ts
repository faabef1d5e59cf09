import type { ProductDetail } from './catalog.schema';

/** schema.org Product data for search engines (rendered as JSON-LD on the product page). */
export function productJsonLd(product: ProductDetail, name: string, url: string, base: URL) {
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name,
    description: product.description || undefined,
    sku: product.id,
    url,
    image: product.images.map((image) => new URL(image.src, base).href),
    category: product.category ?? undefined,
    brand: { '@type': 'Brand', name: 'Kopi' },
    ...(product.reviewCount > 0
      ? { aggregateRating: { '@type': 'AggregateRating', ratingValue: product.rating, reviewCount: product.reviewCount } }
      : {}),
    offers: {
      '@type': 'Offer',
      price: (product.priceCents / 100).toFixed(2),
      priceCurrency: 'EUR',
      availability: 'https://schema.org/InStock',
      url,
    },
  };
}
