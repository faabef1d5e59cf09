/**
 * A price reduction as the Omnibus rule wants it shown (docs/decisions/0025): the price now, and the lowest
 * price of the 30 days before the reduction began — or since the product was listed, when that is shorter — from
 * which alone any percentage is computed (CJEU C-330/23). A reduction that deepens during one campaign (sales
 * following each other without a gap) keeps the reference of the campaign's start. Browser-safe and pure: the
 * server feeds it the price history and the sales.
 */
import type { Currency } from '~/modules/pricing/currencies';

export const REFERENCE_DAYS = 30;
const DAY_MS = 86_400_000;

/** What a shopper is shown beside a reduced price. */
export type Reduction = {
  saleId: string;
  /** The regular price now. */
  regularCents: number;
  /** The lowest price of the 30 days before the reduction. */
  lowestCents: number;
  /** Percent below that lowest price, one decimal, rounded down (never overstated); null when it is not below it. */
  percentOff: number | null;
  /** The owner's label for the sale in each language ('' when none). */
  label: { en: string; pl: string };
  /** When the sale ends (ISO). */
  endsAt: string;
};

/**
 * A discount code the owner advertises on the product page (an announced reduction): the price with it, the
 * lowest price of the 30 days before it started, the percentage from that price, and the minimum order if any.
 */
export type CodeOffer = { code: string; priceCents: number; lowestCents: number; percentOff: number | null; minimumCents: number | null };

/** A regular price from a moment on (ms), ascending. */
export type PricePoint = { at: number; cents: number };

/** A sale as the history sees it: from `start` (inclusive) to `end` (exclusive), and what it makes of a regular price. */
export type SaleSpan = { id: string; start: number; end: number; kind: 'percent' | 'price'; percent: number | null; prices: Record<Currency, number> | null };

/** What a sale asks for a regular price in `currency`: a percentage off (to the cent), or its new price. */
export function salePrice(span: Pick<SaleSpan, 'kind' | 'percent' | 'prices'>, regularCents: number, currency: Currency): number {
  if (span.kind === 'percent') return Math.round((regularCents * (100 - (span.percent ?? 0))) / 100);
  return span.prices?.[currency] ?? regularCents;
}

/** The regular price at `t` (the last point at or before it); null before the first. */
export function regularAt(points: readonly PricePoint[], t: number): number | null {
  let price: number | null = null;
  for (const point of points) {
    if (point.at > t) break;
    price = point.cents;
  }
  return price;
}

/** What a shopper was asked at `t`: the regular price, or the lowest a running sale made of it. */
export function priceAt(points: readonly PricePoint[], spans: readonly SaleSpan[], t: number, currency: Currency): number | null {
  const regular = regularAt(points, t);
  if (regular === null) return null;
  return spans.filter((s) => s.start <= t && t < s.end).reduce((low, s) => Math.min(low, salePrice(s, regular, currency)), regular);
}

/**
 * When the campaign `span` belongs to began: an earlier sale that ran into its start (or up to it) and asked no
 * less joins it — a reduction that deepens keeps its first step's reference; one that gets shallower is a new
 * reduction, measured against the 30 days before it (which hold the deeper price).
 */
export function campaignStart(spans: readonly SaleSpan[], span: SaleSpan, regularCents: number, currency: Currency): number {
  let current = span;
  for (let moved = true; moved; ) {
    moved = false;
    for (const other of spans) {
      if (other.id !== current.id && other.start < current.start && other.end >= current.start && salePrice(other, regularCents, currency) >= salePrice(current, regularCents, currency)) {
        current = other;
        moved = true;
      }
    }
  }
  return current.start;
}

/**
 * The lowest price asked in the 30 days before `start` (from the first price when the product was listed
 * later); the regular price at `start` when nothing was asked before it (listed with the sale).
 */
export function lowestBefore(points: readonly PricePoint[], spans: readonly SaleSpan[], start: number, currency: Currency, days = REFERENCE_DAYS): number | null {
  if (points.length === 0) return null;
  const from = Math.max(start - days * DAY_MS, points[0].at);
  if (from >= start) return regularAt(points, start);
  // The price changes only at these moments, so its lowest is among them.
  const moments = [from, ...points.map((p) => p.at), ...spans.flatMap((s) => [s.start, s.end])].filter((t) => t >= from && t < start);
  let lowest: number | null = null;
  for (const t of moments) {
    const price = priceAt(points, spans, t, currency);
    if (price !== null && (lowest === null || price < lowest)) lowest = price;
  }
  return lowest;
}

/** Percent `price` is below `lowest`, one decimal, rounded down; null when it is not below. */
export function percentBelow(lowestCents: number, priceCents: number): number | null {
  if (lowestCents <= 0 || priceCents >= lowestCents) return null;
  return Math.floor(((lowestCents - priceCents) * 1000) / lowestCents) / 10;
}
