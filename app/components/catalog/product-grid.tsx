import type { ProductSummary } from '~/modules/catalog/catalog.types';
import { ProductCard } from './product-card';

/** Two cards a row on phones, three on tablets, four on desktops; the cards in a row are one height. */
export function ProductGrid({ products, eagerCount = 0 }: { products: ProductSummary[]; eagerCount?: number }) {
  return (
    <ul className="grid grid-cols-2 gap-3 sm:gap-6 md:grid-cols-3 xl:grid-cols-4" data-testid="product-grid">
      {products.map((product, i) => (
        <li key={product.id} id={`item-${i + 1}`} className="flex scroll-mt-28">
          <div className="w-full min-w-0">
            <ProductCard product={product} eager={i < eagerCount} />
          </div>
        </li>
      ))}
    </ul>
  );
}
