import { formatNumber, formatPrice } from '~/lib/format';
import type { Locale } from '~/modules/i18n/translate';
import type { Currency } from '~/modules/pricing/currencies';

/**
 * The price per kilogram the EU's unit-pricing rule (Directive 98/6/EC) asks beside every price of goods
 * sold by weight. It is a function of a price and a net weight, not of a product, so when variants come
 * (a 250 g and a 1 kg bag of one coffee) each variant passes its own.
 */

/** The largest net weight the shop takes, in grams (100 kg). */
export const MAX_NET_WEIGHT_GRAMS = 100_000;

/** Cents per kilogram, rounded to the cent; null without a usable weight. */
export function unitPriceCents(priceCents: number, netWeightGrams: number | null | undefined): number | null {
  if (!netWeightGrams || netWeightGrams <= 0) return null;
  return Math.round((priceCents * 1000) / netWeightGrams);
}

/** "€87.60 / kg" (en) or "87,60 € / kg", "372,00 zł / kg" (pl); null without a weight. */
export function formatUnitPrice(priceCents: number, netWeightGrams: number | null | undefined, currency: Currency, locale: Locale): string | null {
  const cents = unitPriceCents(priceCents, netWeightGrams);
  return cents === null ? null : `${formatPrice(cents, currency, locale)}\u00a0/\u00a0kg`;
}

/** "250 g", "1 kg", "5,5 g": a net weight as a shopper reads it. */
export function formatWeight(grams: number, locale: Locale): string {
  const number = (value: number) => formatNumber(value, locale, { maximumFractionDigits: 2 });
  return grams >= 1000 && grams % 100 === 0 ? `${number(grams / 1000)}\u00a0kg` : `${number(grams)}\u00a0g`;
}
