import { ChevronDown } from 'lucide-react';
import { Form, Link } from 'react-router';
import { ProductGrid } from '~/components/catalog/product-grid';
import { SortSelect } from '~/components/catalog/sort-select';
import { ListSelect } from '~/components/ui/list-select';
import { useHydrated } from '~/lib/use-hydrated';
import { PAGE_SIZE, productListQuerySchema } from '~/modules/catalog/catalog.schema';
import { categories } from '~/modules/catalog/catalog.types';
import { listProducts } from '~/modules/catalog/index.server';
import { getMessages, getT } from '~/modules/i18n/index.server';
import { useLocalePath, useT } from '~/modules/i18n/react';
import type { Route } from './+types/categories';
import { appContext } from '~/context';
import { shopperContext } from '~/http/shopper.server';

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const { locale, currency } = context.get(shopperContext);
  const query = productListQuerySchema.parse(Object.fromEntries(url.searchParams));
  const { items, hasMore } = await listProducts(app.db, app.storage, {
    locale,
    currency,
    category: query.category,
    sort: query.sort,
    limit: query.page * PAGE_SIZE,
    offset: 0,
  });
  const t = getT(locale);
  const title = query.category ? t(`categories.${query.category}`) : t('categories.title');
  return {
    products: items,
    hasMore,
    category: query.category,
    sort: query.sort,
    page: query.page,
    meta: { title: `${title} · Kopi`, description: t('categories.metaDescription') },
    messages: getMessages(locale, 'categories'),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.meta.title },
  { name: 'description', content: loaderData?.meta.description },
];

export default function CategoriesPage({ loaderData }: Route.ComponentProps) {
  const path = useLocalePath();
  const { products, hasMore, category, sort, page } = loaderData;
  const t = useT();
  const hydrated = useHydrated();
  const more = new URLSearchParams(category ? { category } : {});
  if (sort) more.set('sort', sort);
  more.set('page', String(page + 1));

  return (
    <div className="container-page py-10 md:py-14">
      <div className="flex flex-col gap-6 md:flex-row md:items-end md:justify-between">
        <div className="max-w-2xl">
          <h1 className="text-4xl font-semibold md:text-5xl">{t('categories.title')}</h1>
          <p className="mt-3 text-lg text-muted">{t('categories.intro')}</p>
        </div>
        <div className="flex flex-wrap items-end gap-4">
          <Form method="get" className="flex w-full items-end gap-2 sm:w-auto" preventScrollReset>
            <ListSelect
              id="category-select"
              name="category"
              label={t('categories.select')}
              value={category ?? ''}
              options={[{ value: '', label: t('categories.allCategories') }, ...categories.map((c) => ({ value: c, label: t(`categories.${c}`) }))]}
              icon={ChevronDown}
              className="w-full sm:min-w-64"
            />
            {sort && <input type="hidden" name="sort" value={sort} />}
            {!hydrated && <button type="submit" className="btn-primary shrink-0 py-3">{t('categories.show')}</button>}
          </Form>
          <SortSelect action={path('/categories')} sort={sort} category={category} />
        </div>
      </div>

      <div className="mt-10" aria-live="polite">
        {products.length === 0 ? (
          <p className="rounded-3xl bg-paper px-6 py-16 text-center text-muted ring-1 ring-sand">{t('categories.empty')}</p>
        ) : (
          <ProductGrid products={products} />
        )}
      </div>
      {hasMore && (
        <div className="mt-10 flex justify-center">
          <Link to={path(`/categories?${more}#item-${products.length + 1}`)} preventScrollReset className="btn-outline px-8 py-3">
            {t('categories.loadMore')}
          </Link>
        </div>
      )}
    </div>
  );
}
