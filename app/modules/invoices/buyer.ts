/**
 * Who an invoice is for (browser-safe): a company with its tax number — a Polish NIP checked by its checksum, an
 * EU VAT number by its country's format — or a person by name; and their address. The same rules in the browser
 * (quick feedback) and on the server (always).
 */
import { EU_COUNTRIES, isCountry } from '~/modules/delivery/countries';
import { shopDayOf, startOfShopDay } from '~/lib/shop-days';

export type InvoiceBuyer = {
  /** The company's (or the person's) name. */
  name: string;
  /** Normalised: a Polish NIP as its 10 digits; another EU VAT number with its prefix ("DE123456789"); '' for none. */
  taxId: string;
  country: string;
  address: string;
  zipCode: string;
  city: string;
};

export type BuyerField = keyof InvoiceBuyer;
export type BuyerErrors = Partial<Record<BuyerField, string>>;

const NIP_WEIGHTS = [6, 5, 7, 2, 3, 4, 5, 6, 7];

/** A Polish NIP (tax number): 10 digits whose weighted sum mod 11 is the last digit (never 10). */
export function isValidNip(digits: string): boolean {
  if (!/^\d{10}$/.test(digits)) return false;
  const sum = NIP_WEIGHTS.reduce((acc, w, i) => acc + w * Number(digits[i]), 0);
  const check = sum % 11;
  return check !== 10 && check === Number(digits[9]);
}

/** Each EU country's VAT number after its prefix (the formats VIES documents); Greece's prefix is EL. */
const VAT_FORMATS: Record<string, RegExp> = {
  AT: /^U\d{8}$/,
  BE: /^[01]\d{9}$/,
  BG: /^\d{9,10}$/,
  CY: /^\d{8}[A-Z]$/,
  CZ: /^\d{8,10}$/,
  DE: /^\d{9}$/,
  DK: /^\d{8}$/,
  EE: /^\d{9}$/,
  EL: /^\d{9}$/,
  ES: /^[A-Z0-9]\d{7}[A-Z0-9]$/,
  FI: /^\d{8}$/,
  FR: /^[A-HJ-NP-Z0-9]{2}\d{9}$/,
  HR: /^\d{11}$/,
  HU: /^\d{8}$/,
  IE: /^(\d{7}[A-W][A-I]?|\d[A-Z+*]\d{5}[A-W])$/,
  IT: /^\d{11}$/,
  LT: /^(\d{9}|\d{12})$/,
  LU: /^\d{8}$/,
  LV: /^\d{11}$/,
  MT: /^\d{8}$/,
  NL: /^\d{9}B\d{2}$/,
  PL: /^\d{10}$/,
  PT: /^\d{9}$/,
  RO: /^\d{2,10}$/,
  SE: /^\d{12}$/,
  SI: /^\d{8}$/,
  SK: /^\d{10}$/,
};

/** The VAT number's prefix for a country (Greece uses EL, not GR). */
export const vatPrefix = (country: string) => (country === 'GR' ? 'EL' : country);

/**
 * The tax number as typed, for the buyer's country, normalised — or why not: `nip` (a Polish number whose checksum
 * fails or that is not 10 digits), `vatFormat` (another EU number not in its country's format). Spaces, dashes
 * and dots are ignored; a Polish NIP may carry the PL prefix.
 */
export function normalizeTaxId(raw: string, country: string): { ok: true; taxId: string } | { ok: false; error: 'nip' | 'vatFormat' } {
  const compact = raw.toUpperCase().replace(/[\s.\-]/g, '');
  if (compact === '') return { ok: true, taxId: '' };
  if (country === 'PL') {
    const digits = compact.startsWith('PL') ? compact.slice(2) : compact;
    return isValidNip(digits) ? { ok: true, taxId: digits } : { ok: false, error: 'nip' };
  }
  const prefix = vatPrefix(country);
  const body = compact.startsWith(prefix) ? compact.slice(prefix.length) : compact;
  const format = VAT_FORMATS[prefix];
  return format && format.test(body) ? { ok: true, taxId: `${prefix}${body}` } : { ok: false, error: 'vatFormat' };
}

export const BUYER_LIMITS = { name: 200, address: 200, city: 100, zipCode: 12 } as const;
const plain = (value: string) => !/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/.test(value);

/** The buyer's details from a form (fields `invoiceName`, `invoiceTaxId`, `invoiceCountry`, …): the buyer, or each field's i18n key. */
export function parseBuyer(get: (name: string) => string): { ok: true; buyer: InvoiceBuyer } | { ok: false; errors: BuyerErrors; values: InvoiceBuyer } {
  const values: InvoiceBuyer = {
    name: get('invoiceName').trim().slice(0, 400),
    taxId: get('invoiceTaxId').trim().slice(0, 40),
    country: get('invoiceCountry').trim().toUpperCase().slice(0, 2) || 'PL',
    address: get('invoiceAddress').trim().slice(0, 400),
    zipCode: get('invoiceZipCode').trim().slice(0, 24),
    city: get('invoiceCity').trim().slice(0, 200),
  };
  const errors: BuyerErrors = {};
  const E = (key: string) => `invoices.errors.${key}`;
  if (!values.name) errors.name = E('nameRequired');
  else if (values.name.length > BUYER_LIMITS.name || !plain(values.name)) errors.name = E('name');
  if (!isCountry(values.country)) errors.country = E('country');
  for (const field of ['address', 'city'] as const) {
    if (!values[field]) errors[field] = E(`${field}Required`);
    else if (values[field].length > BUYER_LIMITS[field] || !plain(values[field])) errors[field] = E(field);
  }
  if (!values.zipCode) errors.zipCode = E('zipCodeRequired');
  else if (!/^[A-Za-z0-9][A-Za-z0-9 -]{1,10}$/.test(values.zipCode)) errors.zipCode = E('zipCode');
  if (isCountry(values.country)) {
    const taxId = normalizeTaxId(values.taxId, values.country);
    if (!taxId.ok) errors.taxId = E(taxId.error);
    else values.taxId = taxId.taxId;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors, values } : { ok: true, buyer: values };
}

export const buyerCountries = EU_COUNTRIES;

/** When a customer may no longer ask for an invoice: after the third month following the month of delivery or payment (art. 106b ust. 3 of the Polish VAT act). */
export function invoiceWindowEnds(deliveredOrPaidAt: string): Date {
  // The month in the shop's time zone (a delivery just after midnight on the 1st is that month's), and the first
  // moment of the fourth month after it there: the window ends just before.
  const [y, m] = shopDayOf(new Date(deliveredOrPaidAt), 'Europe/Warsaw').split('-').map(Number) as [number, number];
  const end = new Date(Date.UTC(y, m - 1 + 4, 1));
  return startOfShopDay(end.toISOString().slice(0, 10), 'Europe/Warsaw');
}

/** A stored buyer (an order's request at checkout); null for none or anything unreadable. */
export function buyerOf(json: string | null): InvoiceBuyer | null {
  if (!json) return null;
  try {
    const value = JSON.parse(json) as Record<string, unknown>;
    const keys = ['name', 'taxId', 'country', 'address', 'zipCode', 'city'] as const;
    if (!value || typeof value !== 'object' || !keys.every((k) => typeof value[k] === 'string')) return null;
    return Object.fromEntries(keys.map((k) => [k, value[k]])) as InvoiceBuyer;
  } catch {
    return null;
  }
}

/** An order with nothing left to invoice: cancelled, or refunded in full (an invoice would only be corrected to zero). */
export const nothingToInvoice = (order: { shippingStatus: string; refundedCents: number; totalCents: number }): boolean =>
  order.shippingStatus === 'cancelled' || order.refundedCents >= order.totalCents;
