import { describe, expect, it } from 'vitest';
import { monthsBefore, taxCutoff, taxRecordsEnd } from './periods';

describe('retention periods', () => {
  it('counts months back to the same day, or the last day of a shorter month', () => {
    expect(monthsBefore(new Date('2026-06-01T12:00:00Z'), 13).toISOString()).toBe('2025-05-01T12:00:00.000Z');
    expect(monthsBefore(new Date('2026-03-31T08:00:00Z'), 13).toISOString()).toBe('2025-02-28T08:00:00.000Z');
    expect(monthsBefore(new Date('2028-03-31T08:00:00Z'), 1).toISOString()).toBe('2028-02-29T08:00:00.000Z');
    expect(monthsBefore(new Date('2026-01-15T00:00:00Z'), 25).toISOString()).toBe('2023-12-15T00:00:00.000Z');
  });

  it('keeps tax records to the end of the fifth year after the year of the sale', () => {
    expect(taxRecordsEnd('2020-12-31T23:00:00Z', 5).toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(taxCutoff(new Date('2026-06-01T00:00:00Z'), 5).toISOString()).toBe('2021-01-01T00:00:00.000Z');
    expect(taxCutoff(new Date('2026-01-01T00:00:00Z'), 10).toISOString()).toBe('2016-01-01T00:00:00.000Z');
  });
});
