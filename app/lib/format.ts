import type { Locale } from '~/modules/i18n/translate';
import type { Currency } from '~/modules/pricing/currencies';
import { numberFormat } from './intl';

/**
 * Prices, numbers and dates in the shop's two formats, written out here rather than with Intl: a browser
 * builds its number and date data the first time a page asks for an Intl formatter, 30–90 ms of main
 * thread on this 2-core machine and more on a phone, in the middle of hydrating the page
 * (docs/decisions/0018). The output is exactly Intl's for en-IE and pl-PL (format.test.ts compares them),
 * and the same on the server and in every browser, whatever ICU version each carries. Only the back
 * office's rarer formats (percentages) still go to Intl, through a cache (app/lib/intl.ts).
 */

const NBSP = '\u00a0';
const intlLocale: Record<Locale, string> = { en: 'en-IE', pl: 'pl-PL' };

/** Digit groups: "1,234,567" (en); "1234" but "12 345" with no-break spaces (pl, from five digits). */
function groupDigits(digits: string, locale: Locale): string {
  if (locale === 'pl' && digits.length < 5) return digits;
  const separator = locale === 'pl' ? NBSP : ',';
  let out = '';
  for (let end = digits.length; end > 0; end -= 3) out = digits.slice(Math.max(0, end - 3), end) + (out ? separator + out : '');
  return out;
}

const symbols: Record<Currency, Record<Locale, { before: string } | { after: string }>> = {
  EUR: { en: { before: '€' }, pl: { after: `${NBSP}€` } },
  PLN: { en: { before: `PLN${NBSP}` }, pl: { after: `${NBSP}zł` } },
};

/** Minor units → "€12.50", "PLN 12.99" (en) or "12,50 €", "12,99 zł" (pl). */
export function formatPrice(cents: number, currency: Currency, locale: Locale): string {
  const whole = Math.round(Math.abs(cents));
  const number = `${groupDigits(String(Math.floor(whole / 100)), locale)}${locale === 'pl' ? ',' : '.'}${String(whole % 100).padStart(2, '0')}`;
  const sign = cents < 0 && whole > 0 ? '-' : '';
  const symbol = symbols[currency][locale];
  return 'before' in symbol ? `${sign}${symbol.before}${number}` : `${sign}${number}${symbol.after}`;
}

/**
 * A number with at least `minimumFractionDigits` and at most `maximumFractionDigits` (default 0 and 3, as
 * Intl), rounded half away from zero on its shortest decimal form, as Intl rounds.
 */
export function formatNumber(value: number, locale: Locale, options?: Intl.NumberFormatOptions): string {
  const { minimumFractionDigits = 0, maximumFractionDigits = Math.max(3, minimumFractionDigits), ...rest } = options ?? {};
  if (Object.keys(rest).length > 0 || !Number.isFinite(value)) return numberFormat(intlLocale[locale], options).format(value);
  const scaled = Math.round(Number(`${Math.abs(value)}e${maximumFractionDigits}`));
  let digits = String(scaled).padStart(maximumFractionDigits + 1, '0');
  let fraction = maximumFractionDigits > 0 ? digits.slice(-maximumFractionDigits) : '';
  digits = maximumFractionDigits > 0 ? digits.slice(0, -maximumFractionDigits) : digits;
  while (fraction.length > minimumFractionDigits && fraction.endsWith('0')) fraction = fraction.slice(0, -1);
  const sign = value < 0 && scaled > 0 ? '-' : '';
  return `${sign}${groupDigits(digits, locale)}${fraction ? (locale === 'pl' ? ',' : '.') + fraction : ''}`;
}

/** Dates are shown in the shop's time zone, so the server and every browser print the same day. */
export const SHOP_TIME_ZONE = 'Europe/Warsaw';

const months: Record<Locale, { long: string[]; short: string[] }> = {
  en: {
    long: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'],
    short: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sept', 'Oct', 'Nov', 'Dec'],
  },
  pl: {
    long: ['stycznia', 'lutego', 'marca', 'kwietnia', 'maja', 'czerwca', 'lipca', 'sierpnia', 'września', 'października', 'listopada', 'grudnia'],
    short: ['sty', 'lut', 'mar', 'kwi', 'maj', 'cze', 'lip', 'sie', 'wrz', 'paź', 'lis', 'gru'],
  },
};

/** 01:00 UTC on the last Sunday of a month: when Warsaw (the EU) changes its clocks. */
function lastSundayAt1Utc(year: number, month: number): number {
  const lastDay = new Date(Date.UTC(year, month + 1, 0, 1));
  return lastDay.getTime() - lastDay.getUTCDay() * 86_400_000;
}

/** The wall clock in Warsaw: UTC+2 from the last Sunday of March to the last Sunday of October, else UTC+1. */
function warsawClock(iso: string): Date {
  const at = new Date(iso).getTime();
  const year = new Date(at).getUTCFullYear();
  const summer = at >= lastSundayAt1Utc(year, 2) && at < lastSundayAt1Utc(year, 9);
  return new Date(at + (summer ? 2 : 1) * 3_600_000);
}

/** "22 November 2026" / "22 listopada 2026", the day in the shop's time zone. */
export function formatDate(iso: string, locale: Locale): string {
  const clock = warsawClock(iso);
  return `${clock.getUTCDate()} ${months[locale].long[clock.getUTCMonth()]} ${clock.getUTCFullYear()}`;
}

/** A moment, with its time, in the shop's time zone ("23 Nov 2026, 13:48" / "23 lis 2026, 13:48"). */
export function formatDateTime(iso: string, locale: Locale): string {
  const clock = warsawClock(iso);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${clock.getUTCDate()} ${months[locale].short[clock.getUTCMonth()]} ${clock.getUTCFullYear()}, ${two(clock.getUTCHours())}:${two(clock.getUTCMinutes())}`;
}

/** A calendar day as the revenue chart labels it: "3 Sept" / "3 wrz" (`day` is YYYY-MM-DD). */
export function formatDayMonth(day: string, locale: Locale): string {
  const [, month, date] = day.split('-').map(Number);
  return `${date} ${months[locale].short[month - 1]}`;
}
