import { describe, expect, it } from 'vitest';
import { parseKilograms, parseStockForm } from './stock-form';

const today = '2026-11-26';

describe('the owner’s stock forms', () => {
  it('reads kilograms with a point or a comma, to the gram', () => {
    expect(parseKilograms('12')).toBe(12000);
    expect(parseKilograms('12,5')).toBe(12500);
    expect(parseKilograms(' 0.25 ')).toBe(250);
    expect(parseKilograms('0,001')).toBe(1);
    for (const bad of ['', '-1', '1e3', '1,2345', '12.5.5', 'abc', '1 000', '\u0000']) expect(parseKilograms(bad)).toBeNull();
  });

  it('takes a batch roasted today or before, within a year, of more than nothing and at most a tonne', () => {
    expect(parseStockForm({ intent: 'batch', roastedOn: '2026-11-24', kilograms: '12', note: ' Lot 7 ' }, today)).toEqual({
      ok: true,
      form: { intent: 'batch', roastedOn: '2026-11-24', grams: 12000, note: 'Lot 7' },
    });
    const errors = (fields: Record<string, string>) => {
      const result = parseStockForm({ intent: 'batch', roastedOn: today, kilograms: '1', ...fields }, today);
      return result.ok ? null : result.errors;
    };
    expect(errors({ roastedOn: '2026-11-27' })).toEqual({ roastedOn: 'roastedInFuture' });
    expect(errors({ roastedOn: '2025-11-25' })).toEqual({ roastedOn: 'roastedTooLongAgo' });
    for (const impossible of ['2026-02-30', '2026-13-01', '2026-12-32', '2026-00-01']) expect(errors({ roastedOn: impossible }), impossible).toEqual({ roastedOn: 'roastedOn' });
    expect(errors({ kilograms: '0' })).toEqual({ kilograms: 'kilograms' });
    expect(errors({ kilograms: '1000,001' })).toEqual({ kilograms: 'kilograms' });
    expect(errors({ note: 'x'.repeat(201) })).toEqual({ note: 'note' });
    expect(errors({ note: 'two\nlines' })).toEqual({ note: 'note' });
  });

  it('corrects a batch to what is left (nothing included) or a count, always with a reason', () => {
    expect(parseStockForm({ intent: 'correct-batch', batchId: 'abc', kilogramsLeft: '0', reason: 'damaged' }, today)).toMatchObject({ ok: true, form: { gramsLeft: 0, reason: 'damaged' } });
    expect(parseStockForm({ intent: 'correct-units', variantId: 'abc', units: '40', reason: 'count' }, today)).toMatchObject({ ok: true, form: { units: 40 } });
    expect(parseStockForm({ intent: 'correct-units', variantId: '../x', units: '2.5', reason: 'theft' }, today)).toEqual({
      ok: false,
      intent: 'correct-units',
      errors: { variantId: 'notFound', units: 'units', reason: 'reason' },
    });
  });

  it('chooses a mode and an optional number of days to sell a batch within', () => {
    expect(parseStockForm({ intent: 'mode', mode: 'batches', sellWithinDays: '' }, today)).toEqual({ ok: true, form: { intent: 'mode', mode: 'batches', sellWithinDays: null } });
    expect(parseStockForm({ intent: 'mode', mode: 'units', sellWithinDays: '30' }, today)).toMatchObject({ ok: true, form: { sellWithinDays: 30 } });
    expect(parseStockForm({ intent: 'mode', mode: 'plenty', sellWithinDays: '0' }, today)).toMatchObject({ ok: false, errors: { mode: 'mode', sellWithinDays: 'sellWithinDays' } });
    expect(parseStockForm({ intent: 'restock' }, today)).toMatchObject({ ok: false });
  });
});
