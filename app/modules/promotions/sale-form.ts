/**
 * The owner's sale form (browser-safe: the page mirrors the server's checks). A sale covers variants, products or
 * a category; takes a whole percentage off (1–90) or, for one variant, sets a new price in each currency; runs
 * from a start (now, or later: the history is never rewritten) to an end; and may carry a label in each language.
 */
import { isCategory } from '~/modules/catalog/catalog.types';
import { shopMomentToInstant } from '~/lib/shop-days';

export const saleScopes = ['products', 'variants', 'category'] as const;
export type SaleScope = (typeof saleScopes)[number];
export const saleKinds = ['percent', 'price'] as const;
export type SaleKind = (typeof saleKinds)[number];

export const MAX_PERCENT = 90;
export const MAX_LABEL = 40;
export const MAX_TARGETS = 200;
/** A sale lasts at most this long (a reduction that never ends is a new regular price). */
export const MAX_SALE_DAYS = 90;

export type SaleInput = {
  scope: SaleScope;
  targets: string[];
  kind: SaleKind;
  percent: number | null;
  /** Kind price: the new price in euros; and in złoty (null: proposed from the shop rate). */
  priceCents: number | null;
  pricePln: number | null;
  /** Null: now. */
  startsAt: Date | null;
  endsAt: Date;
  label: { en: string; pl: string };
};

export type SaleField = 'scope' | 'targets' | 'percent' | 'price' | 'pricePln' | 'startsAt' | 'endsAt' | 'labelEn' | 'labelPl';
export type SaleFormResult = { ok: true; sale: SaleInput } | { ok: false; errors: Partial<Record<SaleField, string>> };

/** "12.50" or "12,5" → 1250; null unless a price from 0.01 to 99,999.99. */
export function parseMoney(text: string): number | null {
  const match = /^(\d{1,5})(?:[.,](\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return cents > 0 ? cents : null;
}

/** Checks the form; messages are the catalogue's keys under promotions.errors. */
export function parseSaleForm(form: FormData, timeZone: string, now = new Date()): SaleFormResult {
  const text = (name: string, max = 100) => {
    const value = form.get(name);
    return typeof value === 'string' ? value.slice(0, max) : '';
  };
  const errors: Partial<Record<SaleField, string>> = {};
  const scope = text('scope') as SaleScope;
  if (!saleScopes.includes(scope)) errors.scope = 'admin.promotions.errors.scope';
  const chosen = form
    .getAll(scope === 'category' ? 'category' : scope === 'variants' ? 'variant' : 'product')
    .filter((v): v is string => typeof v === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(v));
  const targets = [...new Set(chosen)];
  if (targets.length === 0 || targets.length > MAX_TARGETS || (scope === 'category' && !targets.every(isCategory))) errors.targets = 'admin.promotions.errors.targets';
  const kind = text('kind') as SaleKind;
  let percent: number | null = null;
  let priceCents: number | null = null;
  let pricePln: number | null = null;
  if (kind === 'price') {
    priceCents = parseMoney(text('price'));
    if (priceCents === null) errors.price = 'admin.promotions.errors.price';
    pricePln = text('pricePln').trim() ? parseMoney(text('pricePln')) : null;
    if (text('pricePln').trim() && pricePln === null) errors.pricePln = 'admin.promotions.errors.price';
    if (scope !== 'variants' || targets.length !== 1) errors.targets ??= 'admin.promotions.errors.priceOneVariant';
  } else {
    const raw = text('percent').trim().replace(/\s*%$/, '');
    percent = /^\d{1,3}$/.test(raw) ? Number(raw) : null;
    if (percent === null || percent < 1 || percent > MAX_PERCENT) errors.percent = 'admin.promotions.errors.percent';
  }
  const startText = text('startsAt').trim();
  const startsAt = startText ? shopMomentToInstant(startText, timeZone) : null;
  // A start a few minutes back is "now" (the form was open a while); earlier would rewrite the history.
  if (startText && (startsAt === null || startsAt.getTime() < now.getTime() - 5 * 60_000)) errors.startsAt = 'admin.promotions.errors.startsAt';
  const endsAt = shopMomentToInstant(text('endsAt'), timeZone);
  const from = Math.max(startsAt?.getTime() ?? now.getTime(), now.getTime());
  if (endsAt === null || endsAt.getTime() <= from) errors.endsAt = 'admin.promotions.errors.endsAt';
  else if (endsAt.getTime() - from > MAX_SALE_DAYS * 86_400_000) errors.endsAt = 'admin.promotions.errors.tooLong';
  const label = { en: text('labelEn', 200).trim().replace(/\s+/g, ' '), pl: text('labelPl', 200).trim().replace(/\s+/g, ' ') };
  if (label.en.length > MAX_LABEL) errors.labelEn = 'admin.promotions.errors.label';
  if (label.pl.length > MAX_LABEL) errors.labelPl = 'admin.promotions.errors.label';
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const start = startsAt && startsAt.getTime() > now.getTime() ? startsAt : null;
  return { ok: true, sale: { scope, targets, kind: kind === 'price' ? 'price' : 'percent', percent, priceCents, pricePln, startsAt: start, endsAt: endsAt!, label } };
}
