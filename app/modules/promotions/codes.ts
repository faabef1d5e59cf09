/**
 * Discount codes as the cart applies them (docs/decisions/0026), pure and browser-safe: whether a code takes
 * anything off this cart and why not, how much, and how that is spread over the lines it applies to — to the
 * cent, so the lines' shares add up to the discount exactly and a refund of one line returns what was paid for it.
 */
import { spread } from '~/lib/spread';
import type { Currency } from '~/modules/pricing/currencies';

export const codeKinds = ['percent', 'amount', 'delivery'] as const;
export type CodeKind = (typeof codeKinds)[number];
export const codeScopes = ['all', 'categories', 'products'] as const;
export type CodeScope = (typeof codeScopes)[number];

/** What the goods cost at least after a code: payment providers take no smaller charge (Stripe: €0.50, 2 zł). */
export const MIN_GOODS: Record<Currency, number> = { EUR: 100, PLN: 400 };

/** A code as shoppers may type it: 3 to 32 letters, digits, hyphens and underscores (any case, spaces around). */
export const CODE_PATTERN = /^[A-Z0-9][A-Z0-9_-]{2,31}$/;
/** "  kawa10 " → "KAWA10"; null when it cannot be a code. */
export function normalizeCode(text: unknown): string | null {
  if (typeof text !== 'string') return null;
  const code = text.trim().toUpperCase();
  return CODE_PATTERN.test(code) ? code : null;
}

export type CodeRule = {
  id: string;
  code: string;
  kind: CodeKind;
  percent: number | null;
  /** Kind amount: what it takes off in each currency. */
  amounts: Record<Currency, number> | null;
  /** The goods an order must reach in each currency; null: no minimum. */
  minimums: Record<Currency, number> | null;
  startsAt: string | null;
  endsAt: string | null;
  maxUses: number | null;
  maxPerCustomer: number | null;
  uses: number;
  scope: CodeScope;
  /** Categories' keys or products' ids, as the scope says. */
  targets: string[];
  withSales: boolean;
  advertised: boolean;
};

/** A cart line as a code sees it. */
export type CodeLine = { variantId: string; productId: string; category: string | null; lineTotalCents: number; onSale: boolean };

export type CodeRefusal = 'unknown' | 'notStarted' | 'expired' | 'usedUp' | 'minimum' | 'notForThese' | 'onSale' | 'customerLimit';

export type CodeResult =
  | {
      ok: true;
      /** Off the goods, and how much of it each line carries (variant id → cents). */
      goodsCents: number;
      lines: Record<string, number>;
      /** Kind delivery: the delivery is free. */
      freeDelivery: boolean;
      /** Lines the code is for but leaves out, being on sale already (variant ids): the cart says so. */
      leftOnSale?: string[];
    }
  | { ok: false; reason: CodeRefusal; /** For "minimum": the goods the order must reach. */ minimumCents?: number };

/**
 * Whether `rule` takes anything off these lines in `currency` at `now`, and what. Uses are counted by the
 * caller's `used` (all, and this customer's) where it knows them; the order's claim checks them again.
 */
export function applyCode(rule: CodeRule, lines: readonly CodeLine[], currency: Currency, now: Date, used?: { customer: number }): CodeResult {
  const at = now.toISOString();
  if (rule.startsAt && at < rule.startsAt) return { ok: false, reason: 'notStarted' };
  if (rule.endsAt && at >= rule.endsAt) return { ok: false, reason: 'expired' };
  if (rule.maxUses !== null && rule.uses >= rule.maxUses) return { ok: false, reason: 'usedUp' };
  if (rule.maxPerCustomer !== null && used && used.customer >= rule.maxPerCustomer) return { ok: false, reason: 'customerLimit' };
  const goods = lines.reduce((sum, l) => sum + l.lineTotalCents, 0);
  const minimum = rule.minimums?.[currency] ?? null;
  if (minimum !== null && goods < minimum) return { ok: false, reason: 'minimum', minimumCents: minimum };
  const inScope = lines.filter((l) => rule.scope === 'all' || (rule.scope === 'categories' ? l.category !== null && rule.targets.includes(l.category) : rule.targets.includes(l.productId)));
  if (rule.kind === 'delivery') return inScope.length > 0 ? { ok: true, goodsCents: 0, lines: {}, freeDelivery: true } : { ok: false, reason: 'notForThese' };
  if (inScope.length === 0) return { ok: false, reason: 'notForThese' };
  const eligible = rule.withSales ? inScope : inScope.filter((l) => !l.onSale);
  if (eligible.length === 0) return { ok: false, reason: 'onSale' };
  const base = eligible.reduce((sum, l) => sum + l.lineTotalCents, 0);
  // The goods always cost at least a card payment's minimum (an order of nothing cannot be paid).
  const room = Math.max(0, goods - MIN_GOODS[currency]);
  const off = Math.min(room, rule.kind === 'percent' ? Math.round((base * (rule.percent ?? 0)) / 100) : Math.min(base, rule.amounts?.[currency] ?? 0));
  if (off <= 0) return { ok: false, reason: 'minimum', minimumCents: MIN_GOODS[currency] + 1 };
  const shares = spread(off, eligible.map((l) => l.lineTotalCents));
  const leftOnSale = inScope.filter((l) => !eligible.includes(l)).map((l) => l.variantId);
  return { ok: true, goodsCents: off, lines: Object.fromEntries(eligible.map((l, i) => [l.variantId, shares[i]])), freeDelivery: false, ...(leftOnSale.length > 0 ? { leftOnSale } : {}) };
}

export { spread };
