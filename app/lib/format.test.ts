import { describe, expect, it } from 'vitest';
import { formatPrice } from './format';

describe('formatPrice', () => {
  it('shows the euro sign and two decimals in each locale', () => {
    expect(formatPrice(1250, 'en')).toBe('€12.50');
    expect(formatPrice(1250, 'pl').replace(/\s/g, ' ')).toBe('12,50 €');
    expect(formatPrice(100000, 'pl').replace(/\s/g, ' ')).toBe('1000,00 €');
    expect(formatPrice(0, 'en')).toBe('€0.00');
  });
});
