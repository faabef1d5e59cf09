/** Largest-remainder sharing (browser-safe): discounts over lines, a delivery over its goods' VAT rates, a refund over an order's. */

/**
 * `total` cents spread over `weights` in proportion, each share rounded down and the cents left over given to the
 * largest remainders (the first of equals): the shares add up to `total` exactly, and none exceeds its weight.
 */
export function spread(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum <= 0 || total <= 0) return weights.map(() => 0);
  const exact = weights.map((w) => (total * w) / sum);
  const shares = exact.map(Math.floor);
  let left = total - shares.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => ({ i, rest: x - Math.floor(x) })).sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    shares[i]! += 1;
    left -= 1;
  }
  return shares;
}
