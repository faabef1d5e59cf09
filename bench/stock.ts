/**
 * Stock for the benches: a load that sells thousands of bags must not run the demo shop dry (that would measure
 * "sold out" answers, not checkouts), so every product kept in stock gets a tonne of fresh coffee or 100,000 packs
 * per variant before the load — through the stock module, as the owner's stock page records them.
 */
import { type DatabaseHandle, openDatabase } from '~/db/database.server';
import { addBatch, correctStock, getStockOverview } from '~/modules/stock/index.server';
import { bumpStoredCatalogVersion } from '~/modules/catalog/index.server';

const bench = { id: null, email: 'bench@kopi.test' };

export type BenchDatabase = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

/**
 * Runs `work` again while SQLite answers "busy": the bench writes to the database of a shop that is running in
 * another process, and a transaction that read before the shop wrote cannot write (SQLITE_BUSY_SNAPSHOT).
 */
export async function whenFree<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const busy = /database is locked|SQLITE_BUSY/i.test(String((error as Error).message)) || (error as { errcode?: number }).errcode === 517;
      if (!busy || attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
    }
  }
}

export async function stockUp(database: BenchDatabase): Promise<void> {
  const handle: DatabaseHandle = openDatabase(database);
  try {
    const db = handle.db;
    const settings = await db.selectFrom('stock_settings').select(['product_id', 'mode']).where('mode', '<>', 'untracked').execute();
    const today = new Date().toISOString().slice(0, 10);
    for (const { product_id: productId, mode } of settings) {
      const subject = { productId, label: 'bench' };
      if (mode === 'batches') {
        await whenFree(() => addBatch(db, bench, subject, { roastedOn: today, grams: 1_000_000, note: 'bench' }));
        continue;
      }
      const { units } = await getStockOverview(db, productId);
      for (const variantId of Object.keys(units)) await whenFree(() => correctStock(db, bench, subject, { variantId, units: 100_000, reason: 'count', note: 'bench' }));
    }
    // Every node's page cache forgets what it showed of the stock before.
    await whenFree(() => bumpStoredCatalogVersion(db));
  } finally {
    await handle.close();
  }
}
