/**
 * The VAT rates Kopi ships with, per EU country and tax class, in basis points (browser-safe), checked on
 * 2026-11-27 against the sources in docs/decisions/0027-vat-and-oss.md. Roasted coffee is a food in most
 * countries' reduced-rate lists, but not everywhere (Poland, Italy, Denmark, Hungary …: standard rate). The
 * owner overrides any of them in the back office; these are only where a new shop starts.
 */
import type { Country } from '~/modules/delivery/countries';
import type { TaxClass } from './vat';

export const SHIPPED_RATES: Record<Country, Record<TaxClass, number>> = {
  AT: { coffee: 1000, other: 2000 },
  BE: { coffee: 600, other: 2100 },
  BG: { coffee: 2000, other: 2000 },
  CY: { coffee: 500, other: 1900 },
  CZ: { coffee: 1200, other: 2100 },
  DE: { coffee: 700, other: 1900 },
  DK: { coffee: 2500, other: 2500 },
  EE: { coffee: 2400, other: 2400 },
  ES: { coffee: 1000, other: 2100 },
  FI: { coffee: 1350, other: 2550 },
  FR: { coffee: 550, other: 2000 },
  GR: { coffee: 1300, other: 2400 },
  HR: { coffee: 2500, other: 2500 },
  HU: { coffee: 2700, other: 2700 },
  IE: { coffee: 0, other: 2300 },
  IT: { coffee: 2200, other: 2200 },
  LT: { coffee: 2100, other: 2100 },
  LU: { coffee: 300, other: 1700 },
  LV: { coffee: 2100, other: 2100 },
  MT: { coffee: 0, other: 1800 },
  NL: { coffee: 900, other: 2100 },
  PL: { coffee: 2300, other: 2300 },
  PT: { coffee: 2300, other: 2300 },
  RO: { coffee: 1100, other: 2100 },
  SE: { coffee: 600, other: 2500 },
  SI: { coffee: 950, other: 2200 },
  SK: { coffee: 2300, other: 2300 },
};

/** Where the shop is established: its own VAT applies to every order until it registers for OSS. */
export const HOME_COUNTRY: Country = 'PL';

/** The EU's distance-selling threshold (art. 59c of the VAT Directive): cross-border consumer sales per year. */
export const OSS_THRESHOLD_EUR_CENTS = 1_000_000;
/** The same threshold as Poland's VAT act states it (art. 22a: 42,000 zł). */
export const OSS_THRESHOLD_PLN_GROSZE = 4_200_000;
/** The dashboard warns from this share of the threshold. */
export const OSS_WARN_SHARE = 0.8;
