import { useEffect } from 'react';
import {
  Links,
  data,
  Meta,
  Outlet,
  Scripts,
  type ShouldRevalidateFunction,
  ScrollRestoration,
  isRouteErrorResponse,
  useLocation,
  useRouteError,
  useRouteLoaderData,
} from 'react-router';
import frauncesLatin from '@fontsource-variable/fraunces/files/fraunces-latin-wght-normal.woff2?url';
import interLatin from '@fontsource-variable/inter/files/inter-latin-wght-normal.woff2?url';
import type { Route } from './+types/root';
import stylesheet from './app.css?url';
import { CookieBanner } from './components/layout/cookie-banner';
import { NavigationProgress } from './components/layout/navigation-progress';
import { LanguageSuggestion } from './components/layout/language-suggestion';
import { ErrorPanel } from './components/layout/error-panel';
import { SiteFooter } from './components/layout/site-footer';
import { SiteHeader } from './components/layout/site-header';
import { usePageViews, usePendingServerEvent } from './lib/analytics';
import { RouteAnnouncer, useNavigationFocus } from './lib/navigation-focus';
import { failureKindOf, failureTextKey } from './lib/failure';
import { useNonce } from './lib/nonce';
import { sharedPagesMiddleware } from './http/shared-pages.server';
import { greetingName, shopperContext, shopperMiddleware } from './http/shopper.server';
import { countCartItems } from './modules/cart/index.server';
import { getMessages } from './modules/i18n/index.server';
import { I18nProvider, useT } from './modules/i18n/react';
import { useRequestLocale } from './modules/i18n/request-locale';
import { seoLinks, siteUrlOf } from './modules/i18n/paths';
import { defaultLocale } from './modules/i18n/translate';
import { appContext } from '~/context';

export const links: Route.LinksFunction = () => [
  { rel: 'preload', href: interLatin, as: 'font', type: 'font/woff2', crossOrigin: 'anonymous' },
  { rel: 'preload', href: frauncesLatin, as: 'font', type: 'font/woff2', crossOrigin: 'anonymous' },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
];

export const middleware: Route.MiddlewareFunction[] = [shopperMiddleware, sharedPagesMiddleware];

export async function loader({ context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const { user, locale, currency, cartId, cartCount: counted } = context.get(shopperContext);
  let cartCount = 0;
  try {
    cartCount = counted ?? (cartId ? await countCartItems(app.db, cartId) : 0);
  } catch (error) {
    app.log.error({ err: error }, 'cart count unavailable');
  }
  return {
    locale,
    currency,
    cartCount,
    user: user ? { displayName: greetingName(user), isAdmin: user.isAdmin } : null,
    messages: getMessages(locale, 'common'),
    /** PUBLIC_URL without a trailing slash, for canonical and alternate links. */
    siteUrl: siteUrlOf(app.config.publicUrl),
  };
}

/** The shop's frame (language, cart count, who is signed in) changes with a form or another page, never with a query alone. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }) =>
  !formMethod && currentUrl.pathname === nextUrl.pathname ? false : defaultShouldRevalidate;

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>('root');
  const requestLocale = useRequestLocale();
  const locale = data?.locale ?? requestLocale;
  const nonce = useNonce();
  return (
    <html lang={locale}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#2b1a12" />
        <Meta />
        {/* Linked, not written into the page (docs/decisions/0033): one file a browser keeps for a year (its name
            changes with its content) instead of 76 kB in every page. As a stylesheet with a precedence, React writes
            it at the top of the head (after a hero picture's preload), before the page's title, fonts and links. */}
        <link rel="stylesheet" href={stylesheet} precedence="default" />
        <Links />
        {data && <SeoLinks siteUrl={data.siteUrl} />}
      </head>
      <body className="flex min-h-screen flex-col">
        <I18nProvider locale={locale} currency={data?.currency ?? 'EUR'}>
          {children}
        </I18nProvider>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

function Shell({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>('root');
  const t = useT();
  usePageViews();
  usePendingServerEvent();
  useRememberedLanguage(data?.locale ?? defaultLocale);
  const { pathname } = useLocation();
  const announcement = useNavigationFocus();
  return (
    <>
      <a
        href="#main"
        className="sr-only z-50 rounded-full bg-roast px-4 py-2 text-cream focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        {t('nav.skip')}
      </a>
      {/* Early in the Tab order (right after the skip link), though it shows at the bottom of the screen. */}
      <CookieBanner />
      <RouteAnnouncer text={announcement} />
      <NavigationProgress />
      {pathname === '/' && <LanguageSuggestion />}
      <SiteHeader cartCount={data?.cartCount ?? 0} user={data?.user ?? null} />
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        {children}
      </main>
      <SiteFooter />
    </>
  );
}

/** The canonical URL and the same page in each language, from the URL being rendered. */
function SeoLinks({ siteUrl }: { siteUrl: string }) {
  const { pathname, search } = useLocation();
  return seoLinks(siteUrl, pathname, search).map((link) => <link key={`${link.rel}-${link.hrefLang ?? ''}`} {...link} />);
}

/**
 * A visitor's first page in a language is remembered in local storage (the header button keeps it up to
 * date), so the English home page can offer the Polish one later (LanguageSuggestion). Nothing redirects.
 */
function useRememberedLanguage(locale: string) {
  useEffect(() => {
    try {
      if (!localStorage.getItem('language')) localStorage.setItem('language', locale);
    } catch {
      // Storage may be unavailable (private mode).
    }
    // Only on first load: later switches go through the header button.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}

export default function App() {
  return (
    <Shell>
      <Outlet />
    </Shell>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const t = useT();
  let title = t('errors.unexpectedTitle');
  let text = t('errors.unexpectedText');
  let status = 500;
  if (isRouteErrorResponse(error)) {
    status = error.status;
    const kind = failureKindOf(status);
    const texts = kind && failureTextKey[kind];
    if (texts) {
      title = t(`errors.${texts}Title`);
      text = t(`errors.${texts}Text`);
    }
  }
  return (
    <Shell>
      <title>{`${title} · Kopi`}</title>
      <meta name="robots" content="noindex" />
      <ErrorPanel status={status} title={title} text={text} />
    </Shell>
  );
}
