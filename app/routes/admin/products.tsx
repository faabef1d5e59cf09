import { PackagePlus, Search } from 'lucide-react';
import { Form, Link } from 'react-router';
import { Pagination } from '~/components/admin/pagination';
import { ProductAdminActions } from '~/components/admin/product-admin-actions';
import { ProductImage } from '~/components/catalog/product-image';
import { appContext } from '~/context';
import { requireAdmin, shopperContext } from '~/http/shopper.server';
import { formatDate, formatPrice } from '~/lib/format';
import { MAX_QUERY_LENGTH, listOwnerProducts } from '~/modules/catalog/index.server';
import { getT } from '~/modules/i18n/index.server';
import { stockOf } from '~/modules/stock/index.server';
import { LOW_STOCK } from '~/modules/stock/stock.types';
import { useI18n } from '~/modules/i18n/react';
import type { Route } from './+types/products';

const PER_PAGE = 20;

export async function loader({ url, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  requireAdmin(shopper);
  const q = (url.searchParams.get('q') ?? '').trim().slice(0, MAX_QUERY_LENGTH);
  const requested = Number(url.searchParams.get('page'));
  const page = Number.isInteger(requested) && requested >= 1 && requested <= 10_000 ? requested : 1;
  const { items, total } = await listOwnerProducts(app.db, app.storage, { locale: shopper.locale, q, limit: PER_PAGE, offset: (page - 1) * PER_PAGE });
  const deleted = url.searchParams.get('deleted');
  const stock = await stockOf(app.db, items.map((item) => item.id));
  return {
    title: getT(shopper.locale)('admin.meta.productsTitle'),
    q,
    page,
    pages: Math.max(1, Math.ceil(total / PER_PAGE)),
    total,
    items: items.map((item) => ({ ...item, stock: stockSummary(stock.get(item.id)) })),
    deleted: deleted ? deleted.slice(0, 120) : null,
  };
}

/** The stock column: not tracked, or how many variants are sold out or low. */
function stockSummary(stock: { variants: Record<string, number | null> } | undefined) {
  if (!stock) return { tracked: false as const, soldOut: 0, low: 0, variants: 0 };
  const counts = Object.values(stock.variants).filter((left): left is number => left !== null);
  return { tracked: true as const, soldOut: counts.filter((n) => n <= 0).length, low: counts.filter((n) => n > 0 && n <= LOW_STOCK).length, variants: counts.length };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${loaderData?.title} · Kopi` }, { name: 'robots', content: 'noindex' }];

export default function AdminProductsPage({ loaderData }: Route.ComponentProps) {
  const { t, locale } = useI18n();
  const { q, page, pages, total, items, deleted } = loaderData;
  return (
    <div>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-semibold md:text-4xl">{t('admin.products.heading')}</h1>
          <p className="mt-2 text-muted">{t('admin.products.intro')}</p>
        </div>
        <Link to="/add-product" className="btn-primary">
          <PackagePlus aria-hidden="true" className="h-4 w-4" />
          {t('manage.addProduct')}
        </Link>
      </div>

      {deleted && (
        <p role="status" className="mt-6 rounded-2xl bg-leaf-light px-5 py-3 text-sm font-medium text-leaf-dark ring-1 ring-leaf/20">
          {t('manage.deleted', { name: deleted })}
        </p>
      )}

      <Form method="get" role="search" className="mt-6 flex flex-wrap items-end gap-3">
        <div className="min-w-64 flex-1">
          <label htmlFor="admin-q" className="field-label">{t('admin.products.search')}</label>
          <input id="admin-q" name="q" type="search" defaultValue={q} maxLength={100} placeholder={t('admin.products.searchPlaceholder')} className="field-input" />
        </div>
        <button type="submit" className="btn-outline">
          <Search aria-hidden="true" className="h-4 w-4" />
          {t('admin.products.searchButton')}
        </button>
        {q && <Link to="/admin/products" className="btn-ghost">{t('admin.products.clear')}</Link>}
      </Form>

      <p className="mt-6 text-sm text-muted" aria-live="polite" data-testid="admin-count">
        {q ? t('admin.products.matching', { count: total, q }) : t('admin.products.count', { count: total })}
      </p>

      {items.length === 0 ? (
        <p className="mt-6 rounded-3xl bg-paper p-10 text-center text-muted ring-1 ring-sand">
          {q ? t('admin.products.noMatch', { q }) : t('admin.products.empty')}
        </p>
      ) : (
        <div className="relative mt-4 overflow-x-auto rounded-3xl bg-paper ring-1 ring-sand">
          <table className="w-full min-w-[44rem] text-left text-sm">
            <thead className="border-b border-sand text-xs tracking-wide text-muted uppercase">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold"><span className="sr-only">{t('admin.products.picture')}</span></th>
                <th scope="col" className="px-4 py-3 font-semibold">{t('admin.products.name')}</th>
                <th scope="col" className="px-4 py-3 font-semibold">{t('admin.products.category')}</th>
                <th scope="col" className="px-4 py-3 text-right font-semibold">{t('admin.products.price')}</th>
                <th scope="col" className="px-4 py-3 font-semibold">{t('admin.products.stock')}</th>
                <th scope="col" className="px-4 py-3 font-semibold">{t('admin.products.changed')}</th>
                <th scope="col" className="px-4 py-3 font-semibold"><span className="sr-only">{t('admin.products.actions')}</span></th>
              </tr>
            </thead>
            <tbody className="divide-y divide-sand">
              {items.map((product) => {
                const name = product.name || t('product.unnamed');
                return (
                  <tr key={product.id} data-testid="admin-product-row">
                    <td className="w-16 px-4 py-3">
                      <div className="h-14 w-11 overflow-hidden rounded-lg bg-sand/50">
                        <ProductImage image={product.image} alt="" sizes="44px" className="h-full w-full object-cover" />
                      </div>
                    </td>
                    <th scope="row" className="px-4 py-3 font-semibold">
                      <Link to={`/product/${product.id}`} className="hover:text-leaf hover:underline">{name}</Link>
                      {product.origin && <span className="block text-xs font-normal text-muted">{product.origin}</span>}
                    </th>
                    <td className="px-4 py-3 text-roast-600">{t(`categories.${product.category ?? 'uncategorized'}`)}</td>
                    <td className="px-4 py-3 text-right whitespace-nowrap tabular-nums">
                      <span className="font-semibold">
                        {product.priceFrom ? t('product.fromPrice', { price: formatPrice(product.priceCents, 'EUR', locale) }) : formatPrice(product.priceCents, 'EUR', locale)}
                      </span>
                      {product.variantCount > 1 && (
                        <span className="block text-xs text-muted">
                          {t('admin.products.variants', { count: product.variantCount })}
                          {product.offSaleCount > 0 && ` · ${t('admin.products.offSale', { count: product.offSaleCount })}`}
                        </span>
                      )}
                    </td>
                    <td className="px-4 py-3 whitespace-nowrap">
                      <Link to={`/admin/products/${product.id}/stock`} className="relative inline-block font-medium text-leaf hover:underline" data-testid="stock-link">
                        <span className="sr-only">{t('admin.products.stockOf', { name })}: </span>
                        <span className={product.stock.soldOut > 0 ? 'text-cherry' : product.stock.tracked ? '' : 'text-roast-600'}>
                          {!product.stock.tracked
                            ? t('admin.stock.modes.untracked')
                            : product.stock.soldOut > 0
                              ? product.stock.soldOut === product.stock.variants
                                ? t('product.soldOut')
                                : t('admin.products.soldOutOf', { count: product.stock.soldOut, total: product.stock.variants })
                              : product.stock.low > 0
                                ? t('admin.stock.low')
                                : t('product.stock.inStock')}
                        </span>
                      </Link>
                    </td>
                    <td className="px-4 py-3 whitespace-nowrap text-roast-600">
                      <time dateTime={product.updatedAt}>{formatDate(product.updatedAt, locale)}</time>
                    </td>
                    <td className="px-4 py-3">
                      <ProductAdminActions productId={product.id} name={name} className="justify-end" />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}

      <Pagination page={page} pages={pages} />
    </div>
  );
}
