import { Flame, Leaf, Truck } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, data } from 'react-router';
import { revealMessage } from '~/lib/navigation-focus';
import { CategoryFilter } from '~/components/catalog/category-filter';
import { ProductGrid } from '~/components/catalog/product-grid';
import { SearchBox } from '~/components/catalog/search-box';
import { SortSelect } from '~/components/catalog/sort-select';
import { HeroCarousel, type HeroSlide } from '~/components/home/hero-carousel';
import { PAGE_SIZE, productListQuerySchema } from '~/modules/catalog/catalog.schema';
import { listProducts } from '~/modules/catalog/index.server';
import { organizationJsonLd } from '~/modules/catalog/structured-data';
import { ogLocale, siteUrlOf } from '~/modules/i18n/paths';
import { getMessages, getT } from '~/modules/i18n/index.server';
import { useLocalePath, useT } from '~/modules/i18n/react';
import type { Route } from './+types/home';
import { appContext } from '~/context';
import { shopperContext } from '~/http/shopper.server';

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const { locale, currency } = context.get(shopperContext);
  const query = productListQuerySchema.parse(Object.fromEntries(url.searchParams));
  const { items, hasMore, correctedQuery } = await listProducts(app.db, app.storage, {
    locale,
    currency,
    q: query.q,
    category: query.category,
    sort: query.sort,
    limit: query.page * PAGE_SIZE,
    offset: 0,
  });
  const t = getT(locale);
  return data({
    products: items,
    hasMore,
    q: query.q,
    correctedQuery,
    category: query.category,
    sort: query.sort,
    page: query.page,
    meta: { title: t('home.meta.title'), description: t('home.meta.description'), locale: ogLocale[locale] },
    jsonLd: organizationJsonLd(siteUrlOf(app.config.publicUrl), t('contact.info.email')),
    messages: getMessages(locale, 'home'),
  });
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.meta.title },
  { name: 'description', content: loaderData?.meta.description },
  { property: 'og:title', content: loaderData?.meta.title },
  { property: 'og:description', content: loaderData?.meta.description },
  { property: 'og:type', content: 'website' },
  { property: 'og:site_name', content: 'Kopi' },
  { property: 'og:locale', content: loaderData?.meta.locale },
  ...(loaderData ? [{ 'script:ld+json': loaderData.jsonLd }] : []),
];

const slideImages = ['/hero/sumatra.svg', '/hero/java.svg', '/hero/bali.svg'];

export default function Home({ loaderData }: Route.ComponentProps) {
  const path = useLocalePath();
  const { products, hasMore, q, correctedQuery, category, sort, page } = loaderData;
  const t = useT();
  const slides: HeroSlide[] = slideImages.map((image, i) => ({
    image,
    eyebrow: t(`home.slides.${i}.eyebrow`),
    title: t(`home.slides.${i}.title`),
    text: t(`home.slides.${i}.text`),
    alt: t(`home.slides.${i}.alt`),
  }));
  // A search lands on its results: focused and in view, however far down the search box left them.
  const resultsNote = useRef<HTMLParagraphElement>(null);
  const searched = useRef(q);
  useEffect(() => {
    if (searched.current === q) return;
    searched.current = q;
    if (q) revealMessage(resultsNote.current);
  }, [q]);
  const more = new URLSearchParams();
  if (q) more.set('q', q);
  if (category) more.set('category', category);
  if (sort) more.set('sort', sort);
  more.set('page', String(page + 1));

  return (
    <>
      <HeroCarousel slides={slides} heading={t('home.hero.heading')} intro={t('home.hero.intro')} cta={t('home.hero.cta')} />

      <ul className="container-page grid gap-4 py-10 text-sm sm:grid-cols-3">
        {[
          { icon: Leaf, key: 'direct' },
          { icon: Flame, key: 'roasted' },
          { icon: Truck, key: 'shipping' },
        ].map(({ icon: Icon, key }) => (
          <li key={key} className="flex items-start gap-3 rounded-2xl bg-paper p-4 ring-1 ring-sand">
            <Icon aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-leaf" />
            <span>
              <span className="block font-semibold">{t(`home.values.${key}.title`)}</span>
              <span className="text-muted">{t(`home.values.${key}.text`)}</span>
            </span>
          </li>
        ))}
      </ul>

      <section id="shop" aria-labelledby="shop-heading" className="container-page scroll-mt-24 pt-6">
        <div className="flex flex-col gap-6 md:flex-row md:items-end md:justify-between">
          <div>
            <p className="eyebrow">{t('home.shop.eyebrow')}</p>
            <h2 id="shop-heading" className="mt-2 text-3xl font-semibold md:text-4xl">
              {t('home.shop.title')}
            </h2>
          </div>
          <SearchBox q={q} category={category} sort={sort} />
        </div>
        <div className="mt-6 flex flex-col gap-4 lg:flex-row lg:items-end lg:justify-between">
          <CategoryFilter active={category} q={q} sort={sort} />
          <SortSelect action={`${path('/')}#shop`} sort={sort} q={q} category={category} />
        </div>

        <div className="mt-8 scroll-mt-28" aria-live="polite" id="results">
          {q && (
            <p ref={resultsNote} className="mb-6 text-muted focus:outline-none" data-testid="search-results-note">
              {correctedQuery ? t('home.results.corrected', { q: correctedQuery }) : t('home.results.for', { q })}{' '}
              <Link to={path(category ? `/?category=${category}#shop` : '/#shop')} preventScrollReset className="font-medium text-leaf underline underline-offset-4">
                {t('home.results.clear')}
              </Link>
            </p>
          )}
          {products.length === 0 ? (
            <div className="rounded-3xl bg-paper px-6 py-16 text-center ring-1 ring-sand">
              <p className="font-serif text-2xl">{t('home.results.emptyTitle')}</p>
              <p className="mt-2 text-muted">{t('home.results.emptyText')}</p>
              <Link to={path('/#shop')} className="btn-outline mt-6">
                {t('home.results.showAll')}
              </Link>
            </div>
          ) : (
            <ProductGrid products={products} />
          )}
        </div>

        {hasMore && (
          <div className="mt-10 flex justify-center">
            <Link to={path(`/?${more}#item-${products.length + 1}`)} preventScrollReset className="btn-outline px-8 py-3" data-testid="load-more">
              {t('home.loadMore')}
            </Link>
          </div>
        )}
      </section>
    </>
  );
}
