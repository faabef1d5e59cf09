import { createContext, useContext } from 'react';
import { type Locale, defaultLocale, isLocale } from './translate';

/**
 * The language of the request being rendered, for pages that render without the root loader's data
 * (errors raised before loaders run). The server provides it; in the browser `<html lang>` carries it.
 */
export const RequestLocaleContext = createContext<Locale | null>(null);

export function useRequestLocale(): Locale {
  const fromServer = useContext(RequestLocaleContext);
  if (fromServer) return fromServer;
  const lang = typeof document === 'undefined' ? undefined : document.documentElement.lang;
  return isLocale(lang) ? lang : defaultLocale;
}
