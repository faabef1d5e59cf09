/**
 * Lighthouse (mobile, simulated throttling) on the pages a shopper meets first: /, /pl, a product page and
 * the cart with an item. Run with `npx --yes lighthouse@12.8.2` (as a dependency it breaks `npm ci`, see
 * ../shared/TOOLCHAIN.md) against Debian's Chromium.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export type LighthouseRow = {
  page: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  /** The SEO audits that failed: on /cart only `is-crawlable`, since carts are kept out of search on purpose. */
  seoFailures: string[];
  lcp: string;
  problem: string;
};

const FLAGS = '--headless=new --no-sandbox --disable-background-networking --disable-component-update --disable-sync --no-first-run --disable-quic --disable-gpu';

export async function lighthouseScores(pages: Array<{ page: string; url: string; cookie?: string }>): Promise<LighthouseRow[]> {
  const rows: LighthouseRow[] = [];
  for (const { page, url, cookie } of pages) rows.push(await audit(page, url, cookie));
  return rows;
}

async function audit(page: string, url: string, cookie?: string): Promise<LighthouseRow> {
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
  const empty = { page, performance: 0, accessibility: 0, bestPractices: 0, seo: 0, seoFailures: [], lcp: '', problem: '' };
  if (code !== 0 || !fs.existsSync(out)) return { ...empty, problem: `lighthouse exited with ${code}` };
  const report = JSON.parse(fs.readFileSync(out, 'utf8')) as {
    categories: Record<string, { score: number | null; auditRefs: Array<{ id: string }> }>;
    audits: Record<string, { displayValue?: string; score: number | null }>;
  };
  fs.rmSync(path.dirname(out), { recursive: true, force: true });
  const score = (name: string) => Math.round((report.categories[name]?.score ?? 0) * 100);
  return {
    page,
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    seoFailures: (report.categories.seo?.auditRefs ?? []).map((ref) => ref.id).filter((id) => (report.audits[id]?.score ?? 1) < 1),
    lcp: report.audits['largest-contentful-paint']?.displayValue ?? '',
    problem: '',
  };
}
