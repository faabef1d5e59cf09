import { Flame, Package, Truck } from 'lucide-react';
import { Link, type ShouldRevalidateFunction, data, isRouteErrorResponse, useNavigate, useRouteError, useSearchParams } from 'react-router';
import { ProductAdminActions } from '~/components/admin/product-admin-actions';
import { BuyBox } from '~/components/catalog/buy-box';
import { NotifyMe, type NotifyResult } from '~/components/catalog/notify-me';
import { StockNote } from '~/components/catalog/stock-note';
import { ProductName } from '~/components/catalog/product-name';
import { UnitPrice } from '~/components/catalog/unit-price';
import { CodeOfferNote, LowestPrice, PercentOff, SaleTerms } from '~/components/catalog/reduction';
import { ProductGallery } from '~/components/catalog/product-gallery';
import { type Choice, VariantPicker } from '~/components/catalog/variant-picker';
import { type OptionKind, type Variant, categoryOfChoice, findVariant, isOptionKind, optionValue, variantLabel } from '~/modules/catalog/variants';
import { ProductReviews } from '~/components/catalog/product-reviews';
import { Rating } from '~/components/catalog/rating';
import { ErrorPanel } from '~/components/layout/error-panel';
import { formatNumber, formatPrice } from '~/lib/format';
import { getProduct } from '~/modules/catalog/index.server';
import { listProductReviews } from '~/modules/reviews/index.server';
import { productJsonLd } from '~/modules/catalog/structured-data';
import { getMessages, getT } from '~/modules/i18n/index.server';
import { localePath, ogLocale, siteUrlOf } from '~/modules/i18n/paths';
import { useI18n, useLocalePath, useT } from '~/modules/i18n/react';
import type { Route } from './+types/product';
import { appContext } from '~/context';
import { shopperContext } from '~/http/shopper.server';
import { field, readForm } from '~/http/body.server';
import { parseAlertForm, subscribeToRestock } from '~/modules/alerts/index.server';
import { chooseCountry, countryName, deliveryTeaser, getDeliveryTable, inCurrency } from '~/modules/delivery/index.server';

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  const { locale, currency } = shopper;
  const product = await getProduct(app.db, app.storage, params.id, locale, currency);
  if (!product) throw data(null, { status: 404 });
  const search = new URL(request.url).searchParams;
  const page = Number(search.get('reviews') ?? '1');
  const [reviews, table] = await Promise.all([listProductReviews(app.db, product.id, Number.isFinite(page) ? page : 1), getDeliveryTable(app.db)]);
  const t = getT(locale);
  // What delivery costs to the shopper's country (the one chosen in the cart, else the shop's own).
  const country = chooseCountry(table, shopper.country);
  const teaser = deliveryTeaser(inCurrency(table, currency), country);
  const delivery = teaser
    ? {
        text: [t('delivery.teaser', { price: formatPrice(teaser.fromCents, currency, locale) }), teaser.freeOverCents !== null ? t('delivery.teaserFree', { threshold: formatPrice(teaser.freeOverCents, currency, locale) }) : null]
          .filter(Boolean)
          .join(' · '),
        country: countryName(country, locale),
      }
    : null;
  const name = product.name || t('product.unnamed');
  const url = siteUrlOf(app.config.publicUrl) + localePath(locale, `/product/${product.id}`);
  const view = {
    product,
    reviews,
    delivery,
    meta: {
      title: `${name} · Kopi`,
      description: firstSentences(product.description) || t('home.meta.description'),
      url,
      locale: ogLocale[locale],
      image: product.images[0] ? new URL(product.images[0].src, app.config.publicUrl).href : undefined,
    },
    jsonLd: productJsonLd(product, name, url, app.config.publicUrl, locale, currency, t),
    messages: getMessages(locale, 'product', 'reviews'),
  };
  // A size, grind or pack the coffee is not sold in (a value it does not have, a combination it does not offer, a
  // variant switched off): the page says so, with the picker to choose again, as a 404 (never kept by the page caches).
  const offered = findVariant(product.variants, product.options, chosenOptions(product, search));
  return offered ? view : data(view, { status: 404 });
}

/** "Notify me when it's back" on a sold-out variant: an email address and consent (rate-limited like the other public forms). */
export async function action({ request, params, context }: Route.ActionArgs) {
  const app = context.get(appContext);
  const { locale, user } = context.get(shopperContext);
  const form = await readForm(request);
  const email = field(form, 'email').slice(0, 254);
  if (field(form, 'intent') !== 'notify') return data<NotifyResult>({ notify: 'not_found', email }, { status: 400 });
  const parsed = parseAlertForm(form);
  if (!parsed.ok) return data<NotifyResult>({ notify: 'invalid', fieldErrors: parsed.fieldErrors, email }, { status: 400 });
  const result = await subscribeToRestock(app.db, { input: parsed.data, productId: params.id, locale, ip: app.clientIp, publicUrl: app.config.publicUrl.href, userId: user?.id ?? null }, app.limits);
  if (!result.ok) {
    const status = { not_found: 404, available: 409, rate_limited: 429 }[result.reason];
    return data<NotifyResult>({ notify: result.reason === 'rate_limited' ? 'limited' : result.reason, email }, { status });
  }
  app.kickMail();
  return data<NotifyResult>({ notify: 'subscribed', email: parsed.data.email });
}

export const meta: Route.MetaFunction = ({ loaderData }) => {
  if (!loaderData) return [];
  return [
    { title: loaderData.meta.title },
    { name: 'description', content: loaderData.meta.description },
    { property: 'og:type', content: 'product' },
    { property: 'og:site_name', content: 'Kopi' },
    { property: 'og:locale', content: loaderData.meta.locale },
    { property: 'og:url', content: loaderData.meta.url },
    { property: 'og:title', content: loaderData.meta.title },
    { property: 'og:description', content: loaderData.meta.description },
    ...(loaderData.meta.image ? [{ property: 'og:image', content: loaderData.meta.image }, { property: 'og:image:alt', content: loaderData.meta.title }] : []),
    { 'script:ld+json': loaderData.jsonLd },
  ];
};

function firstSentences(text: string, max = 160): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const end = cut.lastIndexOf('. ');
  return end > 60 ? cut.slice(0, end + 1) : `${cut.slice(0, cut.lastIndexOf(' '))}…`;
}

/**
 * The variant the URL chooses (`?size=1000&grind=espresso`), each option left out taken from the default variant
 * (the cheapest: what its card adds).
 */
function chosenOptions(product: { options: OptionKind[]; defaultVariant: Variant }, search: URLSearchParams): Choice {
  return Object.fromEntries(product.options.map((kind) => [kind, search.get(kind) ?? optionValue(product.defaultVariant, kind)]));
}

/** Choosing a size or a grind changes only the URL's options: the page has every variant already. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }) => {
  if (formMethod || currentUrl.pathname !== nextUrl.pathname) return defaultShouldRevalidate;
  const rest = (url: URL) => [...url.searchParams].filter(([name]) => !isOptionKind(name)).join('&');
  return rest(currentUrl) === rest(nextUrl) ? false : defaultShouldRevalidate;
};

export default function ProductPage({ loaderData, actionData }: Route.ComponentProps) {
  const path = useLocalePath();
  const { product, reviews } = loaderData;
  const { t, locale } = useI18n();
  const price = (cents: number) => formatPrice(cents, product.currency, locale);
  const name = product.name || t('product.unnamed');
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const choice = chosenOptions(product, search);
  const selected = findVariant(product.variants, product.options, choice);
  const choose = (next: Choice) => {
    const params = new URLSearchParams(search);
    for (const kind of product.options) params.set(kind, next[kind] ?? '');
    void navigate({ search: `?${params}` }, { replace: true, preventScrollReset: true });
  };
  const category = product.category ?? 'uncategorized';
  const details: [string, string][] = [];
  if (product.origin) details.push([t('product.details.origin'), product.origin]);
  if (product.region) details.push([t('product.details.region'), product.region]);
  if (product.altitudeMin && product.altitudeMax) {
    details.push([
      t('product.details.altitude'),
      t('product.details.altitudeValue', { min: formatNumber(product.altitudeMin, locale), max: formatNumber(product.altitudeMax, locale) }),
    ]);
  }
  if (product.process) details.push([t('product.details.process'), t(`process.${product.process}`)]);
  if (product.roast) details.push([t('product.details.roast'), t(`roast.${product.roast}`)]);
  // The chosen grind decides what it is: whole beans, or ground to order (never "Whole bean" beside a moka grind).
  details.push([t('product.details.category'), t(`categories.${categoryOfChoice(product.category ?? null, selected?.grind) ?? 'uncategorized'}`)]);

  return (
    <div className="container-page py-8 md:py-12">
      <nav aria-label={t('product.breadcrumb')} className="text-sm text-muted">
        <ol className="flex flex-wrap items-center gap-2">
          <li>
            <Link to={path('/')} className="hover:text-roast hover:underline">{t('nav.home')}</Link>
          </li>
          <li aria-hidden="true">/</li>
          <li>
            <Link to={path(product.category ? `/categories?category=${product.category}` : '/categories')} className="hover:text-roast hover:underline">
              {t(`categories.${category}`)}
            </Link>
          </li>
          <li aria-hidden="true">/</li>
          <li aria-current="page" className="font-medium text-roast">{name}</li>
        </ol>
      </nav>

      <div className="mt-6 grid gap-10 lg:grid-cols-2 lg:gap-16">
        <ProductGallery images={product.images} alt={name} fallbackAlt={t('product.noImage')} />

        <div className="lg:pt-4">
          {(product.origin || product.region) && <p className="eyebrow">{[product.origin, product.region].filter(Boolean).join(' · ')}</p>}
          <h1 className="mt-3 text-4xl leading-tight font-semibold md:text-5xl">
            <ProductName name={name} />
          </h1>
          <Rating rating={product.rating} reviewCount={product.reviewCount} size="md" className="mt-4" />
          <div aria-live="polite">
            {selected ? (
              <>
                <p className="mt-6 flex flex-wrap items-center gap-3">
                  <span className={`text-3xl font-semibold ${selected.reduction ? 'text-cherry' : ''}`} data-testid="product-price">{price(selected.priceCents)}</span>
                  <PercentOff reduction={selected.reduction} className="px-2.5 py-1 text-sm" />
                </p>
                <p className="mt-1">
                  <UnitPrice priceCents={selected.priceCents} netWeightGrams={selected.netWeightGrams} currency={product.currency} withWeight className="text-sm text-muted" />
                </p>
                {selected.reduction && (
                  <div className="mt-2 space-y-0.5">
                    <p><LowestPrice reduction={selected.reduction} currency={product.currency} className="text-sm text-roast-800" /></p>
                    <SaleTerms reduction={selected.reduction} />
                  </div>
                )}
                <CodeOfferNote offer={selected.codeOffer} currency={product.currency} />
                <StockNote left={selected.left ?? null} roastedOn={product.roastedOn} />
              </>
            ) : (
              <p className="mt-6 text-lg font-medium text-cherry" data-testid="not-offered">{t('variant.notOffered')}</p>
            )}
          </div>
          {product.notes.length > 0 && (
            <ul className="mt-6 flex flex-wrap gap-2" aria-label={t('product.details.notes')}>
              {product.notes.map((note) => (
                <li key={note} className="rounded-full bg-leaf-light px-3 py-1 text-sm font-medium text-leaf-dark">{note}</li>
              ))}
            </ul>
          )}
          {product.description && <p className="mt-6 text-lg leading-relaxed text-roast-800">{product.description}</p>}

          <VariantPicker options={product.options} variants={product.variants} chosen={choice} onChoose={choose} />
          {selected?.left === 0 ? (
            <NotifyMe key={selected.id} variantId={selected.id} result={actionData as NotifyResult | undefined} />
          ) : selected && (
            <BuyBox
              productId={product.id}
              variant={selected}
              label={variantLabel(selected, product.options, t, locale)}
              name={name}
              price={price(selected.priceCents)}
              currency={product.currency}
            />
          )}
          <ProductAdminActions productId={product.id} name={name} size="md" className="mt-4" />
          <ul className="mt-6 grid gap-3 text-sm text-muted sm:grid-cols-2">
            <li className="flex items-center gap-2"><Flame aria-hidden="true" className="h-4 w-4 text-leaf" />{t('product.promise.roasted')}</li>
            <li className="flex items-center gap-2"><Truck aria-hidden="true" className="h-4 w-4 text-leaf" />{t('product.promise.shipping')}</li>
            {loaderData.delivery && (
              <li className="flex items-center gap-2 sm:col-span-2" data-testid="delivery-teaser">
                <Package aria-hidden="true" className="h-4 w-4 shrink-0 text-leaf" />
                <span>
                  {loaderData.delivery.text} <span className="text-roast-600">({loaderData.delivery.country})</span>
                </span>
              </li>
            )}
          </ul>

          <section aria-labelledby="details-heading" className="mt-10 rounded-3xl bg-paper p-6 ring-1 ring-sand">
            <h2 id="details-heading" className="text-xl font-semibold">{t('product.details.heading')}</h2>
            <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-6 gap-y-3 text-sm">
              {details.map(([label, value]) => (
                <div key={label} className="contents">
                  <dt className="text-muted">{label}</dt>
                  <dd className="font-medium" data-testid={label === t('product.details.category') ? 'product-type' : undefined}>{value}</dd>
                </div>
              ))}
            </dl>
          </section>
        </div>
      </div>

      <ProductReviews rating={product.rating} reviewCount={product.reviewCount} reviews={reviews} />
    </div>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const t = useT();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const title = notFound ? t('errors.productNotFoundTitle') : t('errors.productLoadErrorTitle');
  return (
    <>
      <title>{`${title} · Kopi`}</title>
      <ErrorPanel
        status={notFound ? 404 : 500}
        title={title}
        text={notFound ? t('errors.productNotFoundText') : t('errors.productLoadErrorText')}
      />
    </>
  );
}
