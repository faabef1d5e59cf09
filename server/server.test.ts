/**
 * The real production server (`node server.js`, from the build `npm test` makes first): start-up,
 * health checks, configuration errors and graceful shutdown on SIGTERM.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

if (!fs.existsSync('build/server/index.js')) {
  throw new Error('These tests start the production build, and build/server/index.js is missing: run `npm run build` first (`npm test` does).');
}
const start = (env: Record<string, string>) =>
  spawn(process.execPath, ['server.js'], { env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env } });

function output(child: ChildProcess) {
  let text = '';
  child.stdout?.on('data', (d) => (text += d));
  child.stderr?.on('data', (d) => (text += d));
  return () => text;
}

const exitOf = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

describe('node server.js', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kopi-server-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('stops with a readable message when the configuration is wrong', async () => {
    const child = start({ PORT: 'eighty', DATA_DIR: dir });
    const text = output(child);
    expect(await exitOf(child)).toBe(1);
    expect(text()).toMatch(/PORT/);
    expect(text()).not.toMatch(/at .*\.js:\d+/);
  });

  it('will not start on PostgreSQL without SESSION_SECRET, which every node must share', async () => {
    const env: Record<string, string> = { PORT: '0', DATA_DIR: dir, DATABASE_URL: 'postgres://kopi:kopi@127.0.0.1:9/kopi' };
    const child = spawn(process.execPath, ['server.js'], { env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', ...env, SESSION_SECRET: '' } });
    const text = output(child);
    expect(await exitOf(child)).toBe(1);
    expect(text()).toContain('SESSION_SECRET is required with PostgreSQL');
  });

  it('runs the production build of React and friends when NODE_ENV is not set (as `npm start` does)', async () => {
    const packageJson = JSON.parse(fs.readFileSync('package.json', 'utf8'));
    expect(packageJson.scripts.start).toBe('node server.js');
    const env: NodeJS.ProcessEnv = { ...process.env, HOST: '127.0.0.1', PORT: '0', DATA_DIR: dir, SEED_DEMO: 'false', LOG_LEVEL: 'info' };
    delete env.NODE_ENV;
    const child = spawn(process.execPath, ['--import', './tests/setup/report-dev-bundles.mjs', 'server.js'], { env });
    const text = output(child);
    let port = 0;
    for (let i = 0; i < 100 && !port; i++) {
      port = Number(/"port":(\d+)/.exec(text())?.[1] ?? 0);
      if (!port) await new Promise((r) => setTimeout(r, 100));
    }
    expect(port, text()).toBeGreaterThan(0);
    // A rendered page loads react-dom/server and the router's server code too.
    expect((await fetch(`http://127.0.0.1:${port}/about`)).status).toBe(200);
    const exit = exitOf(child);
    child.kill('SIGTERM');
    await exit;
    expect(text()).not.toContain('DEVELOPMENT BUNDLE');
    expect(text()).toMatch(/"env":"production"/);
  });

  it('serves health checks and shuts down gracefully on SIGTERM', async () => {
    const child = start({ PORT: '0', DATA_DIR: dir, SEED_DEMO: 'false' });
    const text = output(child);
    let port = 0;
    for (let i = 0; i < 100 && !port; i++) {
      port = Number(/"port":(\d+)/.exec(text())?.[1] ?? 0);
      if (!port) await new Promise((r) => setTimeout(r, 100));
    }
    expect(port).toBeGreaterThan(0);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(await ready.json()).toEqual({ status: 'ready', database: 'sqlite' });
    expect(ready.headers.get('x-request-id')).toBeTruthy();
    // State-changing requests from another site are refused before any route runs.
    const forged = await fetch(`http://127.0.0.1:${port}/cart`, {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'intent=add&productId=abc',
    });
    expect(forged.status).toBe(403);
    const logout = await fetch(`http://127.0.0.1:${port}/logout`, { method: 'POST', headers: { 'sec-fetch-site': 'cross-site' }, redirect: 'manual' });
    expect(logout.status).toBe(403);
    const exit = exitOf(child);
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(text()).toContain('shutting down');
  });

  it('says ready only once it has rendered the storefront: the first visitor meets a warm node', async () => {
    const port = 3391;
    const child = start({ PORT: String(port), DATA_DIR: path.join(dir, 'warm'), SEED_DEMO: 'false' });
    const text = output(child);
    const answers: string[] = [];
    for (let i = 0; i < 1000 && !answers.includes('ready'); i++) {
      try {
        answers.push(((await (await fetch(`http://127.0.0.1:${port}/readyz`)).json()) as { status: string }).status);
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(answers[0]).toBe('starting'); // listening, 503 while warming up
    expect(answers.at(-1)).toBe('ready');
    expect(text()).toMatch(/"msg":"warmed up"[^]*"msg":"Kopi is ready/);
    expect(text()).not.toContain('x-kopi-warm-up');
    // The page cache is already full, and the warm-up's own requests were not logged one by one.
    const home = await fetch(`http://127.0.0.1:${port}/`);
    expect(home.headers.get('x-page-cache')).toBe('hit');
    expect(text().match(/"msg":"request completed"/g) ?? []).toHaveLength(0);
    const exit = exitOf(child);
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  });

  it('finishes the requests in flight on SIGTERM with whole pages, exits without waiting out keep-alive connections, and leaves unsent mail queued', async () => {
    const data = fs.mkdtempSync(path.join(dir, 'drain-'));
    // Mail cannot be delivered (nothing listens there): the contact message's mail stays in the outbox.
    const child = start({ PORT: '0', DATA_DIR: data, SEED_DEMO: 'true', SMTP_URL: 'smtp://127.0.0.1:9', CONTACT_TO: 'shop@kopi.test' });
    const text = output(child);
    let port = 0;
    for (let i = 0; i < 300 && !port; i++) {
      port = Number(/"port":(\d+)/.exec(text())?.[1] ?? 0);
      if (!port) await new Promise((r) => setTimeout(r, 100));
    }
    const base = `http://127.0.0.1:${port}`;
    const sent = await fetch(`${base}/contact`, {
      method: 'POST',
      body: new URLSearchParams({ name: 'Ola', email: 'ola@example.com', subject: 'Before the restart', message: 'Hello' }),
      redirect: 'manual',
    });
    expect(sent.status, (await sent.clone().text()).slice(0, 300)).toBeLessThan(400);
    // Rendered pages (a cookie keeps them out of the page cache), sent just before the signal. Every answer
    // the node gives is whole; a connection it had not yet accepted when it stopped listening is refused at
    // the TCP level (a load balancer retries that on another node), never answered with an error or cut off.
    let killedAt = Infinity;
    const inFlight = Array.from({ length: 24 }, (_, i) =>
      fetch(`${base}/${['', 'about', 'categories'][i % 3]}`, { headers: { cookie: 'lang=en' } }).then(async (r) => ({ status: r.status, body: await r.text(), at: Date.now() })),
    );
    await new Promise((r) => setTimeout(r, 30));
    const exit = exitOf(child);
    child.kill('SIGTERM');
    killedAt = Date.now();
    const settled = await Promise.allSettled(inFlight);
    const answered = settled.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    expect(answered.map((a) => a.status)).toEqual(answered.map(() => 200));
    expect(answered.every((a) => a.body.trimEnd().endsWith('</html>')), 'every answer is a whole page').toBe(true);
    expect(answered.filter((a) => a.at > killedAt).length, 'requests in flight at SIGTERM were still answered').toBeGreaterThan(0);
    expect(await exit).toBe(0);
    // New connections are refused once it is gone (a load balancer sends them to another node).
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();

    const { DatabaseSync } = await import('node:sqlite');
    const db = new DatabaseSync(path.join(data, 'kopi.db'), { readOnly: true });
    const mail = db.prepare("select status from mail_outbox where subject like '%Before the restart%'").all() as { status: string }[];
    db.close();
    expect(mail).toEqual([{ status: 'queued' }]);
  }, 60_000);
});
