import type { Currency, Prices } from '~/modules/pricing/currencies';

/**
 * The rate table and what it quotes (browser-safe, no database): a parcel weighs its goods' net weight plus the
 * packaging; each method of the country's zone that takes that weight offers the price of the first band that
 * holds it (a band holds parcels up to and including its weight), or nothing when the goods' gross total has
 * reached the method's free-delivery threshold. Lockers and pickup at the roastery are for Poland only.
 */
export const deliveryKinds = ['locker', 'courier', 'pickup'] as const;
export type DeliveryKind = (typeof deliveryKinds)[number];

/** Kinds offered only to addresses in Poland (InPost lockers, the roastery's own counter). */
export const POLAND_ONLY: ReadonlySet<DeliveryKind> = new Set(['locker', 'pickup']);
/** The heaviest band the owner may set: 25 kg is the most an InPost locker or a parcel courier takes. */
export const MAX_BAND_GRAMS = 25_000;
export const MAX_BANDS = 10;
export const MAX_DELIVERY_CENTS = 100_000;
export const MAX_PACKAGING_GRAMS = 5_000;

/** A weight band: its price in the table's currency, and in each currency. */
export type Band = { maxGrams: number; priceCents: number; prices: Prices };

export type DeliveryMethod = {
  id: string;
  zoneId: string;
  kind: DeliveryKind;
  active: boolean;
  /** Free when the goods' gross total reaches it (in the table's currency); null: never free. */
  freeOverCents: number | null;
  /** The threshold in each currency. */
  freeOver: Record<Currency, number | null>;
  /** Sorted by weight, lightest first. */
  bands: Band[];
  pickupAddress: string;
  pickupHours: { en: string; pl: string };
};

export type DeliveryZone = { id: string; name: string; countries: string[]; methods: DeliveryMethod[] };

export type DeliveryTable = {
  /** What `priceCents` and `freeOverCents` are in (inCurrency gives the table in the other). */
  currency: Currency;
  packagingGrams: number;
  homeCountry: string;
  /** Whether guests may order without an account (the owner's choice; off by default). */
  guestCheckout: boolean;
  zones: DeliveryZone[];
};

export type DeliveryOption = {
  methodId: string;
  kind: DeliveryKind;
  priceCents: number;
  /** The band's price, before the free-delivery threshold. */
  bandPriceCents: number;
  freeOverCents: number | null;
  pickupAddress: string;
  pickupHours: { en: string; pl: string };
};

export type Parcel = { country: string; goodsGrams: number; goodsCents: number };

const converted = new WeakMap<DeliveryTable, Map<Currency, DeliveryTable>>();

/** The table with its prices and thresholds in `currency` (kept per table, so a cached table converts once). */
export function inCurrency(table: DeliveryTable, currency: Currency): DeliveryTable {
  if (table.currency === currency) return table;
  let byCurrency = converted.get(table);
  if (!byCurrency) converted.set(table, (byCurrency = new Map()));
  let result = byCurrency.get(currency);
  if (!result) {
    result = {
      ...table,
      currency,
      zones: table.zones.map((zone) => ({
        ...zone,
        methods: zone.methods.map((m) => ({ ...m, freeOverCents: m.freeOver[currency], bands: m.bands.map((b) => ({ ...b, priceCents: b.prices[currency] })) })),
      })),
    };
    byCurrency.set(currency, result);
  }
  return result;
}

export const zoneOf = (table: DeliveryTable, country: string): DeliveryZone | undefined => table.zones.find((zone) => zone.countries.includes(country));

/** Every country some zone serves, in the zones' order. */
export const servedCountries = (table: DeliveryTable): string[] => table.zones.flatMap((zone) => zone.countries);

export const parcelGrams = (table: DeliveryTable, goodsGrams: number) => goodsGrams + table.packagingGrams;

/** The band that holds a parcel of `grams`, or undefined when it is too heavy for every band. */
export const bandFor = (bands: Band[], grams: number): Band | undefined => bands.find((band) => grams <= band.maxGrams);

/** What each method offers for this parcel, cheapest first (ties keep the owner's order). */
export function deliveryOptions(table: DeliveryTable, { country, goodsGrams, goodsCents }: Parcel): DeliveryOption[] {
  const zone = zoneOf(table, country);
  if (!zone) return [];
  const grams = parcelGrams(table, goodsGrams);
  const options: DeliveryOption[] = [];
  for (const method of zone.methods) {
    if (!method.active || (POLAND_ONLY.has(method.kind) && country !== 'PL')) continue;
    const band = bandFor(method.bands, grams);
    if (!band) continue;
    const free = method.freeOverCents !== null && goodsCents >= method.freeOverCents;
    options.push({
      methodId: method.id,
      kind: method.kind,
      priceCents: free ? 0 : band.priceCents,
      bandPriceCents: band.priceCents,
      freeOverCents: method.freeOverCents,
      pickupAddress: method.pickupAddress,
      pickupHours: method.pickupHours,
    });
  }
  return options.sort((a, b) => a.priceCents - b.priceCents);
}

/** Methods that bring the parcel to the shopper (not pickup). */
const shipped = (option: DeliveryOption) => option.kind !== 'pickup';

/** The cheapest delivery to the shopper's door or locker for this parcel, if any method takes it. */
export const cheapestDelivery = (options: DeliveryOption[]): DeliveryOption | undefined => options.find(shipped);

/**
 * How much more the goods must cost for the cheapest way to deliver to become free: null when a delivery is
 * already free, or when no method that takes this parcel has a threshold.
 */
export function amountToFreeDelivery(options: DeliveryOption[], goodsCents: number): number | null {
  const delivered = options.filter(shipped);
  if (delivered.some((option) => option.priceCents === 0)) return null;
  const gaps = delivered.flatMap((option) => (option.freeOverCents === null ? [] : [option.freeOverCents - goodsCents]));
  return gaps.length ? Math.min(...gaps) : null;
}

/**
 * What a product page says for a country: the lowest price any delivery there starts at (a light parcel), and
 * the lowest threshold above which one is free. Null when the shop does not deliver there.
 */
export function deliveryTeaser(table: DeliveryTable, country: string): { fromCents: number; freeOverCents: number | null } | null {
  const zone = zoneOf(table, country);
  if (!zone) return null;
  const methods = zone.methods.filter((m) => m.active && m.kind !== 'pickup' && !(POLAND_ONLY.has(m.kind) && country !== 'PL') && m.bands.length > 0);
  if (methods.length === 0) return null;
  const fromCents = Math.min(...methods.map((m) => m.bands[0].priceCents));
  const thresholds = methods.flatMap((m) => (m.freeOverCents === null ? [] : [m.freeOverCents]));
  return { fromCents, freeOverCents: thresholds.length ? Math.min(...thresholds) : null };
}

/** The country to quote: the first wish the shop serves, else its home country (or its first served one). */
export function chooseCountry(table: DeliveryTable, ...wishes: Array<string | null | undefined>): string {
  const served = servedCountries(table);
  return wishes.find((wish): wish is string => !!wish && served.includes(wish)) ?? (served.includes(table.homeCountry) ? table.homeCountry : (served[0] ?? table.homeCountry));
}
