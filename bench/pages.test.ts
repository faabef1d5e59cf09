import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../tests/fixtures/free-port';
import { startShop, stopShop } from './http';
import { type PageRow, cells, fetchChecked, pageBudgets, shopEnv, weighPage } from './pages';

/**
 * A stand-in for server.js: ready at once, and a page that says where it came from the way Kopi does — with
 * `x-page-cache` when its page cache is on (PAGE_CACHE is not "false"), or always when `ignoresSetting`.
 */
function fakeShop(ignoresSetting: boolean): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kopi-fake-shop-'));
  fs.writeFileSync(
    path.join(dir, 'server.js'),
    `import http from 'node:http';
const cached = ${ignoresSetting} || process.env.PAGE_CACHE !== 'false';
http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/html', ...(cached && req.url !== '/readyz' ? { 'x-page-cache': 'hit' } : {}) });
  res.end('<!doctype html><p>Kopi</p>');
}).listen(Number(process.env.PORT), '127.0.0.1');
`,
  );
  fs.writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}');
  return dir;
}

describe('the page bench', () => {
  const started: Array<{ stop: () => Promise<void>; dir: string }> = [];
  afterEach(async () => {
    for (const shop of started.splice(0)) {
      await shop.stop();
      fs.rmSync(shop.dir, { recursive: true, force: true });
    }
  });
  async function start(ignoresSetting: boolean, way: 'served' | 'rendered') {
    const dir = fakeShop(ignoresSetting);
    const port = await freePort();
    const child = await startShop(port, path.join(dir, 'data'), shopEnv(way), { cwd: dir });
    started.push({ stop: () => stopShop(child), dir });
    return `http://127.0.0.1:${port}/`;
  }

  it('starts the rendered shop with PAGE_CACHE=false: its pages are taken as renders', async () => {
    const base = await start(false, 'rendered');
    expect((await fetchChecked(base, '', 'rendered', '/')).answeredBy).toBe('rendered');
  });

  it('stops when a page of the rendered shop comes from a cache (x-page-cache)', async () => {
    const base = await start(true, 'rendered');
    await expect(fetchChecked(base, '', 'rendered', '/')).rejects.toThrow(/x-page-cache: hit.*not a render/);
  });

  it('starts the served shop with its page cache on, and says which cache answered', async () => {
    const base = await start(false, 'served');
    expect((await fetchChecked(base, '', 'served', '/')).answeredBy).toBe('hit');
    // The served shop's answer, taken as a render, is refused too.
    await expect(fetchChecked(base, '', 'rendered', '/')).rejects.toThrow(/not a render/);
  });

  it('measures each page three ways, for a first visitor, a guest with a cart and a signed-in customer', () => {
    const all = cells();
    for (const page of ['/', 'product', '/categories']) {
      for (const who of ['first visit', 'guest with a cart', 'signed in']) {
        expect(all.filter((c) => c.page === page && c.who === who).map((c) => c.way)).toEqual(['served', 'rendered']);
      }
    }
    for (const page of ['/cart', 'delivery step']) expect(all.filter((c) => c.page === page).map((c) => c.who)).not.toContain('first visit');
    expect(all).toHaveLength(3 * 3 * 2 + 2 * 2 * 2);
  });

  it('counts a budget whose cells were left out (--only) as not met', () => {
    const measured = { rps: 900, p99: 10, errors: 0, answeredBy: 'shared', htmlBytes: 1000, hydrationBytes: 100, styleBytes: 0 };
    const floor = { rps: 1000, p99: 1, errors: 0, non2xx: 0 };
    const rows: PageRow[] = [{ page: 'product', who: 'guest with a cart', way: 'served', today: measured, floor }];
    const budgets = new Map(pageBudgets({ rows }));
    expect(budgets.get('every page with a cart, as served, at ≥ 50% of its floor')).toBe(true);
    expect(budgets.get('every page rendered (PAGE_CACHE=false) at ≥ 5% of its floor, p99 ≤ 100 ms, 16 connections: not measured')).toBe(false);
    expect(budgets.get('every cookie-less page, as served, at ≥ 60% of its floor: not measured')).toBe(false);
  });

  it('weighs the part of a page there for hydration and its inline stylesheet', () => {
    const html = '<html><style>a{}</style><body><p>x</p><script>window.__reactRouterContext = {};</script><script>other()</script></body></html>';
    expect(weighPage(html)).toEqual({ htmlBytes: html.length, hydrationBytes: '<script>window.__reactRouterContext = {};</script>'.length, styleBytes: '<style>a{}</style>'.length });
  });
});
