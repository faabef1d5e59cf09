import { describe, expect, it } from 'vitest';
import { axisMax, ORDERS_MIN_STEP, REVENUE_MIN_STEP } from './chart-axis';

const steps = (max: number) => [0, 1, 2, 3, 4].map((g) => (max * g) / 4);

describe('axisMax', () => {
  it('gives an empty period distinct, whole labels', () => {
    expect(steps(axisMax(0, REVENUE_MIN_STEP))).toEqual([0, 500, 1000, 1500, 2000]);
    expect(steps(axisMax(0, ORDERS_MIN_STEP))).toEqual([0, 1, 2, 3, 4]);
  });

  it('never splits an order', () => {
    for (const orders of [1, 2, 3, 4, 5, 7, 9, 13, 40, 99, 250]) {
      const max = axisMax(orders, ORDERS_MIN_STEP);
      expect(max).toBeGreaterThanOrEqual(orders);
      for (const label of steps(max)) expect(Number.isInteger(label)).toBe(true);
    }
  });

  it('covers the largest day with round steps of 1, 2 or 5 times a power of ten', () => {
    for (const cents of [1, 290, 1290, 4470, 9999, 12_345, 250_000, 1_000_001]) {
      const max = axisMax(cents, REVENUE_MIN_STEP);
      expect(max).toBeGreaterThanOrEqual(cents);
      const step = max / 4;
      expect(step).toBeGreaterThanOrEqual(REVENUE_MIN_STEP);
      expect(step / 10 ** Math.floor(Math.log10(step))).toBeOneOf([1, 2, 5]);
      expect(max).toBeLessThan(Math.max(cents, REVENUE_MIN_STEP * 4) * 2.5 + 1);
    }
  });
});
