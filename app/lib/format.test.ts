import { describe, expect, it } from 'vitest';
import { createT } from '~/modules/i18n/translate';
import { currencies } from '~/modules/pricing/currencies';
import { formatDate, formatDateTime, formatDayMonth, formatNumber, formatPrice } from './format';

describe('formatPrice', () => {
  it('shows the euro sign and two decimals in each locale', () => {
    expect(formatPrice(1250, 'EUR', 'en')).toBe('€12.50');
    expect(formatPrice(1250, 'EUR', 'pl').replace(/\s/g, ' ')).toBe('12,50 €');
    expect(formatPrice(100000, 'EUR', 'pl').replace(/\s/g, ' ')).toBe('1000,00 €');
    expect(formatPrice(0, 'EUR', 'en')).toBe('€0.00');
  });

  it('writes złoty as each language does', () => {
    expect(formatPrice(1299, 'PLN', 'pl').replace(/\s/g, ' ')).toBe('12,99 zł');
    expect(formatPrice(1299, 'PLN', 'en').replace(/\s/g, ' ')).toBe('PLN 12.99');
  });
});

describe('formatDate', () => {
  it("prints the shop's calendar day whatever the machine's time zone", () => {
    // 23:30 UTC on 21 November is already 22 November in Warsaw.
    expect(formatDate('2026-11-21T23:30:00.000Z', 'en')).toBe('22 November 2026');
    expect(formatDate('2026-11-21T23:30:00.000Z', 'pl')).toBe('22 listopada 2026');
  });
});

/** The shop's formats are written out by hand (no Intl in the browser's hydration); they must be Intl's. */
describe('the same text as Intl', () => {
  const intl = { en: 'en-IE', pl: 'pl-PL' } as const;
  const locales = ['en', 'pl'] as const;

  it('prices', () => {
    const cents = [0, 1, 5, 99, 100, 1250, 99999, 100000, 123456, 999999, 1234567, 123456789, -1250, -5];
    for (let i = 0; i < 300; i++) cents.push(Math.floor(Math.random() * 10 ** (1 + (i % 9))));
    for (const locale of locales)
      for (const currency of currencies) {
        const reference = new Intl.NumberFormat(intl[locale], { style: 'currency', currency, minimumFractionDigits: 2 });
        for (const value of cents) expect(formatPrice(value, currency, locale), `${value} ${currency} ${locale}`).toBe(reference.format(value / 100));
      }
  });

  it('numbers, whole and with decimals, as counts, ratings, weights and altitudes use them', () => {
    const values = [0, 1, 4, 4.25, 4.35, 4.45, 1.005, 2.675, 5.5, 12.5, 999, 1000, 1234, 9999, 10000, 12345.678, 1500, 2100, 1234567, -3, -4.25, 0.0004];
    for (let i = 0; i < 300; i++) values.push(Math.round(Math.random() * 10 ** (i % 8) * 1000) / 1000);
    const shapes: Array<Intl.NumberFormatOptions | undefined> = [undefined, { minimumFractionDigits: 1, maximumFractionDigits: 1 }, { maximumFractionDigits: 2 }];
    for (const locale of locales)
      for (const options of shapes) {
        const reference = new Intl.NumberFormat(intl[locale], options);
        for (const value of values) expect(formatNumber(value, locale, options), `${value} ${locale} ${JSON.stringify(options)}`).toBe(reference.format(value));
      }
  });

  it("dates and times in Warsaw, across both clock changes and every month", () => {
    const moments = ['2026-03-29T00:59:59Z', '2026-03-29T01:00:00Z', '2026-10-25T00:59:59Z', '2026-10-25T01:00:00Z', '2025-12-31T23:30:00Z', '2024-02-29T12:00:00Z', '2030-03-31T00:30:00Z'];
    for (let i = 0; i < 400; i++) moments.push(new Date(Date.UTC(2020, 0, 1) + Math.floor(Math.random() * 15 * 365 * 86_400_000)).toISOString());
    for (const locale of locales) {
      const day = new Intl.DateTimeFormat(intl[locale], { dateStyle: 'long', timeZone: 'Europe/Warsaw' });
      const moment = new Intl.DateTimeFormat(intl[locale], { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/Warsaw' });
      for (const iso of moments) {
        expect(formatDate(iso, locale), iso).toBe(day.format(new Date(iso)));
        expect(formatDateTime(iso, locale), iso).toBe(moment.format(new Date(iso)));
      }
      const dayMonth = new Intl.DateTimeFormat(intl[locale], { day: 'numeric', month: 'short', timeZone: 'UTC' });
      for (let month = 0; month < 12; month++)
        for (const date of [1, 9, 28]) {
          const day = new Date(Date.UTC(2026, month, date)).toISOString().slice(0, 10);
          expect(formatDayMonth(day, locale), day).toBe(dayMonth.format(new Date(`${day}T00:00:00Z`)));
        }
    }
  });

  it('numbers inside messages', () => {
    const t = createT('pl', { items: '{{count}} szt.', total: 'razem {{n}}' });
    expect(t('items', { count: 12345 })).toBe(`${new Intl.NumberFormat('pl-PL').format(12345)} szt.`);
    expect(t('total', { n: 2.5 })).toBe('razem 2,5');
    expect(createT('en', { n: '{{n}} reviews' })('n', { n: 1250 })).toBe('1,250 reviews');
  });
});
