/**
 * The storefront's pages, each measured the ways a shopper gets it, next to its floor (a bare Node server sending
 * the same bytes from memory) in the same run, and optionally next to the code of another commit:
 *   - "served": the shop as `npm start` runs it; the `x-page-cache` header says which cache answered (`hit`: the
 *     cookie-less page cache, `shared`: the shared-page cache, none: it was rendered);
 *   - "rendered": a second shop started with PAGE_CACHE=false, so every request renders. A response there that
 *     carries `x-page-cache` stops the bench: a figure from a cache is never reported as a render.
 * For a first visitor (no cookie), a guest with a cart and a signed-in customer with a cart, on `/`, a product with
 * variants, `/categories`, the cart and the checkout's delivery step. Loads alternate (today, before, floor; cell
 * after cell; round after round), so a machine that slows down slows every column alike.
 */
import { type ChildProcess, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type LoadResult, load, startFloor, startShop, stopShop } from './http';
import { changeShopSettings } from './languages';
import { printTable } from './report';
import { Customer, saleProductId, signUpCustomers } from './shopper';

export type Way = 'served' | 'rendered';
export type Who = 'first visit' | 'guest with a cart' | 'signed in';
export type Cell = { page: string; who: Who; way: Way };
/** One shop's figures for a cell: the mean of its rounds, and the cache that answered. */
export type Measured = { rps: number; p99: number; errors: number; answeredBy: string; htmlBytes: number; hydrationBytes: number; styleBytes: number };
export type PageRow = Cell & { today: Measured; before?: Measured; floor: LoadResult };

const CONNECTIONS = 16;
const PAGES = ['/', 'product', '/categories', '/cart', 'delivery step'] as const;
const WHO: Who[] = ['first visit', 'guest with a cart', 'signed in'];

/** The environment a shop is started with: a rendered one's every page is rendered, a served one is as `npm start` runs it. */
export const shopEnv = (way: Way): Record<string, string> => ({ PAGE_CACHE: way === 'rendered' ? 'false' : 'true' });

/** What a response says about who answered it: a cache's name, or "rendered". */
export function answeredBy(headers: Headers): string {
  return headers.get('x-page-cache') ?? 'rendered';
}

/** A rendered shop's response must not come from a cache: its figure would be reported as a render. */
export function requireRendered(headers: Headers, what: string): void {
  const cache = headers.get('x-page-cache');
  if (cache !== null) throw new Error(`${what} answered from a cache (x-page-cache: ${cache}) by the shop started with PAGE_CACHE=false: it is not a render`);
}

/** The cells measured: a first visitor has no cart, so neither a cart page nor a delivery step of their own. */
export function cells(): Cell[] {
  return PAGES.flatMap((page) =>
    WHO.flatMap((who) => {
      if (who === 'first visit' && (page === '/cart' || page === 'delivery step')) return [];
      return (['served', 'rendered'] as const).map((way) => ({ page, who, way }));
    }),
  );
}

/** A shop's code (today's checkout, or another commit's folder) started twice: as served, and rendered. */
type Shop = { served: Instance; rendered: Instance };
type Instance = { base: string; child: ChildProcess; paths: Record<(typeof PAGES)[number], string>; cookies: Record<Who, string> };

export async function startInstance(dir: string, port: number, dataDir: string, way: Way): Promise<Instance> {
  const child = await startShop(port, dataDir, shopEnv(way), { cwd: dir });
  const base = `http://127.0.0.1:${port}`;
  try {
    await acceptGuests(dataDir);
    const productId = await saleProductId(base);
    const guest = new Customer(base, 'guest@example.test');
    await guest.post('/cart', { intent: 'add', productId, quantity: '1', redirectTo: '/cart' });
    if (!guest.cookieHeader.includes('kopi_cart')) throw new Error(`the guest got no cart cookie from ${dir}`);
    const [customer] = await signUpCustomers(base, `pages-${way}`, 1);
    await customer.post('/cart', { intent: 'add', productId, quantity: '2', redirectTo: '/cart' });
    const paths = { '/': '/', product: `/product/${productId}`, '/categories': '/categories', '/cart': '/cart', 'delivery step': '/checkout?step=delivery' };
    // Every node watches the catalogue version twice a second: the guest's delivery step may take that long.
    for (let tries = 0; (await guest.get(paths['delivery step'])).status !== 200; tries++) {
      if (tries > 50) throw new Error(`${dir}: a guest never reached the delivery step`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return { base, child, paths, cookies: { 'first visit': '', 'guest with a cart': guest.cookieHeader, 'signed in': customer.cookieHeader } };
  } catch (error) {
    await stopShop(child);
    throw error;
  }
}

/** The owner accepts guests at checkout (the demo does not), as the delivery page would save it: a guest's delivery step is a page. */
const acceptGuests = (dataDir: string) => changeShopSettings(dataDir, (db) => db.updateTable('delivery_settings').set({ guest_checkout: 1 }).where('id', '=', 1).execute());

/** One request as the cell's shopper: its bytes and who answered, checked (200; no cache on a rendered shop). */
function probe(instance: Instance, cell: Cell): Promise<{ body: Buffer; answeredBy: string }> {
  return fetchChecked(instance.base + instance.paths[cell.page as (typeof PAGES)[number]], instance.cookies[cell.who], cell.way, `${cell.page} for a ${cell.who}`);
}

/** A page as a shopper with `cookie` gets it, which must be a 200 and, from a rendered shop, not from a cache. */
export async function fetchChecked(url: string, cookie: string, way: Way, what: string): Promise<{ body: Buffer; answeredBy: string }> {
  const response = await fetch(url, { headers: cookie ? { cookie } : {}, redirect: 'manual' });
  if (response.status !== 200) throw new Error(`${url} answered ${response.status} (${what})`);
  if (way === 'rendered') requireRendered(response.headers, what);
  return { body: Buffer.from(await response.arrayBuffer()), answeredBy: answeredBy(response.headers) };
}

/** The page's weight: all of it, the part there for hydration (React Router's inline scripts), the inline stylesheet. */
export function weighPage(html: string): { htmlBytes: number; hydrationBytes: number; styleBytes: number } {
  const size = (parts: string[]) => parts.reduce((sum, part) => sum + Buffer.byteLength(part), 0);
  const scripts = [...html.matchAll(/<script\b[^>]*>[\s\S]*?<\/script>/g)].map((m) => m[0]).filter((s) => s.includes('__reactRouter'));
  const styles = [...html.matchAll(/<style\b[^>]*>[\s\S]*?<\/style>/g)].map((m) => m[0]);
  return { htmlBytes: Buffer.byteLength(html), hydrationBytes: size(scripts), styleBytes: size(styles) };
}

export type PageBenchOptions = { seconds: number; rounds: number; against?: string; ports: number[]; dataDir: string; only?: (cell: Cell) => boolean };

export async function pageFigures({ seconds, rounds, against, ports, dataDir, only = () => true }: PageBenchOptions): Promise<{ rows: PageRow[]; against?: string }> {
  const dirs = [{ label: 'today', dir: process.cwd() }, ...(against ? [{ label: 'before', dir: buildCommit(against) }] : [])];
  const shops: Shop[] = [];
  const floorPort = ports[0]!;
  let port = floorPort;
  try {
    for (const { label, dir } of dirs) {
      const served = await startInstance(dir, ++port, path.join(dataDir, `${label}-served`), 'served');
      const rendered = await startInstance(dir, ++port, path.join(dataDir, `${label}-rendered`), 'rendered').catch(async (error) => {
        await stopShop(served.child);
        throw error;
      });
      shops.push({ served, rendered });
    }
    const measured = cells().filter(only);
    // Every shop's answer once (checked), and today's bytes for the floor.
    const answers = await Promise.all(measured.map(async (cell) => Promise.all(shops.map((shop) => probe(shop[cell.way], cell)))));
    const floor = await startFloor(floorPort, new Map(measured.map((_, i) => [`/${i}`, answers[i]![0]!.body])));
    const totals = measured.map(() => ({ shops: shops.map(() => [] as LoadResult[]), floor: [] as LoadResult[] }));
    const after: Array<Array<{ answeredBy: string }>> = measured.map(() => []);
    try {
      for (let round = 0; round < rounds; round++) {
        for (const [i, cell] of measured.entries()) {
          for (const [s, shop] of shops.entries()) {
            const instance = shop[cell.way];
            const cookie = instance.cookies[cell.who];
            const headers: Record<string, string> = cookie ? { cookie } : {};
            const url = instance.base + instance.paths[cell.page as (typeof PAGES)[number]];
            if (round === 0) await load(url, 1, CONNECTIONS, headers); // warm-up
            totals[i]!.shops[s]!.push(await load(url, seconds, CONNECTIONS, headers));
            // Asked again right after the load, warm (a page cache's entries live a minute): which cache
            // answered a served page (the first answer was a miss), and a rendered shop still renders.
            if (round === rounds - 1) after[i]![s] = await probe(instance, cell);
          }
          totals[i]!.floor.push(await load(`http://127.0.0.1:${floorPort}/${i}`, seconds, CONNECTIONS));
        }
      }
    } finally {
      floor.close();
    }
    const rows = measured.map((cell, i) => {
      const of = (s: number): Measured => ({ ...withErrors(mean(totals[i]!.shops[s]!)), answeredBy: after[i]![s]!.answeredBy, ...weighPage(answers[i]![s]!.body.toString('utf8')) });
      return { ...cell, today: of(0), ...(shops.length > 1 ? { before: of(1) } : {}), floor: mean(totals[i]!.floor) };
    });
    return { rows, ...(against ? { against } : {}) };
  } finally {
    for (const shop of shops) await Promise.all([stopShop(shop.served.child), stopShop(shop.rendered.child)]);
  }
}

const withErrors = (r: LoadResult) => ({ rps: r.rps, p99: r.p99, errors: r.errors + r.non2xx });

function mean(results: LoadResult[]): LoadResult {
  const avg = (pick: (r: LoadResult) => number) => results.reduce((sum, r) => sum + pick(r), 0) / results.length;
  return { rps: avg((r) => r.rps), p99: Math.max(...results.map((r) => r.p99)), errors: results.reduce((s, r) => s + r.errors, 0), non2xx: results.reduce((s, r) => s + r.non2xx, 0) };
}

/**
 * Another commit's shop, built in a folder of its own under the system's temporary directory (kept, so a second
 * run against the same commit starts at once): its files from `git archive`, its packages linked from this
 * checkout when its package-lock.json is the same (installed with `npm ci` otherwise), and `npm run build`.
 */
export function buildCommit(commit: string): string {
  const sha = execFileSync('git', ['rev-parse', '--verify', `${commit}^{commit}`], { encoding: 'utf8' }).trim();
  const dir = path.join(os.tmpdir(), `kopi-bench-${sha.slice(0, 12)}`);
  if (fs.existsSync(path.join(dir, 'build', 'server', 'index.js'))) return dir;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  console.log(`Building ${commit} (${sha.slice(0, 12)}) in ${dir}`);
  execFileSync('bash', ['-c', `git archive ${sha} | tar -x -C ${JSON.stringify(dir)}`], { stdio: 'inherit' });
  const sameLock = fs.readFileSync(path.join(dir, 'package-lock.json'), 'utf8') === fs.readFileSync('package-lock.json', 'utf8');
  if (sameLock) fs.symlinkSync(path.resolve('node_modules'), path.join(dir, 'node_modules'), 'dir');
  else execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' });
  execFileSync('npm', ['run', 'build'], { cwd: dir, stdio: 'inherit' });
  return dir;
}

const kB = (bytes: number) => `${(bytes / 1024).toFixed(0)} kB`;

export function printPages({ rows, against }: { rows: PageRow[]; against?: string }, { seconds, rounds }: { seconds: number; rounds: number }): void {
  console.log(
    `\nPages, ${CONNECTIONS} connections, ${rounds} rounds × ${seconds} s per cell, alternating${against ? ` with ${against} ("before")` : ''}; uncompressed.` +
      '\n"served": the shop as npm start runs it (answered by: hit = page cache, shared = shared-page cache, rendered = neither);' +
      '\n"rendered": a shop started with PAGE_CACHE=false (any x-page-cache header there stops the bench)',
  );
  printTable(
    ['page', 'shopper', 'way', 'answered by', 'req/s', 'p99', 'floor req/s', 'of the floor', ...(against ? ['before req/s', 'today ÷ before'] : []), 'HTML (hydration, style)', 'problems'],
    rows.map((r) => [
      r.page,
      r.who,
      r.way,
      r.today.answeredBy,
      r.today.rps.toFixed(0),
      `${r.today.p99} ms`,
      r.floor.rps.toFixed(0),
      `${((r.today.rps / r.floor.rps) * 100).toFixed(1)}%`,
      ...(r.before ? [r.before.rps.toFixed(0), (r.today.rps / r.before.rps).toFixed(2)] : []),
      `${kB(r.today.htmlBytes)} (${kB(r.today.hydrationBytes)}, ${kB(r.today.styleBytes)})`,
      r.today.errors ? `${r.today.errors} errors or non-2xx` : '',
    ]),
  );
}

/** The commit the render budget is measured against (main on 1 December, issue 56). */
export const RENDER_BASELINE = '6a09af1';

/** Issue 56's budgets for the pages; the ratio to the code before only when run `--against` it. */
export function pageBudgets({ rows, against }: { rows: PageRow[]; against?: string }): [string, boolean][] {
  const rendered = rows.filter((r) => r.way === 'rendered');
  const served = rows.filter((r) => r.way === 'served');
  const ofFloor = (r: PageRow) => r.today.rps / r.floor.rps;
  const html = (page: string) => rows.find((r) => r.page === page && r.who === 'first visit')?.today.htmlBytes ?? Infinity;
  // A budget whose cells were left out (--only) is not met: it was not measured.
  const each = (label: string, cells: PageRow[], holds: (r: PageRow) => boolean): [string, boolean] =>
    cells.length ? [label, cells.every((r) => holds(r) && r.today.errors === 0)] : [`${label}: not measured`, false];
  const checks: [string, boolean][] = [
    each('every page rendered (PAGE_CACHE=false) at ≥ 5% of its floor, p99 ≤ 100 ms, 16 connections', rendered, (r) => ofFloor(r) >= 0.05 && r.today.p99 <= 100),
    each('every page with a cart, as served, at ≥ 50% of its floor', served.filter((r) => r.who !== 'first visit'), (r) => ofFloor(r) >= 0.5),
    each('every cookie-less page, as served, at ≥ 60% of its floor', served.filter((r) => r.who === 'first visit'), (r) => ofFloor(r) >= 0.6),
    [`the product page's HTML ≤ 90 kB (${kB(html('product'))}) and /'s ≤ 100 kB (${kB(html('/'))}), uncompressed`, html('product') <= 90 * 1024 && html('/') <= 100 * 1024],
  ];
  const versus = rendered.filter((r) => r.before);
  checks.push([
    against
      ? `every page rendered at ≥ 2.5 × the speed of ${against} in the same run (${versus.map((r) => (r.today.rps / r.before!.rps).toFixed(2)).join(', ')})`
      : `every page rendered at ≥ 2.5 × the speed of ${RENDER_BASELINE}: not measured (npm run bench -- --against ${RENDER_BASELINE})`,
    against !== undefined && versus.length > 0 && versus.every((r) => r.today.rps >= 2.5 * r.before!.rps),
  ]);
  return checks;
}
