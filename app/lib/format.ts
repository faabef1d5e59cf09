import type { Locale } from '~/modules/i18n/translate';

const intlLocale: Record<Locale, string> = { en: 'en-IE', pl: 'pl-PL' };
const moneyFormats = new Map<Locale, Intl.NumberFormat>();

/** Euro cents → "€12.50" (en) or "12,50 €" (pl). */
export function formatPrice(cents: number, locale: Locale): string {
  let format = moneyFormats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(intlLocale[locale], { style: 'currency', currency: 'EUR', minimumFractionDigits: 2 });
    moneyFormats.set(locale, format);
  }
  return format.format(cents / 100);
}

export function formatNumber(value: number, locale: Locale, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(intlLocale[locale], options).format(value);
}

/** Dates are shown in the shop's time zone, so the server and every browser print the same day. */
export const SHOP_TIME_ZONE = 'Europe/Warsaw';

export function formatDate(iso: string, locale: Locale): string {
  return new Intl.DateTimeFormat(intlLocale[locale], { dateStyle: 'long', timeZone: SHOP_TIME_ZONE }).format(new Date(iso));
}

/** A moment, with its time, in the shop's time zone ("23 Nov 2026, 13:48"). */
export function formatDateTime(iso: string, locale: Locale): string {
  return new Intl.DateTimeFormat(intlLocale[locale], { dateStyle: 'medium', timeStyle: 'short', timeZone: SHOP_TIME_ZONE }).format(new Date(iso));
}
