/**
 * The owner's stock forms (the product's stock page), read and checked the same way on the server and, for
 * speed, mirrored by the inputs' own limits in the browser. Batches are weighed in kilograms (a comma or a
 * point, up to grams); counted units are whole numbers. Each problem is a key under admin.stock.errors.
 */
import { isPlainLine } from '~/lib/plain-text';
import { isShopDay } from '~/lib/shop-days';
import { type CorrectionReason, type StockMode, MAX_BATCH_GRAMS, MAX_UNITS, correctionReasons, isStockMode } from './stock.types';

/** A batch may be recorded up to a year after it was roasted (older coffee is not stock). */
export const MAX_BATCH_AGE_DAYS = 365;
/** The longest "sell within" the owner may set, in days after roasting. */
export const MAX_SELL_WITHIN_DAYS = 365;
export const MAX_NOTE_LENGTH = 200;

export type StockFormError =
  | 'mode'
  | 'sellWithinDays'
  | 'roastedOn'
  | 'roastedInFuture'
  | 'roastedTooLongAgo'
  | 'kilograms'
  | 'kilogramsLeft'
  | 'units'
  | 'reason'
  | 'note'
  | 'notFound'
  | 'failed';

export type StockForm =
  | { intent: 'mode'; mode: StockMode; sellWithinDays: number | null }
  | { intent: 'batch'; roastedOn: string; grams: number; note: string }
  | { intent: 'correct-batch'; batchId: string; gramsLeft: number; reason: CorrectionReason; note: string }
  | { intent: 'correct-units'; variantId: string; units: number; reason: CorrectionReason; note: string };

export type StockFormResult = { ok: true; form: StockForm } | { ok: false; intent: string; errors: Partial<Record<string, StockFormError>> };

const idPattern = /^[A-Za-z0-9_-]{1,64}$/;

/** "12", "12,5", "0.25" kilograms → grams; null when it is not a weight with at most three decimals. */
export function parseKilograms(text: string): number | null {
  const match = /^(\d{1,7})(?:[.,](\d{1,3}))?$/.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * 1000 + Number((match[2] ?? '').padEnd(3, '0'));
}

/** Grams as the form shows them in kilograms ("12.5"): no trailing zeros. */
export const kilogramsOf = (grams: number) => String(grams / 1000);

/**
 * Reads one of the stock page's forms. `today` is the shop's calendar day (a batch is not roasted tomorrow).
 */
export function parseStockForm(fields: Record<string, string>, today: string): StockFormResult {
  const intent = fields.intent ?? '';
  const errors: Partial<Record<string, StockFormError>> = {};
  const note = (fields.note ?? '').trim();
  if (note.length > MAX_NOTE_LENGTH || !isPlainLine(note)) errors.note = 'note';
  const reason = (): CorrectionReason | null => {
    const r = fields.reason as CorrectionReason;
    if (correctionReasons.includes(r)) return r;
    errors.reason = 'reason';
    return null;
  };
  const id = (name: string): string | null => {
    const value = fields[name] ?? '';
    if (idPattern.test(value)) return value;
    errors[name] = 'notFound';
    return null;
  };
  const done = (form: StockForm): StockFormResult => (Object.keys(errors).length > 0 ? { ok: false, intent, errors } : { ok: true, form });

  switch (intent) {
    case 'mode': {
      delete errors.note;
      const mode = fields.mode;
      if (!isStockMode(mode)) errors.mode = 'mode';
      const within = (fields.sellWithinDays ?? '').trim();
      const days = within === '' ? null : /^\d{1,3}$/.test(within) ? Number(within) : NaN;
      if (days !== null && !(days >= 1 && days <= MAX_SELL_WITHIN_DAYS)) errors.sellWithinDays = 'sellWithinDays';
      return done({ intent, mode: mode as StockMode, sellWithinDays: days });
    }
    case 'batch': {
      const roastedOn = (fields.roastedOn ?? '').trim();
      if (!isShopDay(roastedOn)) errors.roastedOn = 'roastedOn';
      else if (roastedOn > today) errors.roastedOn = 'roastedInFuture';
      else if (daysBetween(roastedOn, today) > MAX_BATCH_AGE_DAYS) errors.roastedOn = 'roastedTooLongAgo';
      const grams = parseKilograms(fields.kilograms ?? '');
      if (grams === null || grams < 1 || grams > MAX_BATCH_GRAMS) errors.kilograms = 'kilograms';
      return done({ intent, roastedOn, grams: grams ?? 0, note });
    }
    case 'correct-batch': {
      const batchId = id('batchId');
      const gramsLeft = parseKilograms(fields.kilogramsLeft ?? '');
      if (gramsLeft === null || gramsLeft > MAX_BATCH_GRAMS) errors.kilogramsLeft = 'kilogramsLeft';
      return done({ intent, batchId: batchId ?? '', gramsLeft: gramsLeft ?? 0, reason: reason()!, note });
    }
    case 'correct-units': {
      const variantId = id('variantId');
      const text = (fields.units ?? '').trim();
      const units = /^\d{1,6}$/.test(text) ? Number(text) : NaN;
      if (!(units >= 0 && units <= MAX_UNITS)) errors.units = 'units';
      return done({ intent, variantId: variantId ?? '', units, reason: reason()!, note });
    }
    default:
      return { ok: false, intent: '', errors: { intent: 'notFound' } };
  }
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}
