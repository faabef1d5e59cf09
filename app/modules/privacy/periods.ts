import type { Retention } from '~/config/env.server';

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
 * Tax records are kept `years` years from the end of the year the tax became due: an order paid in 2026 is kept
 * to the end of 2031 with 5. Returns the first moment it may go (1 January 2032, 00:00 Warsaw ≈ UTC here: a day
 * either side is irrelevant at this scale, so UTC years are used).
 */
export function taxRecordsEnd(dueAt: string, years: number): Date {
  return new Date(Date.UTC(new Date(dueAt).getUTCFullYear() + years + 1, 0, 1));
}

/**
 * The latest moment a paid order's tax year may have been to be past its retention at `now`: paid before
 * 1 January of (this year − years), e.g. before 2021-01-01 on any day of 2026 with 5 years.
 */
export function taxCutoff(now: Date, years: number): Date {
  return new Date(Date.UTC(now.getUTCFullYear() - years, 0, 1));
}
