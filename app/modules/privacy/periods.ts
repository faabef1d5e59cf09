import type { Retention } from '~/config/env.server';
import { SHOP_TIME_ZONE } from '~/lib/format';
import { shopDayOf, startOfShopDay } from '~/lib/shop-days';

/** Kopi's defaults (RETENTION_*), each explained in docs/decisions/0029 and on the privacy page. */
export const DEFAULT_RETENTION: Retention = { cartDays: 60, analyticsMonths: 13, messageDays: 365, mailDays: 30, taxYears: 5 };

/**
 * OSS records (the country of consumption, the sale, its VAT) are kept 10 years from the end of the year of the
 * sale (Art. 63c of Implementing Regulation (EU) 282/2011), longer than Poland's 5 for the rest.
 */
export const OSS_YEARS = 10;

/** A mail's address, subject and dates stay this long after its text is gone: when it was sent, to whom. */
export const MAIL_LOG_DAYS = 365;

const DAY_MS = 24 * 60 * 60_000;

/** The moment `days` days before `now`. */
export const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS);

/** The moment `months` calendar months before `now` (UTC). */
export function monthsBefore(now: Date, months: number): Date {
  const at = new Date(now);
  // The same day of that month, or its last day: 13 months before 31 March is 28 February, not 3 March.
  const lastDay = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - months + 1, 0)).getUTCDate();
  at.setUTCDate(1);
  at.setUTCMonth(at.getUTCMonth() - months);
  at.setUTCDate(Math.min(now.getUTCDate(), lastDay));
  return at;
}

/**
 * The year a domestic sale's tax fell due (art. 70 § 1 Ordynacja podatkowa counts from its end): VAT for a month is
 * paid by the 25th of the next month (art. 103 VAT Act), so the year of the month after the one paid in, in Warsaw —
 * a sale paid in December is due in January of the next year.
 */
export function taxDueYear(paidAt: string): number {
  const [year, month] = shopDayOf(new Date(paidAt), SHOP_TIME_ZONE).split('-').map(Number);
  return month === 12 ? year! + 1 : year!;
}

/**
 * When a domestic sale's records may go: `years` years from the end of its tax's due year, i.e. 1 January
 * (due year + years + 1), 00:00 in Warsaw. Paid on 30 November 2020: from 1 January 2026; on 31 December 2020: 2027.
 */
export function taxRecordsEnd(paidAt: string, years: number): Date {
  return startOfShopDay(`${taxDueYear(paidAt) + years + 1}-01-01`, SHOP_TIME_ZONE);
}

/**
 * Domestic records paid (or issued) before this moment are past their retention at `now`: their tax fell due in a
 * year at least `years` whole years back, which is true of whatever was paid before 1 December of the year before
 * that (December's VAT falls due the next January), midnight in Warsaw. On any day of 2026 with 5 years: before
 * 1 December 2020.
 */
export function taxCutoff(now: Date, years: number): Date {
  const year = Number(shopDayOf(now, SHOP_TIME_ZONE).slice(0, 4));
  return startOfShopDay(`${year - years - 1}-12-01`, SHOP_TIME_ZONE);
}

/**
 * OSS records paid before this moment are past their retention at `now`: 10 years (or `years`) from the end of the
 * year of the sale (art. 63c of Implementing Regulation 282/2011), i.e. paid before 1 January of (this year − years),
 * UTC years (a day either side is irrelevant at this scale).
 */
export function ossCutoff(now: Date, years: number): Date {
  return new Date(Date.UTC(now.getUTCFullYear() - years, 0, 1));
}
