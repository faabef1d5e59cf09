import { type ReactNode, createContext, useContext, useMemo } from 'react';
import { useMatches } from 'react-router';
import { formatPrice } from '~/lib/format';
import type { Currency } from '~/modules/pricing/currencies';
import { fallbackMessages } from './fallback';
import { localePath } from './paths';
import { type Locale, type Messages, type T, createT, defaultLocale, mergeBundles } from './translate';

/**
 * `path('/cart')` is the page's URL in the current language (`/pl/cart` on Polish pages); `price(cents)` is an
 * amount in the page's currency, written as the language writes it ("€12.50", "12,99 zł").
 */
type I18n = { locale: Locale; currency: Currency; t: T; path: (target: string) => string; price: (cents: number) => string };
const I18nContext = createContext<I18n>({
  locale: defaultLocale,
  currency: 'EUR',
  t: (key) => key,
  path: (target) => target,
  price: (cents) => formatPrice(cents, 'EUR', defaultLocale),
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
      price: (cents: number) => formatPrice(cents, currency, locale),
    };
    // The bundles are stable objects from loader data; recompute when any of them changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [locale, currency, ...bundles]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export const useT = () => useContext(I18nContext).t;
export const useLocale = () => useContext(I18nContext).locale;
export const useLocalePath = () => useContext(I18nContext).path;
/** Formats an amount in the page's currency; amounts of an order use formatPrice with the order's currency. */
export const usePrice = () => useContext(I18nContext).price;
export const useCurrency = () => useContext(I18nContext).currency;
export const useI18n = () => useContext(I18nContext);
