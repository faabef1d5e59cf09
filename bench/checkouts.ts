/**
 * `npm run bench:checkouts`: only the bench's checkout figure (bench/checkout.ts) — completed test-provider checkouts
 * per second with 50 concurrent customers, none asking for an invoice, on SQLite and (with BENCH_DATABASE_URL or
 * TEST_DATABASE_URL) PostgreSQL — for comparing one change's checkouts with the code before it in the same hour.
 */
import { type CheckoutRow, postgresCheckouts, printCheckouts, sqliteCheckouts } from './checkout';
import { here, startShop, stopShop } from './http';
import { startInpostStandIn } from './inpost';

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const inpost = await startInpostStandIn(3242);
process.env.INPOST_API_URL = inpost.url;
process.env.NBP_API_URL = 'http://127.0.0.1:9';
const dataDir = here('test-results', 'bench-checkouts');
const shop = await startShop(3240, dataDir);
try {
  const rows: CheckoutRow[] = [await sqliteCheckouts('http://127.0.0.1:3240', dataDir, { seconds })];
  const onPostgres = await postgresCheckouts(3241, here('test-results', 'bench-checkouts-pg'), { seconds });
  if (onPostgres) rows.push(onPostgres);
  printCheckouts(rows, seconds);
} finally {
  await stopShop(shop);
  inpost.stop();
}
