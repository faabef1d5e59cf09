/**
 * Two app nodes (two `node server.js` processes) on one database: a price changed through one reaches a
 * cookie-less visitor of the other within a second, although that node had the page in its page cache.
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
import { createProduct } from '~/modules/catalog/index.server';

const SECRET = 'two-nodes-share-this-session-secret-value';

async function startNode(env: Record<string, string>): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, ['server.js'], {
    env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', SEED_DEMO: 'false', SESSION_SECRET: SECRET, ...env },
  });
  let text = '';
  child.stdout?.on('data', (d) => (text += d));
  child.stderr?.on('data', (d) => (text += d));
  for (let i = 0; i < 150; i++) {
    const port = /"port":(\d+)/.exec(text)?.[1];
    if (port) return { child, base: `http://127.0.0.1:${port}` };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error(`the node did not start:\n${text}`);
}

describe('two nodes on one database', () => {
  let dir: string;
  let database: DatabaseHandle;
  const nodes: ChildProcess[] = [];
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kopi-nodes-'));
    database = openDatabase({ kind: 'sqlite', file: path.join(dir, 'kopi.db') });
    await migrateToLatest(database.db);
  });
  afterAll(async () => {
    for (const child of nodes) child.kill('SIGTERM');
    await database?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a price changed on node B reaches node A’s cookie-less visitors within a second', async () => {
    const id = await createProduct(database.db, { category: 'wholeBean', priceCents: 1250, translations: { en: { name: 'Shared Gayo' } } });
    const account = await signUp(database.db, { name: 'Owner', email: 'owner@nodes.test', password: 'correct horse battery' });
    if (!account.ok) throw new Error(account.reason);
    await setAdmin(database.db, 'owner@nodes.test', true);
    const token = await createSession(database.db, account.userId);
    const config = loadConfig({ SESSION_SECRET: SECRET }, { readDotEnv: false });
    const cookie = (await createKopiCookies(config).session.serialize(token)).split(';')[0];

    const env = { DATABASE_URL: `file:${path.join(dir, 'kopi.db')}` };
    const a = await startNode({ ...env, DATA_DIR: path.join(dir, 'a'), PUBLIC_URL: 'http://127.0.0.1:1' });
    nodes.push(a.child);
    const b = await startNode({ ...env, DATA_DIR: path.join(dir, 'b'), PUBLIC_URL: 'http://127.0.0.1:1' });
    nodes.push(b.child);

    // Node A has the page in its cache.
    await fetch(`${a.base}/product/${id}`);
    const cached = await fetch(`${a.base}/product/${id}`);
    expect(cached.headers.get('x-page-cache')).toBe('hit');
    expect(await cached.text()).toContain('€12.50');

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
});
