import type { ProductSummary } from '~/modules/catalog/catalog.types';
import { ProductCard } from './product-card';

export function ProductGrid({ products, eagerCount = 0 }: { products: ProductSummary[]; eagerCount?: number }) {
  return (
    <ul className="grid grid-cols-1 gap-6 min-[480px]:grid-cols-2 md:grid-cols-3 xl:grid-cols-4" data-testid="product-grid">
      {products.map((product, i) => (
        <li key={product.id} id={`item-${i + 1}`} className="flex scroll-mt-28">
          <div className="w-full">
            <ProductCard product={product} eager={i < eagerCount} />
          </div>
        </li>
      ))}
    </ul>
  );
}
