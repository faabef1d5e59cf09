/**
 * The shop's two currencies and the owner's rule that proposes złoty prices from euro prices (browser-safe, no
 * database). Prices are fixed per currency (docs/decisions/0023): the rate only proposes, the owner applies.
 */
export const currencies = ['EUR', 'PLN'] as const;
export type Currency = (typeof currencies)[number];
export const isCurrency = (value: unknown): value is Currency => currencies.includes(value as Currency);

/** One amount per currency, in minor units (euro cents, grosze). */
export type Prices = Record<Currency, number>;

/** How a proposed złoty price ends: ".99" (12.99), ".49" (12.49) or whole złoty (13.00). */
export const roundings = ['99', '49', '00'] as const;
export type Rounding = (typeof roundings)[number];
export const isRounding = (value: unknown): value is Rounding => roundings.includes(value as Rounding);

/** The rate is kept in ten-thousandths of a złoty per euro (4.3000 → 43000), so it never drifts as a float. */
export const RATE_SCALE = 10_000;
export const MIN_RATE = 1 * RATE_SCALE;
/** The rate and rounding a shop starts with (the owner sets their own on the currencies page). */
export const START_RATE = 42_500;
export const START_ROUNDING: Rounding = '99';
export const MAX_RATE = 10 * RATE_SCALE;

/**
 * The złoty price a euro price becomes at `rate` (ten-thousandths), rounded to the nearest amount with the
 * chosen ending (ties go up), and never below the smallest such amount: 12.50 € × 4.3 = 53.75 zł → 53.99 (.99),
 * 53.49 (.49) or 54.00 (whole).
 */
export function proposePrice(euroCents: number, rate: number, rounding: Rounding): number {
  const grosze = (euroCents * rate) / RATE_SCALE;
  const ending = Number(rounding);
  const step = 100;
  // The candidates are n·100 + ending (for whole złoty, the ending is 0).
  const below = Math.floor((grosze - ending) / step) * step + ending;
  const nearest = grosze - below < below + step - grosze ? below : below + step;
  return Math.max(nearest, ending === 0 ? step : ending);
}

/** A delivery price or threshold in złoty from its euro amount: free stays free. */
export const proposeDeliveryPrice = (euroCents: number, rate: number, rounding: Rounding): number => (euroCents === 0 ? 0 : proposePrice(euroCents, rate, rounding));

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
