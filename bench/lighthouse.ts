/**
 * Lighthouse (mobile, simulated throttling) on the pages a shopper meets first: /, /pl, a product page and
 * the cart with an item. Run with `npx --yes lighthouse@12.8.2` (as a dependency it breaks `npm ci`, see
 * ../shared/TOOLCHAIN.md) against Debian's Chromium.
 *
 * Scores move by several points between runs on a small machine, so every page is audited
 * BENCH_LIGHTHOUSE_RUNS times (3 unless set) and the run with the median performance score is reported.
 * Three reference rows say what the machine itself allows (`referencePages`): the same `/` with its scripts
 * taken out, with and without the shop's opener policy, and a page of one paragraph.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

export type LighthouseRow = {
  page: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  /** The SEO audits that failed: on /cart only `is-crawlable`, since carts are kept out of search on purpose. */
  seoFailures: string[];
  fcp: string;
  lcp: string;
  tbt: string;
  /** Every run's performance score, in the order they ran. */
  runs: number[];
  problem: string;
};

type Page = { page: string; url: string; cookie?: string };

const FLAGS = '--headless=new --no-sandbox --disable-background-networking --disable-component-update --disable-sync --no-first-run --disable-quic --disable-gpu';

export async function lighthouseScores(pages: Page[], runs = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3)): Promise<LighthouseRow[]> {
  const rows: LighthouseRow[] = [];
  for (const page of pages) {
    const audits: LighthouseRow[] = [];
    for (let i = 0; i < Math.max(1, runs); i++) audits.push(await audit(page));
    const byScore = [...audits].sort((a, b) => a.performance - b.performance);
    rows.push({ ...byScore[Math.floor((byScore.length - 1) / 2)], runs: audits.map((a) => a.performance) });
  }
  return rows;
}

/**
 * Serves, on a port of its own, what no client-side change can beat: a copy of the shop's `/` with every script
 * and module preload taken out, sent with the shop's own response headers, the same page without the
 * `Cross-Origin-Opener-Policy` header (which makes Chromium start the page in a new renderer process, a cost
 * Lighthouse counts; decision 0018), and a page of one paragraph (what the machine scores for almost nothing).
 * Everything else is passed through from the shop, compressed as the shop compresses it.
 */
export async function referencePages(base: string): Promise<{ pages: Page[]; close: () => Promise<void> }> {
  const server = http.createServer(async (req, res) => {
    try {
      if (req.url === '/one-paragraph') return send(res, 200, 'text/html; charset=utf-8', ONE_PARAGRAPH);
      const reference = req.url === '/without-scripts' || req.url === '/without-scripts-or-opener-policy';
      const upstream = await fetch(base + (reference ? '/' : req.url));
      const type = upstream.headers.get('content-type') ?? 'application/octet-stream';
      const body = Buffer.from(await upstream.arrayBuffer());
      const headers = shopHeaders(upstream.headers, req.url === '/without-scripts-or-opener-policy');
      send(res, upstream.status, type, reference ? withoutScripts(body.toString('utf8')) : body, headers);
    } catch {
      send(res, 502, 'text/plain', 'upstream failed');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    pages: [
      { page: '/ without its scripts (reference)', url: `${origin}/without-scripts` },
      { page: '/ without its scripts or opener policy (reference)', url: `${origin}/without-scripts-or-opener-policy` },
      { page: 'one paragraph (reference)', url: `${origin}/one-paragraph` },
    ],
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The shop's response headers as they apply to a copy: its security headers, not its framing of the body. */
function shopHeaders(upstream: Headers, withoutOpenerPolicy: boolean): Record<string, string> {
  const skip = new Set(['content-length', 'content-encoding', 'content-type', 'transfer-encoding', 'connection', 'keep-alive', 'etag', 'vary', 'set-cookie']);
  if (withoutOpenerPolicy) skip.add('cross-origin-opener-policy');
  const headers: Record<string, string> = {};
  upstream.forEach((value, name) => {
    if (!skip.has(name)) headers[name] = value;
  });
  return headers;
}

/** The page as a browser without JavaScript gets it: no scripts but structured data. */
function withoutScripts(html: string): string {
  return html.replace(/<script(?![^>]*application\/ld\+json)[^>]*>[\s\S]*?<\/script>/g, '');
}

const ONE_PARAGRAPH =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
  '<title>Kopi</title><meta name="description" content="A page of one paragraph."><link rel="icon" href="data:,"></head>' +
  '<body><main><h1>Kopi</h1><p>Specialty coffee from Indonesia.</p></main></body></html>';

function send(res: http.ServerResponse, status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}) {
  const compress = /text|javascript|json|svg|xml/.test(type);
  const bytes = compress ? zlib.gzipSync(body) : Buffer.from(body);
  res.writeHead(status, { ...headers, 'content-type': type, 'content-length': bytes.length, ...(compress ? { 'content-encoding': 'gzip' } : {}) });
  res.end(bytes);
}

async function audit({ page, url, cookie }: Page): Promise<LighthouseRow> {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kopi-lh-')), 'report.json');
  const args = ['--yes', 'lighthouse@12.8.2', url, `--chrome-flags=${FLAGS}`, '--output=json', `--output-path=${out}`, '--quiet'];
  if (cookie) args.push(`--extra-headers=${JSON.stringify({ Cookie: cookie })}`);
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn('npx', args, { env: { ...process.env, CHROME_PATH: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
    child.on('exit', (exitCode) => {
      if (exitCode !== 0) console.error(stderr);
      resolve(exitCode);
    });
  });
  const empty = { page, performance: 0, accessibility: 0, bestPractices: 0, seo: 0, seoFailures: [], fcp: '', lcp: '', tbt: '', runs: [], problem: '' };
  if (code !== 0 || !fs.existsSync(out)) return { ...empty, problem: `lighthouse exited with ${code}` };
  const report = JSON.parse(fs.readFileSync(out, 'utf8')) as {
    categories: Record<string, { score: number | null; auditRefs: Array<{ id: string }> }>;
    audits: Record<string, { displayValue?: string; score: number | null }>;
  };
  fs.rmSync(path.dirname(out), { recursive: true, force: true });
  const score = (name: string) => Math.round((report.categories[name]?.score ?? 0) * 100);
  const shown = (id: string) => report.audits[id]?.displayValue ?? '';
  return {
    page,
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    seoFailures: (report.categories.seo?.auditRefs ?? []).map((ref) => ref.id).filter((id) => (report.audits[id]?.score ?? 1) < 1),
    fcp: shown('first-contentful-paint'),
    lcp: shown('largest-contentful-paint'),
    tbt: shown('total-blocking-time'),
    runs: [],
    problem: '',
  };
}
