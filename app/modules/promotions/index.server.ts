/** Promotions' public server API: the price history, the sales the pages price with (docs/decisions/0025). */
import { type Executor, now } from '~/db/database.server';
import { recordRegularPrices } from './history.server';
import { runningSale, saleSchedule } from './schedule.server';

export { productPriceHistory, type HistoryEntry, type HistoryReason } from './history.server';
export { applyCodeOffers, applySales, bumpPromotionsStamp, recordSaleMoments, refreshFromPrices, saleSchedule } from './schedule.server';
export * from './reductions';
export * from './sale-form';
export * from './codes';
export * from './code-form';
export { createCode, listCodes, stopCode, type CodeAdminOutcome, type CodeListing, type CodeStatus } from './code-admin.server';
export { cartHeldUses, claimCode, customerUses, findCode, markCodeUsed, releaseCodeUses, releaseExpiredCodeUses, renewCodeUse, type ClaimOutcome } from './codes.server';
export { createSale, listSales, stopSale, type SaleListing, type SaleOutcome, type SaleStatus } from './sales.server';

/**
 * Appends the regular prices of these variants that changed (new ones as listed) to the price history, with the
 * price a running sale makes of each; call it in the transaction that wrote them.
 */
export async function recordPriceChanges(trx: Executor, variants: ReadonlyArray<{ id: string; price_cents: number; price_pln: number }>, reason: 'edited' | 'rate'): Promise<void> {
  const at = now();
  const schedule = await saleSchedule(trx);
  await recordRegularPrices(trx, variants, { reason, at, effective: (id, currency, regular) => runningSale(schedule, id, regular, currency, Date.parse(at))?.priceCents ?? regular });
}
