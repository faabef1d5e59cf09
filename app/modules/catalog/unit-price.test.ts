import { describe, expect, it } from 'vitest';
import { formatUnitPrice, formatWeight, unitPriceCents } from './unit-price';

const plain = (text: string | null) => text?.replace(/[\u00a0\u202f]/g, ' ');

describe('the price per kilogram', () => {
  it('is the price scaled to 1000 g, rounded to the cent', () => {
    expect(unitPriceCents(2190, 250)).toBe(8760);
    expect(unitPriceCents(1190, 120)).toBe(9917);
    expect(unitPriceCents(690, 55)).toBe(12_545);
    expect(unitPriceCents(4800, 1000)).toBe(4800);
  });
  it('is absent without a weight', () => {
    expect(unitPriceCents(2190, null)).toBeNull();
    expect(unitPriceCents(2190, 0)).toBeNull();
    expect(formatUnitPrice(2190, undefined, 'EUR', 'en')).toBeNull();
  });
  it('is written per locale', () => {
    expect(plain(formatUnitPrice(1200, 250, 'EUR', 'en'))).toBe('€48.00 / kg');
    expect(plain(formatUnitPrice(1200, 250, 'EUR', 'pl'))).toBe('48,00 € / kg');
    expect(plain(formatUnitPrice(5199, 250, 'PLN', 'pl'))).toBe('207,96 zł / kg');
    expect(plain(formatUnitPrice(5199, 250, 'PLN', 'en'))).toBe('PLN 207.96 / kg');
  });
  it('writes weights in grams or whole kilograms', () => {
    expect(plain(formatWeight(250, 'en'))).toBe('250 g');
    expect(plain(formatWeight(1000, 'pl'))).toBe('1 kg');
    expect(plain(formatWeight(1500, 'pl'))).toBe('1,5 kg');
    expect(plain(formatWeight(55, 'en'))).toBe('55 g');
  });
});
