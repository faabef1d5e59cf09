/**
 * The owner's discount code form (browser-safe: the page mirrors the server's checks). A code takes a whole
 * percentage (1–90) or an amount off the goods, or makes the delivery free; may need a minimum of goods, start
 * and end, be limited in uses (in all and per customer) and to categories or products, apply to coffees on sale
 * too or not, and be advertised on the product pages it applies to (then it is an announced reduction).
 */
import { isCategory } from '~/modules/catalog/catalog.types';
import { shopMomentToInstant } from '~/lib/shop-days';
import { type CodeKind, type CodeScope, codeKinds, codeScopes, normalizeCode } from './codes';
import { MAX_PERCENT, MAX_SALE_DAYS, MAX_TARGETS, parseMoney } from './sale-form';

export const MAX_USES = 1_000_000;
export const MAX_PER_CUSTOMER = 1000;

export type CodeInput = {
  code: string;
  kind: CodeKind;
  percent: number | null;
  /** Kind amount: euros; złoty (null: proposed from the shop rate). */
  amountCents: number | null;
  amountPln: number | null;
  /** The goods an order must reach (null: none); in złoty (null with a euro minimum: proposed). */
  minimumCents: number | null;
  minimumPln: number | null;
  startsAt: Date | null;
  endsAt: Date | null;
  maxUses: number | null;
  maxPerCustomer: number | null;
  scope: CodeScope;
  targets: string[];
  withSales: boolean;
  advertised: boolean;
};

export type CodeField = 'code' | 'kind' | 'percent' | 'amount' | 'amountPln' | 'minimum' | 'minimumPln' | 'startsAt' | 'endsAt' | 'maxUses' | 'maxPerCustomer' | 'scope' | 'targets';
export type CodeFormResult = { ok: true; code: CodeInput } | { ok: false; errors: Partial<Record<CodeField, string>> };

const E = (key: string) => `admin.promotions.codes.errors.${key}`;

export function parseCodeForm(form: FormData, timeZone: string): CodeFormResult {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value.slice(0, 100).trim() : '';
  };
  const errors: Partial<Record<CodeField, string>> = {};
  const code = normalizeCode(text('code'));
  if (!code) errors.code = E('code');
  const kind = text('kind') as CodeKind;
  if (!codeKinds.includes(kind)) errors.kind = E('kind');
  let percent: number | null = null;
  let amountCents: number | null = null;
  let amountPln: number | null = null;
  if (kind === 'percent') {
    const raw = text('percent').replace(/\s*%$/, '');
    percent = /^\d{1,3}$/.test(raw) ? Number(raw) : null;
    if (percent === null || percent < 1 || percent > MAX_PERCENT) errors.percent = E('percent');
  } else if (kind === 'amount') {
    amountCents = parseMoney(text('amount'));
    if (amountCents === null || amountCents > 1_000_000) errors.amount = E('amount');
    amountPln = text('amountPln') ? parseMoney(text('amountPln')) : null;
    if (text('amountPln') && (amountPln === null || amountPln > 5_000_000)) errors.amountPln = E('amount');
  }
  const minimumCents = text('minimum') ? parseMoney(text('minimum')) : null;
  if (text('minimum') && minimumCents === null) errors.minimum = E('minimum');
  const minimumPln = text('minimumPln') ? parseMoney(text('minimumPln')) : null;
  if (text('minimumPln') && minimumPln === null) errors.minimumPln = E('minimum');
  // A minimum holds in both currencies: the złoty one alone would be lost.
  if (minimumPln !== null && minimumCents === null && !errors.minimum) errors.minimum = E('minimumBoth');
  const moment = (name: 'startsAt' | 'endsAt') => {
    if (!text(name)) return null;
    const at = shopMomentToInstant(text(name), timeZone);
    if (!at) errors[name] = E('moment');
    return at;
  };
  const startsAt = moment('startsAt');
  const endsAt = moment('endsAt');
  if (startsAt && endsAt && endsAt <= startsAt) errors.endsAt = E('endsAt');
  // Advertised, a code is an announced reduction: like a sale it lasts at most 90 days (its reference is the 30 days before it).
  const advertised = form.get('advertised') === 'on';
  if (advertised && !errors.endsAt && !errors.startsAt && (!endsAt || endsAt.getTime() - (startsAt ?? new Date()).getTime() > MAX_SALE_DAYS * 86_400_000)) errors.endsAt = E('advertisedEnd');
  const count = (name: 'maxUses' | 'maxPerCustomer', max: number) => {
    if (!text(name)) return null;
    const n = /^\d{1,7}$/.test(text(name)) ? Number(text(name)) : 0;
    if (n < 1 || n > max) errors[name] = E(name);
    return n;
  };
  const maxUses = count('maxUses', MAX_USES);
  const maxPerCustomer = count('maxPerCustomer', MAX_PER_CUSTOMER);
  const scope = (text('scope') || 'all') as CodeScope;
  if (!codeScopes.includes(scope)) errors.scope = E('scope');
  const targets = scope === 'all' ? [] : [...new Set(form.getAll(scope === 'categories' ? 'category' : 'product').filter((v): v is string => typeof v === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(v)))];
  if (scope !== 'all' && (targets.length === 0 || targets.length > MAX_TARGETS || (scope === 'categories' && !targets.every(isCategory)))) errors.targets = E('targets');
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    code: { code: code!, kind, percent, amountCents, amountPln, minimumCents, minimumPln, startsAt, endsAt, maxUses, maxPerCustomer, scope, targets, withSales: form.get('withSales') === 'on', advertised },
  };
}
