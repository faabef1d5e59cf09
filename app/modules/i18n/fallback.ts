/**
 * The layout's and error pages' texts in both languages, bundled with the root route: a 405 (or any
 * error before the root loader ran) renders without loader data and still speaks the visitor's language.
 * Named JSON imports keep the rest of the common catalogue out of the bundle.
 */
import { brand as enBrand, cookies as enCookies, errors as enErrors, footer as enFooter, nav as enNav } from './locales/en/common.json';
import { brand as plBrand, cookies as plCookies, errors as plErrors, footer as plFooter, nav as plNav } from './locales/pl/common.json';
import type { Locale, Messages } from './translate';

export const fallbackMessages: Record<Locale, Messages> = {
  en: { brand: enBrand, cookies: enCookies, errors: enErrors, footer: enFooter, nav: enNav },
  pl: { brand: plBrand, cookies: plCookies, errors: plErrors, footer: plFooter, nav: plNav },
};
