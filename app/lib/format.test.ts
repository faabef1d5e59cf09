import { describe, expect, it } from 'vitest';
import { formatDate, formatPrice } from './format';

describe('formatPrice', () => {
  it('shows the euro sign and two decimals in each locale', () => {
    expect(formatPrice(1250, 'en')).toBe('€12.50');
    expect(formatPrice(1250, 'pl').replace(/\s/g, ' ')).toBe('12,50 €');
    expect(formatPrice(100000, 'pl').replace(/\s/g, ' ')).toBe('1000,00 €');
    expect(formatPrice(0, 'en')).toBe('€0.00');
  });
});

describe('formatDate', () => {
  it("prints the shop's calendar day whatever the machine's time zone", () => {
    // 23:30 UTC on 21 November is already 22 November in Warsaw.
    expect(formatDate('2026-11-21T23:30:00.000Z', 'en')).toBe('22 November 2026');
    expect(formatDate('2026-11-21T23:30:00.000Z', 'pl')).toBe('22 listopada 2026');
  });
});
