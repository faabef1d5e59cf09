import { describe, expect, it } from 'vitest';
import { nameParts } from './product-name';

describe('a product name with a pack size', () => {
  it('marks the pack size, and keeps every character', () => {
    const name = 'Bali Kintamani w saszetkach drip, 10 × 12 g';
    expect(nameParts(name)).toEqual([
      { text: 'Bali Kintamani w saszetkach drip, ', measure: false },
      { text: '10 × 12 g', measure: true },
    ]);
    for (const other of ['Toraja Espresso Capsules, 10 pcs', 'Lintong w padach ESE, 18 szt.', 'Capsules 10 × 5.5 g, strong', 'Gayo Wine Natural']) {
      expect(nameParts(other).map((p) => p.text).join('')).toBe(other);
    }
    expect(nameParts('Toraja Espresso Capsules, 10 pcs').at(-1)).toEqual({ text: '10 pcs', measure: true });
    expect(nameParts('Capsules 10 × 5.5 g, strong')[1]).toEqual({ text: '10 × 5.5 g', measure: true });
    expect(nameParts('Gayo Wine Natural')).toEqual([{ text: 'Gayo Wine Natural', measure: false }]);
  });
});
