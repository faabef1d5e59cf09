/**
 * The top of a chart axis with four equal steps, each 1, 2 or 5 times a power of ten and never smaller than
 * `minStep`: an empty week still gets an axis of distinct, whole labels (€0, €5 … €20; 0, 1 … 4 orders)
 * instead of fractions of a cent or of an order.
 */
export function axisMax(value: number, minStep: number): number {
  const rough = Math.max(value, 0) / 4;
  if (rough <= minStep) return minStep * 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough)!;
  return Math.max(step, minStep) * 4;
}

/** Revenue in cents: steps of at least €5. */
export const REVENUE_MIN_STEP = 500;
/** Orders are counted whole. */
export const ORDERS_MIN_STEP = 1;
