import type { Browser } from '@playwright/test';

type Tally = { files: number; bytes: number };

/** Scripts and stylesheets a fresh visitor's browser downloads for `url`, by encoded (gzip) body size. */
export async function firstVisitAssets(browser: Browser, url: string): Promise<{ js: Tally; css: Tally }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const tally = { js: { files: 0, bytes: 0 }, css: { files: 0, bytes: 0 } };
  const pending: Promise<void>[] = [];
  page.on('requestfinished', (request) => {
    const type = request.resourceType();
    if (type !== 'script' && type !== 'stylesheet') return;
    pending.push(
      request.sizes().then((sizes) => {
        const bucket = type === 'script' ? tally.js : tally.css;
        bucket.files += 1;
        bucket.bytes += sizes.responseBodySize;
      }),
    );
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  await Promise.all(pending);
  await context.close();
  return tally;
}
