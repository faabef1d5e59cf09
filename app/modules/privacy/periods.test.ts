import { describe, expect, it } from 'vitest';
import { monthsBefore, ossCutoff, taxCutoff, taxDueYear, taxRecordsEnd } from './periods';

describe('retention periods', () => {
  it('counts months back to the same day, or the last day of a shorter month', () => {
    expect(monthsBefore(new Date('2026-06-01T12:00:00Z'), 13).toISOString()).toBe('2025-05-01T12:00:00.000Z');
    expect(monthsBefore(new Date('2026-03-31T08:00:00Z'), 13).toISOString()).toBe('2025-02-28T08:00:00.000Z');
    expect(monthsBefore(new Date('2028-03-31T08:00:00Z'), 1).toISOString()).toBe('2028-02-29T08:00:00.000Z');
    expect(monthsBefore(new Date('2026-01-15T00:00:00Z'), 25).toISOString()).toBe('2023-12-15T00:00:00.000Z');
  });

  it('keeps domestic tax records to the end of the fifth year after the year their VAT fell due (December’s: the next January)', () => {
    // Paid on 30 November: due by 25 December, the same year. On 31 December: due in January, a year later. The
    // month is Warsaw's.
    expect(taxDueYear('2020-11-30T12:00:00Z')).toBe(2020);
    expect(taxDueYear('2020-11-30T23:30:00Z')).toBe(2021); // 1 December, 00:30 in Warsaw
    expect(taxDueYear('2020-12-31T12:00:00Z')).toBe(2021);
    expect(taxDueYear('2020-12-31T23:30:00Z')).toBe(2021); // 1 January 2021 in Warsaw: due in February
    expect(taxRecordsEnd('2020-11-30T12:00:00Z', 5).toISOString()).toBe('2025-12-31T23:00:00.000Z');
    expect(taxRecordsEnd('2020-12-31T12:00:00Z', 5).toISOString()).toBe('2026-12-31T23:00:00.000Z');
    // Paid before 1 December 2020, midnight in Warsaw, on any day of 2026 (in Warsaw).
    expect(taxCutoff(new Date('2026-06-01T00:00:00Z'), 5).toISOString()).toBe('2020-11-30T23:00:00.000Z');
    expect(taxCutoff(new Date('2025-12-31T22:59:59Z'), 5).toISOString()).toBe('2019-11-30T23:00:00.000Z');
    expect(taxCutoff(new Date('2025-12-31T23:00:00Z'), 5).toISOString()).toBe('2020-11-30T23:00:00.000Z');
  });

  it('keeps OSS records 10 years from the end of the year of the sale', () => {
    expect(ossCutoff(new Date('2026-06-01T00:00:00Z'), 10).toISOString()).toBe('2016-01-01T00:00:00.000Z');
    expect(ossCutoff(new Date('2026-01-01T00:00:00Z'), 10).toISOString()).toBe('2016-01-01T00:00:00.000Z');
  });
});
