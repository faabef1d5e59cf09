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

/** A delivery price in złoty from its euro amount: free stays free. */
export const proposeDeliveryPrice = (euroCents: number, rate: number, rounding: Rounding): number => (euroCents === 0 ? 0 : proposePrice(euroCents, rate, rounding));

/**
 * A free-delivery threshold in złoty from its euro amount, round as a Polish shop writes one ("od 200 zł", not
 * "od 212,99 zł", which reads as a conversion): the nearest 10 zł below 100 zł, 50 zł up to 500 zł, 100 zł above
 * (ties go up); never 0 for a threshold that is not 0.
 */
export function proposeThreshold(euroCents: number, rate: number): number {
  if (euroCents === 0) return 0;
  const grosze = (euroCents * rate) / RATE_SCALE;
  const step = grosze < 100_00 ? 10_00 : grosze < 500_00 ? 50_00 : 100_00;
  return Math.max(step, Math.floor(grosze / step + 0.5) * step);
}
