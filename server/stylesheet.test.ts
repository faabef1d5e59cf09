/**
 * Every page links the built stylesheet, first in its head, and carries none of it inline (docs/decisions/0033): a
 * visitor without cookies (from the page cache) and a shopper with one (rendered), in both languages. The file is
 * served compressed and kept by the browser for a year (its name changes with its content).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestShop, startTestShop } from './test-shop';

let shop: TestShop;
beforeAll(async () => {
  shop = await startTestShop();
});
afterAll(() => shop?.close());

const builtCss = () => {
  const dir = path.resolve('build/client/assets');
  const file = fs.readdirSync(dir).find((name) => /^app-[\w-]+\.css$/.test(name));
  if (!file) throw new Error('no built stylesheet: run npm run build');
  return { href: `/assets/${file}`, text: fs.readFileSync(path.join(dir, file), 'utf8') };
};

describe('the stylesheet', () => {
  it('every page, cached or rendered, in both languages, links the built stylesheet at the top of its head', async () => {
    const { href } = builtCss();
    const { cookie } = await shop.customer();
    for (const page of ['/', '/pl', `/product/${shop.productId}`, `/pl/product/${shop.productId}`, '/cart', '/about', '/no-such-page']) {
      for (const headers of [{}, { cookie }] as Array<Record<string, string>>) {
        const html = await (await fetch(shop.base + page, { headers })).text();
        const head = html.slice(0, html.indexOf('</head>'));
        const links = [...head.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1]);
        expect(links, page).toEqual([href]);
        expect(head.indexOf('rel="stylesheet"'), page).toBeLessThan(head.indexOf('<title>'));
        expect(head.indexOf('rel="stylesheet"'), page).toBeLessThan(head.indexOf('as="font"'));
        expect(html, page).not.toMatch(/<style\b/);
      }
    }
  });

  it('is served compressed and kept for a year', async () => {
    const { href, text } = builtCss();
    const file = await fetch(shop.base + href, { headers: { 'accept-encoding': 'gzip' } });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toMatch(/^text\/css/);
    expect(file.headers.get('content-encoding')).toBe('gzip');
    expect(file.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await file.text()).toBe(text);
  });
});
