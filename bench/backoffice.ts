/**
 * The owner's pages under a shop's real history: 10,000 paid orders over 60 days (one to three lines each)
 * and 100,000 consented analytics events from 20,000 visitors over 30 days, written straight into the
 * database of a running production shop; then an admin's requests for the dashboard (today, 7 and 30 days)
 * and the order list (first page, a status, a search, a deep page), 20 rounds each, one at a time, timed from
 * request to the last byte. SQLite on its own shop; PostgreSQL on a second shop over a fresh database.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { type DB, openDatabase } from '~/db/database.server';
import { newId } from '~/db/ids.server';
import { freshDatabase } from './checkout';
import { issueInvoice, sellerOf } from '~/modules/invoices/index.server';
import { percentile, startShop, stopShop } from './http';

export type BackofficeRow = { database: string; page: string; p50: number; p95: number; max: number; bytes: number; problems: string };

const ORDERS = 10_000;
const EVENTS = 100_000;
const VISITORS = 20_000;
const ROUNDS = 20;
const pages = ['/admin?period=today', '/admin?period=7d', '/admin?period=30d', '/admin/orders', '/admin/orders?status=shipped', '/admin/orders?q=nowak', '/admin/orders?page=250'];

export async function backofficeFigures({ sqlitePort, postgresPort, dataDir }: { sqlitePort: number; postgresPort: number; dataDir: string }): Promise<BackofficeRow[]> {
  const rows: BackofficeRow[] = [];
  const sqliteDir = `${dataDir}-sqlite`;
  const sqliteShop = await startShop(sqlitePort, sqliteDir);
  try {
    const { db, close } = openDatabase({ kind: 'sqlite', file: path.join(sqliteDir, 'kopi.db') });
    rows.push(...(await measureShop('sqlite', `http://127.0.0.1:${sqlitePort}`, db)));
    await close();
  } finally {
    await stopShop(sqliteShop);
  }

  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!url) {
    console.log('\nBack office on PostgreSQL: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL)');
    return rows;
  }
  const fresh = await freshDatabase(url);
  const postgresShop = await startShop(postgresPort, `${dataDir}-pg`, { DATABASE_URL: fresh.url });
  try {
    const { db, close } = openDatabase({ kind: 'postgres', url: fresh.url });
    rows.push(...(await measureShop('postgres', `http://127.0.0.1:${postgresPort}`, db)));
    await close();
  } finally {
    await stopShop(postgresShop);
    await fresh.drop();
  }
  return rows;
}

async function measureShop(database: string, base: string, db: DB): Promise<BackofficeRow[]> {
  const started = performance.now();
  await writeHistory(db);
  console.log(`\nBack office on ${database}: ${ORDERS.toLocaleString('en')} orders and ${EVENTS.toLocaleString('en')} events written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const cookie = await adminSession(base, db);
  const rows: BackofficeRow[] = [];
  for (const page of pages) {
    const times: number[] = [];
    const problems = new Set<string>();
    let bytes = 0;
    for (let round = 0; round <= ROUNDS; round++) {
      const t0 = performance.now();
      const response = await fetch(base + page, { headers: { cookie }, redirect: 'manual' });
      const body = await response.arrayBuffer();
      if (round > 0) times.push(performance.now() - t0); // the first round warms up
      bytes = body.byteLength;
      if (response.status !== 200) problems.add(`${response.status}`);
    }
    rows.push({ database, page, p50: percentile(times, 50), p95: percentile(times, 95), max: Math.max(...times), bytes, problems: [...problems].join(', ') });
  }
  rows.push(...(await invoiceFigures(database, base, db, cookie)));
  return rows;
}

/**
 * Invoices under the same history: 20 issued one after another for paid orders (the issue renders and keeps the
 * PDF, allocates the number and queues the mail, in this process against the shop's database), then each PDF
 * downloaded as the owner, timed from request to the last byte.
 */
async function invoiceFigures(database: string, base: string, db: DB, cookie: string): Promise<BackofficeRow[]> {
  const seller = sellerOf({ legalName: 'Kopi Palarnia sp. z o.o.', address: 'ul. Mokotowska 12, 00-640 Warszawa', taxId: '5260250274' });
  const buyer = { name: 'Kawiarnia Żuraw sp. z o.o.', taxId: '7250018200', country: 'PL', address: 'ul. Piotrkowska 100', zipCode: '90-004', city: 'Łódź' };
  const orders = await db.selectFrom('orders').select('id').where('payment_status', '=', 'succeeded').orderBy('created_at', 'desc').limit(ROUNDS + 1).execute();
  const issueTimes: number[] = [];
  const ids: string[] = [];
  const problems = new Set<string>();
  for (const [round, order] of orders.entries()) {
    const t0 = performance.now();
    const issued = await issueInvoice(db, { orderId: order.id, buyer, seller, by: { admin: { id: null, email: 'bench@kopi.test' } } });
    if (round > 0) issueTimes.push(performance.now() - t0);
    if (issued.ok) ids.push(issued.invoice.id);
    else problems.add(issued.reason);
  }
  const downloadTimes: number[] = [];
  let bytes = 0;
  for (const [round, id] of ids.entries()) {
    const t0 = performance.now();
    const response = await fetch(`${base}/invoices/${id}`, { headers: { cookie }, redirect: 'manual' });
    const body = await response.arrayBuffer();
    if (round > 0) downloadTimes.push(performance.now() - t0);
    bytes = body.byteLength;
    if (response.status !== 200) problems.add(`${response.status}`);
  }
  const row = (page: string, times: number[], size: number): BackofficeRow => ({ database, page, p50: percentile(times, 50), p95: percentile(times, 95), max: Math.max(...times), bytes: size, problems: [...problems].join(', ') });
  return [row('issue an invoice (PDF rendered and kept)', issueTimes, bytes), row('/invoices/{id} (the PDF)', downloadTimes, bytes)];
}

/** Signs up an account over HTTP and makes it an admin in the database (as `kopi grant-admin` would). */
async function adminSession(base: string, db: DB): Promise<string> {
  const email = `owner-${Date.now()}@example.test`;
  const response = await fetch(`${base}/auth?mode=signup`, {
    method: 'POST',
    headers: { origin: base, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ intent: 'signup', name: 'Owner', email, password: 'bench-password-123', redirectTo: '/' }),
    redirect: 'manual',
  });
  const session = response.headers.getSetCookie().find((c) => c.startsWith('kopi_session='))?.split(';')[0];
  if (response.status !== 302 || !session) throw new Error(`the owner's sign-up failed (${response.status})`);
  await db.updateTable('users').set({ is_admin: 1 }).where('email', '=', email).execute();
  return session;
}

/** Deterministic pseudo-random numbers, so every run writes the same history. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

async function writeHistory(db: DB): Promise<void> {
  const next = random(42);
  const products = await db.selectFrom('products').innerJoin('product_translations', 'product_translations.product_id', 'products.id').where('locale', '=', 'en').select(['products.id', 'products.price_cents', 'product_translations.name']).execute();
  const now = Date.now();
  const at = (daysBack: number) => new Date(now - daysBack * 86_400_000 * next() - 60_000).toISOString();
  const userIds = Array.from({ length: 200 }, () => newId());
  const created = new Date(now - 90 * 86_400_000).toISOString();
  await insertBatches(db, 'users', userIds.map((id, i) => ({ id, email: `customer${i}@example.test`, display_name: `Customer ${i}`, password_hash: null, photo_url: null, is_admin: 0, created_at: created, updated_at: created })));

  const names = ['Ola Nowak', 'Jan Kowalski', 'Anna Wiśniewska', 'Piotr Zieliński', 'Tom Baker', 'Eva Müller', 'Marta Lewandowska'];
  const statuses = ['processing', 'shipped', 'delivered', 'delivered', 'cancelled'];
  const orders = [];
  const lines = [];
  for (let i = 0; i < ORDERS; i++) {
    const id = newId();
    const paidAt = at(60);
    const count = 1 + Math.floor(next() * 3);
    let total = 0;
    for (let position = 0; position < count; position++) {
      const product = products[Math.floor(next() * products.length)];
      const quantity = 1 + Math.floor(next() * 3);
      total += product.price_cents * quantity;
      lines.push({ order_id: id, position, product_id: product.id, title: product.name, unit_price_cents: product.price_cents, quantity, image: null });
    }
    const userId = userIds[i % userIds.length];
    orders.push({
      id,
      user_id: userId,
      user_email: `customer${i % userIds.length}@example.test`,
      locale: i % 2 ? 'pl' : 'en',
      cart_id: null,
      total_cents: total,
      currency: 'EUR',
      payment_provider: 'test',
      payment_intent_id: `tp_${id}`,
      payment_client_secret: null,
      cart_fingerprint: id,
      payment_status: 'succeeded',
      shipping_status: statuses[i % statuses.length],
      shipping_full_name: names[i % names.length],
      shipping_address: 'ul. Długa 5',
      shipping_city: 'Gdańsk',
      shipping_zip_code: '80-827',
      created_at: paidAt,
      paid_at: paidAt,
      visitor_id: null,
    });
  }
  await insertBatches(db, 'orders', orders);
  await insertBatches(db, 'order_lines', lines);

  const funnel = ['page_view', 'page_view', 'page_view', 'page_view', 'add_to_cart', 'begin_checkout', 'purchase'];
  const events = Array.from({ length: EVENTS }, (_, i) => ({
    id: newId(),
    name: funnel[Math.min(funnel.length - 1, Math.floor(next() * next() * funnel.length * 1.2))],
    props: '{}',
    path: '/',
    visitor_id: `visitor-${i % VISITORS}`,
    user_id: null,
    created_at: at(30),
  }));
  await insertBatches(db, 'analytics_events', events);
}

async function insertBatches(db: DB, table: 'users' | 'orders' | 'order_lines' | 'analytics_events', rows: object[]) {
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += 500) await trx.insertInto(table).values(rows.slice(i, i + 500) as never).execute();
  });
}
