/**
 * First visits in both languages, as served (the page cache): / and /pl in euros, and /pl again once the owner
 * shows złoty on the Polish pages (`polishInZloty`), its prices checked to be złoty; each next to a bare Node
 * server answering the same bytes from memory (the floor), 16 connections. Also a guest's cart cookie, for the
 * Lighthouse run of /cart. Every other page, and every rendered figure, is in pages.ts.
 */
import path from 'node:path';
import { type DB, openDatabase } from '~/db/database.server';
import { type LoadResult, load, startFloor } from './http';
import { Customer, saleProductId } from './shopper';

export type LanguageRow = { shopper: string; page: string; app: LoadResult; floor: LoadResult; ratio: number };

const CONNECTIONS = 16;

export async function firstVisitsInBothLanguages(
  base: string,
  floorPort: number,
  seconds: number,
  polishInZloty: (on: boolean) => Promise<void>,
): Promise<{ cookieLess: LanguageRow[]; guestCookie: string }> {
  const productId = await saleProductId(base);
  const guest = new Customer(base, 'guest@example.test');
  await guest.post('/cart', { intent: 'add', productId, quantity: '1', redirectTo: '/cart' });
  if (!guest.cookieHeader.includes('kopi_cart')) throw new Error('the guest got no cart cookie');

  const cookieLess = await measure(floorPort, seconds, [
    { who: 'first visit', page: '/ (EUR)', path: '/' },
    { who: 'first visit', page: '/pl (EUR)', path: '/pl' },
  ]);
  await polishInZloty(true);
  try {
    // Every node watches the catalogue version twice a second: the first złoty page may take that long.
    for (let tries = 0; !(await (await fetch(`${base}/pl`)).text()).includes('zł'); tries++) {
      if (tries > 40) throw new Error('/pl never showed złoty');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    cookieLess.push(...(await measure(floorPort, seconds, [{ who: 'first visit', page: '/pl (PLN)', path: '/pl' }])));
  } finally {
    await polishInZloty(false);
  }
  return { cookieLess, guestCookie: guest.cookieHeader };

  async function measure(port: number, duration: number, runs: Array<{ who: string; page: string; path: string }>) {
    const bytes = new Map<string, Buffer>();
    for (const [i, run] of runs.entries()) {
      const response = await fetch(base + run.path);
      if (response.status !== 200) throw new Error(`${run.path} answered ${response.status} for ${run.who}`);
      bytes.set(`/${i}`, Buffer.from(await response.arrayBuffer()));
    }
    const floor = await startFloor(port, bytes);
    const rows: LanguageRow[] = [];
    try {
      for (const [i, run] of runs.entries()) {
        await load(base + run.path, 1, CONNECTIONS); // warm-up
        const app = await load(base + run.path, duration, CONNECTIONS);
        const bare = await load(`http://127.0.0.1:${port}/${i}`, duration, CONNECTIONS);
        rows.push({ shopper: run.who, page: run.page, app, floor: bare, ratio: app.rps / bare.rps });
      }
    } finally {
      floor.close();
    }
    return rows;
  }
}

/** The owner's choice of złoty for the Polish pages, written to the shop's SQLite database as the currencies page would. */
export function polishInZloty(dataDir: string, on: boolean): Promise<void> {
  return changeShopSettings(dataDir, (db) => db.updateTable('currency_settings').set({ default_pl: on ? 'PLN' : 'EUR' }).where('id', '=', 1).execute());
}

/**
 * Changes a bench shop's settings in its SQLite database, as the back office would, and moves the catalogue
 * version on so the running shop drops its cached pages (it watches the version twice a second).
 */
export async function changeShopSettings(dataDir: string, change: (db: DB) => Promise<unknown>): Promise<void> {
  const { db, close } = openDatabase({ kind: 'sqlite', file: path.join(dataDir, 'kopi.db') });
  try {
    await change(db);
    await db.updateTable('catalog_state').set((eb) => ({ version: eb('version', '+', 1) })).where('id', '=', 1).execute();
  } finally {
    await close();
  }
}
