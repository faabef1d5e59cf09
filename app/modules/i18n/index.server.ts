import enAbout from './locales/en/about.json';
import enAdmin from './locales/en/admin.json';
import enAuth from './locales/en/auth.json';
import enCart from './locales/en/cart.json';
import enCategories from './locales/en/categories.json';
import enCheckout from './locales/en/checkout.json';
import enDelivery from './locales/en/delivery.json';
import enCommon from './locales/en/common.json';
import enContact from './locales/en/contact.json';
import enHome from './locales/en/home.json';
import enOrders from './locales/en/orders.json';
import enProduct from './locales/en/product.json';
import enProfile from './locales/en/profile.json';
import enWithdrawal from './locales/en/withdrawal.json';
import enReviews from './locales/en/reviews.json';
import plAbout from './locales/pl/about.json';
import plAdmin from './locales/pl/admin.json';
import plAuth from './locales/pl/auth.json';
import plCart from './locales/pl/cart.json';
import plCategories from './locales/pl/categories.json';
import plCheckout from './locales/pl/checkout.json';
import plDelivery from './locales/pl/delivery.json';
import plCommon from './locales/pl/common.json';
import plContact from './locales/pl/contact.json';
import plHome from './locales/pl/home.json';
import plOrders from './locales/pl/orders.json';
import plProduct from './locales/pl/product.json';
import plProfile from './locales/pl/profile.json';
import plWithdrawal from './locales/pl/withdrawal.json';
import plReviews from './locales/pl/reviews.json';
import enInvoices from './locales/en/invoices.json';
import plInvoices from './locales/pl/invoices.json';
import enPrivacy from './locales/en/privacy.json';
import plPrivacy from './locales/pl/privacy.json';
import { type Locale, type Messages, createT, defaultLocale, isLocale, mergeBundles } from './translate';

export { createT, defaultLocale, isLocale, locales, type Locale, type Messages, type T } from './translate';

const catalogues = {
  en: { common: enCommon, home: enHome, product: enProduct, cart: enCart, contact: enContact, about: enAbout, categories: enCategories, auth: enAuth, profile: enProfile, checkout: enCheckout, orders: enOrders, admin: enAdmin, withdrawal: enWithdrawal, reviews: enReviews, delivery: enDelivery, invoices: enInvoices, privacy: enPrivacy },
  pl: { common: plCommon, home: plHome, product: plProduct, cart: plCart, contact: plContact, about: plAbout, categories: plCategories, auth: plAuth, profile: plProfile, checkout: plCheckout, orders: plOrders, admin: plAdmin, withdrawal: plWithdrawal, reviews: plReviews, delivery: plDelivery, invoices: plInvoices, privacy: plPrivacy },
} as const satisfies Record<Locale, Record<string, Messages>>;

export type Namespace = keyof (typeof catalogues)['en'];
export const namespaces = Object.keys(catalogues.en) as Namespace[];

function merge(base: Messages, over: Messages): Messages {
  const out: Messages = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] = typeof value === 'object' && typeof current === 'object' ? merge(current, value) : value;
  }
  return out;
}

const merged = new Map<string, Messages>();
/** The namespaces a page needs, in one locale; Polish keys fall back to English. Only these reach the browser. */
export function getMessages(locale: Locale, ...names: Namespace[]): Record<string, Messages> {
  const out: Record<string, Messages> = {};
  for (const name of names) {
    const key = `${locale}:${name}`;
    let messages = merged.get(key);
    if (!messages) {
      messages = locale === defaultLocale ? catalogues.en[name] : merge(catalogues.en[name], catalogues[locale][name]);
      merged.set(key, messages);
    }
    out[name] = messages;
  }
  return out;
}

/** A server-side translator over every namespace (for meta tags, mails and logs). */
const trees = new Map<Locale, Messages>();
export function getT(locale: Locale) {
  let tree = trees.get(locale);
  if (!tree) trees.set(locale, (tree = mergeBundles([getMessages(locale, ...namespaces)])));
  return createT(locale, tree);
}

/** Both locales' text for one key, e.g. category labels for the search index. */
export function translationsOf(key: string): string[] {
  return [getT('en')(key), getT('pl')(key)];
}
