/**
 * Test helper: the production build's Express app, in this process, on a fresh SQLite data directory, with a
 * second connection to its database (through the source modules) for setting up and checking data. The
 * suites that use it test what ships, so the build must exist (`npm test` makes it first).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pino from 'pino';
import { type Config, loadConfig } from '~/config/env.server';
import { type DB, openDatabase } from '~/db/database.server';
import { createKopiCookies } from '~/http/cookies.server';
import { createSession, setAdmin, signUp } from '~/modules/accounts/index.server';
import { defaultVariantOf } from '~/modules/cart/index.server';
import { createProduct } from '~/modules/catalog/index.server';

const SECRET = 'a-session-secret-for-the-pipeline-tests';

export type TestShop = {
  base: string;
  port: number;
  config: Config;
  db: DB;
  /** A product that exists (a coffee at €12.50), sold one way: its one variant. */
  productId: string;
  variantId: string;
  /** Signs up a customer (named Ola unless told) and returns the Cookie header of their session. */
  customer: (email?: string, name?: string) => Promise<{ email: string; userId: string; cookie: string }>;
  /** The Cookie header of a guest whose cart is `cartId`. */
  guestCookie: (cartId: string) => Promise<string>;
  /** Signs up an admin and returns the Cookie header of their session. */
  admin: () => Promise<{ email: string; userId: string; cookie: string }>;
  /** What the shop logged at info level and above, as parsed lines (only with `captureLogs`). */
  logs: Array<{ level: number; msg: string; [key: string]: unknown }>;
  close: () => Promise<void>;
};

export async function startTestShop(env: Record<string, string> = {}, { captureLogs = false } = {}): Promise<TestShop> {
  const buildFile = path.resolve('build/server/index.js');
  if (!fs.existsSync(buildFile)) {
    throw new Error('These tests run the production build, and build/server/index.js is missing: run `npm run build` first (`npm test` does).');
  }
  const { createServerApp } = (await import(pathToFileURL(buildFile).href)) as typeof import('./app');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kopi-shop-'));
  const config = loadConfig(
    {
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'silent',
      SESSION_SECRET: SECRET,
      PUBLIC_URL: 'http://127.0.0.1:3999',
      // Never InPost's own API from a test: a closed local port unless a test starts the stand-in.
      INPOST_API_URL: 'http://127.0.0.1:9',
      SHIPX_API_URL: 'http://127.0.0.1:9',
      NBP_API_URL: 'http://127.0.0.1:9',
      SHIPX_TOKEN: 'no-token',
      SHIPX_ORGANIZATION_ID: '1',
      ...env,
    },
    { readDotEnv: false },
  );
  const logs: TestShop['logs'] = [];
  const logger = captureLogs ? pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line)) }) : pino({ level: 'silent' });
  const kopi = await createServerApp({ config, logger, clientDir: path.resolve('build/client') });
  const server = kopi.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const port = (server.address() as AddressInfo).port;
  const database = openDatabase(config.database);
  const db = database.db;
  const productId = await createProduct(db, {
    category: 'wholeBean',
    priceCents: 1250,
    translations: { en: { name: 'Gayo', description: 'Chocolate and cedar.' }, pl: { name: 'Gayo', description: 'Czekolada i cedr.' } },
    images: [],
  });
  const variantId = (await defaultVariantOf(db, productId))!;
  const cookies = createKopiCookies(config);
  let count = 0;
  async function customer(email = `customer.${Date.now().toString(36)}.${++count}@example.test`, name = 'Ola') {
    const result = await signUp(db, { name, email, password: 'correct horse battery' });
    if (!result.ok) throw new Error(result.reason);
    const token = await createSession(db, result.userId);
    const cookie = (await cookies.session.serialize(token)).split(';')[0];
    return { email, userId: result.userId, cookie };
  }
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    config,
    db,
    productId,
    variantId,
    customer,
    logs,
    guestCookie: async (cartId) => (await cookies.cart.serialize(cartId)).split(';')[0],
    async admin() {
      const account = await customer(`owner.${Date.now().toString(36)}.${++count}@example.test`);
      await setAdmin(db, account.email, true);
      return account;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await kopi.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type RawResponse = { status: number; headers: http.IncomingHttpHeaders; body: string; ms: number };

/**
 * One HTTP request exactly as given: the path is sent as it is (no normalisation, no encoding), the body as
 * bytes, and the answer is read whole. `chunks` streams the body in pieces without a Content-Length.
 */
export function rawRequest(
  port: number,
  { method = 'GET', path: target = '/', headers = {}, body, chunks }: { method?: string; path?: string; headers?: Record<string, string>; body?: string | Buffer; chunks?: Iterable<Buffer> },
): Promise<RawResponse> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: target, headers, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts).toString('utf8'), ms: performance.now() - started }));
      res.on('error', reject);
    });
    // A server that answers before the whole body is sent closes the connection: that is not a client error.
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    if (chunks) {
      (async () => {
        for (const chunk of chunks) {
          if (req.destroyed) return;
          if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
        }
        req.end();
      })().catch(() => {});
    } else {
      req.end(body);
    }
  });
}
