import { type ReactNode, createContext, useContext, useMemo } from 'react';
import { useMatches } from 'react-router';
import type { Currency } from '~/modules/pricing/currencies';
import { fallbackMessages } from './fallback';
import { localePath } from './paths';
import { type Locale, type Messages, type T, createT, defaultLocale, mergeBundles } from './translate';

/**
 * `path('/cart')` is the page's URL in the current language (`/pl/cart` on Polish pages); `currency` is the one
 * the shopper's pages are in (the header's switch shows it). Amounts are formatted with the currency their own
 * data carries (a product's, the cart's, an order's), never this one: a page's data may be newer than the frame's.
 */
type I18n = { locale: Locale; currency: Currency; t: T; path: (target: string) => string };
const I18nContext = createContext<I18n>({
  locale: defaultLocale,
  currency: 'EUR',
  t: (key) => key,
  path: (target) => target,
});

/**
 * Provides the translator built from the `messages` every matched route's loader returned, so each page
 * ships only the namespaces it uses.
 */
export function I18nProvider({ locale, currency, children }: { locale: Locale; currency: Currency; children: ReactNode }) {
  const matches = useMatches();
  const bundles = matches.map((m) => (m.loaderData as { messages?: Record<string, Messages> } | undefined)?.messages);
  const value = useMemo(() => {
    return {
      locale,
      currency,
      t: createT(locale, mergeBundles(bundles), fallbackMessages[locale]),
      path: (target: string) => localePath(locale, target),
    };
    // The bundles are stable objects from loader data; recompute when any of them changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [locale, currency, ...bundles]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export const useT = () => useContext(I18nContext).t;
export const useLocale = () => useContext(I18nContext).locale;
export const useLocalePath = () => useContext(I18nContext).path;
export const useI18n = () => useContext(I18nContext);
