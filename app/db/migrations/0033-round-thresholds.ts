/**
 * Free-delivery thresholds in złoty as a Polish shop writes them (issue 50, point 14): a threshold still at the
 * amount the shop rate proposed (its euro amount converted, ending like a price: 212,99 zł) becomes a round one
 * (200 zł). One the owner typed, or changed since, is left as it is.
 */
import type { Kysely } from 'kysely';

const SCALE = 10_000;

/** Frozen copies of app/modules/pricing/currencies.ts's proposals, so this migration never changes. */
function proposedPrice(euroCents: number, rate: number, ending: number): number {
  const grosze = (euroCents * rate) / SCALE;
  const below = Math.floor((grosze - ending) / 100) * 100 + ending;
  const nearest = grosze - below < below + 100 - grosze ? below : below + 100;
  return Math.max(nearest, ending === 0 ? 100 : ending);
}
function roundThreshold(euroCents: number, rate: number): number {
  const grosze = (euroCents * rate) / SCALE;
  const step = grosze < 100_00 ? 10_00 : grosze < 500_00 ? 50_00 : 100_00;
  return Math.max(step, Math.floor(grosze / step + 0.5) * step);
}

export async function up(db: Kysely<any>): Promise<void> {
  const settings = await db.selectFrom('currency_settings').select(['rate', 'rounding']).where('id', '=', 1).executeTakeFirst();
  const rates = [...new Set([42_500, Number(settings?.rate ?? 42_500)])];
  const endings = [...new Set([99, Number(settings?.rounding ?? 99)])];
  const methods = await db.selectFrom('delivery_methods').select(['id', 'free_over_cents', 'free_over_pln']).where('free_over_cents', 'is not', null).where('free_over_cents', '>', 0).execute();
  for (const m of methods) {
    const euro = Number(m.free_over_cents);
    const pln = m.free_over_pln === null ? null : Number(m.free_over_pln);
    // Proposed by the rate, at the starting one (migration 0022) or the shop's own.
    const proposed = rates.some((rate) => endings.some((ending) => proposedPrice(euro, rate, ending) === pln));
    if (pln === null || proposed) await db.updateTable('delivery_methods').set({ free_over_pln: roundThreshold(euro, Number(settings?.rate ?? 42_500)) }).where('id', '=', m.id).execute();
  }
}

export async function down(): Promise<void> {
  // The earlier amounts are not kept: a threshold stays as it is.
}
