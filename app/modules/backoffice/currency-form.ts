/**
 * The owner's currency settings form (browser-safe; the back office's own, so it stays out of the storefront's
 * shared code): the rate as typed, and the form's checks, shared by the page and the server.
 */
import { type Currency, MAX_RATE, MIN_RATE, RATE_SCALE, type Rounding, isCurrency, isRounding } from '~/modules/pricing/currencies';

/** "4.25" or "4,2500" → 42500 ten-thousandths; null unless a number from 1 to 10 with at most four decimals. */
export function parseRate(text: string): number | null {
  const match = /^(\d{1,2})(?:[.,](\d{1,4}))?$/.exec(text.trim());
  if (!match) return null;
  const rate = Number(match[1]) * RATE_SCALE + Number((match[2] ?? '').padEnd(4, '0'));
  return rate >= MIN_RATE && rate <= MAX_RATE ? rate : null;
}

/** 42500 → "4.25" (at least two decimals, as the owner typed it). */
export function rateText(rate: number): string {
  const whole = Math.floor(rate / RATE_SCALE);
  const fraction = String(rate % RATE_SCALE).padStart(4, '0').replace(/0{1,2}$/, '');
  return `${whole}.${fraction.length < 2 ? fraction.padEnd(2, '0') : fraction}`;
}

export type CurrencyForm = { defaults: Record<'en' | 'pl', Currency>; rate: number; rounding: Rounding };
export type CurrencyFormResult = { ok: true; form: CurrencyForm } | { ok: false; errors: Partial<Record<'defaultEn' | 'defaultPl' | 'rate' | 'rounding', 'currency' | 'rate' | 'rounding'>> };

/** The owner's currency settings form (the server checks it; the page mirrors it). */
export function parseCurrencyForm(form: FormData): CurrencyFormResult {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value.slice(0, 100) : '';
  };
  const [en, pl, rate, rounding] = [text('defaultEn'), text('defaultPl'), parseRate(text('rate')), text('rounding')];
  const errors: Extract<CurrencyFormResult, { ok: false }>['errors'] = {};
  if (!isCurrency(en)) errors.defaultEn = 'currency';
  if (!isCurrency(pl)) errors.defaultPl = 'currency';
  if (rate === null) errors.rate = 'rate';
  if (!isRounding(rounding)) errors.rounding = 'rounding';
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, form: { defaults: { en: en as Currency, pl: pl as Currency }, rate: rate!, rounding: rounding as Rounding } };
}
