/** Stock, the roaster's way: the stock module's public server API (docs/decisions/0020). */
export { addStockVariants, lockProducts, refreshAgingStock, refreshShownStock, stockOf, syncStockVariants } from './levels.server';
export { RESERVATION_MINUTES, heldUntil, holdsCover, releaseCartHolds, releaseExpiredReservations, orderStockOut, releaseStock, reserveStock, returnToStock, stockShortages, takeStock, type Reserved, type Shortage, type StockLine } from './reservations.server';
export { HOLD_LIMITS, holdClient, type Holder } from './holds.server';
export { addBatch, correctStock, getStockOverview, getStockSettings, setStockMode, type BatchView, type Correction, type MovementView, type StockOverview, type StockSettings } from './admin.server';
export * from './stock.types';
export * from './stock-form';
export { LOW_STOCK_DAYS, lowStock, type LowStockRow } from './report.server';
