/**
 * VAT inside gross amounts (browser-safe): what part of a price is tax, and how an order's charge splits into
 * net and VAT per line and per rate so that the parts add up to the amount charged, to the cent.
 *
 * Rates are in basis points (23% → 2300; Finland's 13.5% → 1350) so that no rate is a float.
 */

import { numberFormat } from '~/lib/intl';
import { spread } from '~/lib/spread';

/** What a product is taxed as: coffee (a food in most countries' lists) or anything else (standard rate). */
export const TAX_CLASSES = ['coffee', 'other'] as const;
export type TaxClass = (typeof TAX_CLASSES)[number];
export const isTaxClass = (value: unknown): value is TaxClass => typeof value === 'string' && (TAX_CLASSES as readonly string[]).includes(value);

/** The highest rate the owner may set (no EU country is above 27%; 50% catches a typo's extra digit). */
export const MAX_RATE_BP = 5000;

/** An amount charged at one rate, split into net and VAT (net + VAT = gross). */
export type VatPart = { rateBp: number; grossCents: number; netCents: number; vatCents: number };

/** The VAT inside a gross amount at a rate, rounded half away from zero to the cent. */
export function vatIn(grossCents: number, rateBp: number): number {
  const exact = (grossCents * rateBp) / (10_000 + rateBp);
  return Math.sign(exact) * Math.round(Math.abs(exact));
}

export function vatPart(grossCents: number, rateBp: number): VatPart {
  const vatCents = vatIn(grossCents, rateBp);
  return { rateBp, grossCents, netCents: grossCents - vatCents, vatCents };
}

/**
 * A gross price set with one rate's VAT, with another's instead: the same net, the other rate on top, rounded
 * half away from zero to the cent (a 24.60 € coffee at Polish 23% is 21.40 € at German 7%).
 */
export function grossAtRate(grossCents: number, fromBp: number, toBp: number): number {
  if (fromBp === toBp) return grossCents;
  const exact = (grossCents * (10_000 + toBp)) / (10_000 + fromBp);
  return Math.sign(exact) * Math.round(Math.abs(exact));
}

/** The rates a price is converted between: the home country's, in which prices are set, and the buyer's. */
export type Reprice = { from: Record<TaxClass, number>; to: Record<TaxClass, number> };

/** A unit price as the buyer pays it: converted to their VAT when prices follow it (`reprice`), else as set. */
export const repriced = (cents: number, taxClass: TaxClass, reprice: Reprice | null | undefined): number =>
  reprice ? grossAtRate(cents, reprice.from[taxClass], reprice.to[taxClass]) : cents;


/**
 * An order's VAT: each line's gross (what it cost after its share of any discount) at its rate, and the
 * delivery, which follows its goods: at their rate, or split over their rates in proportion to what the goods
 * at each rate cost (the accepted reading of an ancillary service's "follows the main supply").
 */
export function orderVat(lines: ReadonlyArray<{ grossCents: number; rateBp: number }>, deliveryCents: number): { lines: VatPart[]; delivery: VatPart[] } {
  const parts = lines.map((l) => vatPart(l.grossCents, l.rateBp));
  return { lines: parts, delivery: deliveryCents === 0 ? [] : followGoods(deliveryCents, parts) };
}

function followGoods(amountCents: number, goods: readonly VatPart[]): VatPart[] {
  const byRate = sumByRate(goods);
  if (byRate.length === 0) return [];
  const shares = spread(
    amountCents,
    byRate.map((r) => r.grossCents),
  );
  return byRate.map((r, i) => vatPart(shares[i]!, r.rateBp)).filter((p) => p.grossCents !== 0);
}

/** Parts added up per rate, highest rate first (an order's or an invoice's VAT summary). */
export function sumByRate(parts: readonly VatPart[]): VatPart[] {
  const byRate = new Map<number, VatPart>();
  for (const p of parts) {
    const sum = byRate.get(p.rateBp) ?? { rateBp: p.rateBp, grossCents: 0, netCents: 0, vatCents: 0 };
    byRate.set(p.rateBp, { rateBp: p.rateBp, grossCents: sum.grossCents + p.grossCents, netCents: sum.netCents + p.netCents, vatCents: sum.vatCents + p.vatCents });
  }
  return [...byRate.values()].sort((a, b) => b.rateBp - a.rateBp);
}

/**
 * The VAT in a refund of `amountCents` of an order whose charge split into `parts`: the amount is spread over
 * the order's rates in proportion to what was charged at each, and each share split into net and VAT. A full
 * refund returns the order's own parts' sums exactly.
 */
export function refundVat(parts: readonly VatPart[], amountCents: number): VatPart[] {
  const byRate = sumByRate(parts);
  const charged = byRate.reduce((sum, p) => sum + p.grossCents, 0);
  if (byRate.length === 0 || amountCents === 0) return [];
  if (amountCents === charged) return byRate;
  const shares = spread(
    amountCents,
    byRate.map((p) => p.grossCents),
  );
  return byRate.map((p, i) => vatPart(shares[i]!, p.rateBp)).filter((p) => p.grossCents !== 0);
}

/** "23%", "5.5%" / "5,5%": a rate as people write it. */
export function formatRate(rateBp: number, locale: string): string {
  return `${numberFormat(locale === 'pl' ? 'pl-PL' : 'en-GB', { maximumFractionDigits: 2 }).format(rateBp / 100)}%`;
}

/** Parses the owner's "23", "5.5" or "5,5" into basis points; null for anything else or outside 0–50%. */
export function parseRate(text: string): number | null {
  const trimmed = text.trim().replace(',', '.').replace(/%$/, '').trim();
  if (!/^\d{1,2}(\.\d{1,2})?$/.test(trimmed)) return null;
  const bp = Math.round(Number(trimmed) * 100);
  return bp >= 0 && bp <= MAX_RATE_BP ? bp : null;
}
