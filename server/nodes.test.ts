/**
 * Two app nodes (two `node server.js` processes) on one database: a price changed through one, and the stock a
 * shopper holds, lets go and buys through one, reach a cookie-less visitor of the other within a second, although
 * that node had the page in its page cache.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '~/config/env.server';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '~/db/database.server';
import { createKopiCookies } from '~/http/cookies.server';
import { createSession, setAdmin, signUp } from '~/modules/accounts/index.server';
import { defaultVariantOf } from '~/modules/cart/index.server';
import { createProduct } from '~/modules/catalog/index.server';
import { TEST_CARDS } from '~/modules/payments/index.server';
import { correctStock, setStockMode } from '~/modules/stock/index.server';
import { ADDRESS, CARD_EXPIRY } from '../bench/shopper';

const SECRET = 'two-nodes-share-this-session-secret-value';

async function startNode(env: Record<string, string>): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, ['server.js'], {
    env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', SEED_DEMO: 'false', SESSION_SECRET: SECRET, ...env },
  });
  let text = '';
  child.stdout?.on('data', (d) => (text += d));
  child.stderr?.on('data', (d) => (text += d));
  // A minute at most: the start itself is not what this file measures, and a loaded machine (another suite on the
  // other core) once took over 15 s to print the port here.
  for (let i = 0; i < 600; i++) {
    const port = /"port":(\d+)/.exec(text)?.[1];
    if (port) return { child, base: `http://127.0.0.1:${port}` };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error(`the node did not start:\n${text}`);
}

/** The form posts of a signed-in shopper's browser to one node, keeping the cookies it is given (sent without an Origin, as the price test's). */
function browserOf(base: string, sessionCookie: string) {
  const cookies = new Map<string, string>();
  const keep = (pair: string) => {
    const eq = pair.indexOf('=');
    if (pair.slice(eq + 1) === '') cookies.delete(pair.slice(0, eq));
    else cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
  };
  keep(sessionCookie);
  return async (path: string, fields: Record<string, string>) => {
    const response = await fetch(base + path, {
      method: 'POST',
      body: new URLSearchParams(fields),
      headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
      redirect: 'manual',
    });
    for (const cookie of response.headers.getSetCookie()) keep(cookie.split(';')[0]);
    return { status: response.status, location: response.headers.get('location') ?? '', body: await response.text() };
  };
}

/** What a product page says of its variant's stock: inStock, low, soldOut (null when it says nothing). */
const availabilityIn = (html: string) => /data-testid="availability" data-state="(\w+)"/.exec(html)?.[1] ?? null;

describe('two nodes on one database', () => {
  let dir: string;
  let database: DatabaseHandle;
  const nodes: ChildProcess[] = [];
  let a: { child: ChildProcess; base: string };
  let b: { child: ChildProcess; base: string };
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kopi-nodes-'));
    database = openDatabase({ kind: 'sqlite', file: path.join(dir, 'kopi.db') });
    await migrateToLatest(database.db);
    const env = { DATABASE_URL: `file:${path.join(dir, 'kopi.db')}`, PUBLIC_URL: 'http://127.0.0.1:1' };
    a = await startNode({ ...env, DATA_DIR: path.join(dir, 'a') });
    nodes.push(a.child);
    b = await startNode({ ...env, DATA_DIR: path.join(dir, 'b') });
    nodes.push(b.child);
  }, 150_000);
  afterAll(async () => {
    for (const child of nodes) child.kill('SIGTERM');
    await database?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /**
   * Node A's page once it is in node A's page cache to stay: answered from the cache, and still after node A has
   * read the stored catalogue version again (every 500 ms), so the writes that made the test's data cannot empty
   * it later.
   */
  async function cachedOnA(page: string): Promise<string> {
    let hitSince = 0;
    for (const giveUp = Date.now() + 5000; Date.now() < giveUp; ) {
      const response = await fetch(`${a.base}${page}`);
      const body = await response.text();
      if (response.headers.get('x-page-cache') !== 'hit') hitSince = 0;
      else if (hitSince === 0) hitSince = Date.now();
      else if (Date.now() - hitSince > 600) return body;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`node A does not keep ${page} in its page cache`);
  }

  it('a price changed on node B reaches node A’s cookie-less visitors within a second', async () => {
    const id = await createProduct(database.db, { category: 'wholeBean', priceCents: 1250, translations: { en: { name: 'Shared Gayo' } } });
    const account = await signUp(database.db, { name: 'Owner', email: 'owner@nodes.test', password: 'correct horse battery' });
    if (!account.ok) throw new Error(account.reason);
    await setAdmin(database.db, 'owner@nodes.test', true);
    const token = await createSession(database.db, account.userId);
    const config = loadConfig({ SESSION_SECRET: SECRET }, { readDotEnv: false });
    const cookie = (await createKopiCookies(config).session.serialize(token)).split(';')[0];

    // Node A has the page in its cache.
    expect(await cachedOnA(`/product/${id}`)).toContain('€12.50');

    const form = new FormData();
    form.set('name', 'Shared Gayo');
    form.set('price', '13.99');
    form.set('netWeight', '250');
    const changed = await fetch(`${b.base}/edit-product/${id}`, { method: 'POST', body: form, headers: { cookie }, redirect: 'manual' });
    expect(changed.status).toBe(200);
    const at = Date.now();

    let seen = '';
    while (Date.now() - at < 1500) {
      seen = await (await fetch(`${a.base}/product/${id}`)).text();
      if (seen.includes('€13.99')) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(seen).toContain('€13.99');
    expect(Date.now() - at).toBeLessThan(1000);
  });

  it('the last pack held, let go and sold through node B: node A’s cookie-less visitors see it within a second', async () => {
    const id = await createProduct(database.db, { category: 'dripCoffeeBags', priceCents: 990, translations: { en: { name: 'Last Pack' } } });
    const variantId = (await defaultVariantOf(database.db, id))!;
    const subject = { productId: id, label: 'Last Pack' };
    const owner = { id: null, email: 'owner@nodes.test' };
    await setStockMode(database.db, owner, subject, { mode: 'units', sellWithinDays: null });
    await correctStock(database.db, owner, subject, { variantId, units: 1, reason: 'count' });

    // Node A has the page, saying "Only 1 left", in its cache.
    expect(availabilityIn(await cachedOnA(`/product/${id}`))).toBe('low');

    /** Node A's page says `state` within a second of now (it is read every 50 ms). */
    async function nodeASays(state: string) {
      const at = Date.now();
      let seen: string | null = null;
      while (Date.now() - at < 1500) {
        seen = availabilityIn(await (await fetch(`${a.base}/product/${id}`)).text());
        if (seen === state) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(seen).toBe(state);
      expect(Date.now() - at).toBeLessThan(1000);
    }

    const account = await signUp(database.db, { name: 'Ola', email: 'last.pack@nodes.test', password: 'correct horse battery' });
    if (!account.ok) throw new Error(account.reason);
    const config = loadConfig({ SESSION_SECRET: SECRET }, { readDotEnv: false });
    const post = browserOf(b.base, (await createKopiCookies(config).session.serialize(await createSession(database.db, account.userId))).split(';')[0]);
    expect((await post('/cart', { intent: 'add', productId: id, quantity: '1', redirectTo: '/cart' })).status).toBe(302);
    // Going to payment holds the last pack: nobody else can have it.
    const proceed = await post('/checkout', { intent: 'proceed', ...ADDRESS });
    const orderId = /name="orderId" value="([^"]+)"/.exec(proceed.body)?.[1];
    expect(proceed.status).toBe(200);
    await nodeASays('soldOut');

    // A declined card lets it go.
    const card = { intent: 'pay', orderId: orderId!, cardExpiry: CARD_EXPIRY, cardCvc: '123' };
    expect((await post('/checkout', { ...card, cardNumber: TEST_CARDS.declined })).status).toBe(402);
    await nodeASays('low');

    // Paying with a good card holds it again and sells it.
    const paid = await post('/checkout', { ...card, cardNumber: TEST_CARDS.success });
    expect(paid.location).toBe(`/checkout?step=done&order=${orderId}`);
    await nodeASays('soldOut');
    const left = await database.db.selectFrom('stock_variants').select('units').where('variant_id', '=', variantId).executeTakeFirstOrThrow();
    expect(left.units).toBe(0);
  });
});
