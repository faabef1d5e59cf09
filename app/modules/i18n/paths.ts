/**
 * Every storefront page has one URL per language: English at the spec's paths (`/cart`), Polish under
 * `/pl` (`/pl/cart`, `/pl` for the home page). The URL alone decides the language of these pages, so each
 * can be cached, indexed and linked in either language. The back office and a few technical endpoints have
 * one URL and follow the `lang` cookie (see `isLocalizedPath`).
 */
import { type Locale, defaultLocale } from './translate';

const PREFIX = '/pl';

/** PUBLIC_URL without its trailing slash, to put a path after (it may have a path prefix of its own). */
export const siteUrlOf = (publicUrl: URL): string => publicUrl.href.replace(/\/+$/, '');

/** Open Graph's names of the languages. */
export const ogLocale: Record<Locale, string> = { en: 'en_GB', pl: 'pl_PL' };

/** Paths that exist once, in the language of the `lang` cookie: the back office and technical endpoints. */
const UNLOCALIZED = /^\/(admin|add-product|edit-product|language|api|auth\/google|sitemap\.xml|robots\.txt)(\/|\.|$)/;

/** `/pl/cart` → pl + `/cart`; `/pl` and `/pl.data` → pl + `/`; anything else is English as it stands. */
export function splitLocale(pathname: string): { locale: Locale; path: string } {
  if (pathname === PREFIX || pathname === `${PREFIX}/`) return { locale: 'pl', path: '/' };
  if (pathname === `${PREFIX}.data`) return { locale: 'pl', path: '/_root.data' };
  if (pathname.startsWith(`${PREFIX}/`)) return { locale: 'pl', path: pathname.slice(PREFIX.length) };
  return { locale: defaultLocale, path: pathname };
}

/** Whether the page at this path (without a language prefix) has a URL per language. */
export const isLocalizedPath = (path: string): boolean => !UNLOCALIZED.test(path);

/**
 * The language a URL asks for, or null for the single-URL pages (whose language the cookie decides).
 */
export function localeOfPath(pathname: string): Locale | null {
  const { locale, path } = splitLocale(pathname);
  if (locale !== defaultLocale) return locale;
  return isLocalizedPath(path) ? locale : null;
}

/**
 * The URL of `target` (a path with optional query and fragment, as the English site spells it) in `locale`:
 * `/cart` → `/pl/cart`, `/` → `/pl`, `/?q=x#shop` → `/pl?q=x#shop`. Unlocalized paths stay as they are.
 */
export function localePath(locale: Locale, target: string): string {
  if (locale === defaultLocale || !target.startsWith('/') || target.startsWith('//')) return target;
  const end = target.search(/[?#]/);
  const path = end === -1 ? target : target.slice(0, end);
  const rest = end === -1 ? '' : target.slice(end);
  if (!isLocalizedPath(path)) return target;
  return path === '/' ? `${PREFIX}${rest}` : `${PREFIX}${path}${rest}`;
}

/** The same page in the other language: `/pl/product/x?image=2` → `/product/x?image=2` and back. */
export function counterpartPath(target: string, to: Locale): string {
  const end = target.search(/[?#]/);
  const pathname = end === -1 ? target : target.slice(0, end);
  const rest = end === -1 ? '' : target.slice(end);
  return localePath(to, splitLocale(pathname).path + rest);
}

/** Query parameters that make a different page worth indexing (a category's listing); the rest are views of one page. */
const CANONICAL_PARAMS = ['category'];

export type SeoLink = { rel: 'canonical' | 'alternate'; href: string; hrefLang?: 'en' | 'pl' | 'x-default' };

/**
 * The canonical URL of a page and, for pages with a URL per language, its `hreflang` alternates (English is
 * the x-default). `siteUrl` is PUBLIC_URL without a trailing slash.
 */
export function seoLinks(siteUrl: string, pathname: string, search = ''): SeoLink[] {
  const params = new URLSearchParams(search);
  const kept = new URLSearchParams();
  for (const name of CANONICAL_PARAMS) {
    const value = params.get(name);
    if (value) kept.set(name, value);
  }
  const query = kept.size > 0 ? `?${kept}` : '';
  const { locale, path } = splitLocale(pathname);
  if (!isLocalizedPath(path)) return [{ rel: 'canonical', href: siteUrl + pathname + query }];
  const en = siteUrl + localePath('en', path) + query;
  const pl = siteUrl + localePath('pl', path) + query;
  return [
    { rel: 'canonical', href: locale === 'pl' ? pl : en },
    { rel: 'alternate', hrefLang: 'en', href: en },
    { rel: 'alternate', hrefLang: 'pl', href: pl },
    { rel: 'alternate', hrefLang: 'x-default', href: en },
  ];
}
