/**
 * The first screen paints from the HTML alone: every page carries the built stylesheet inline, for a
 * visitor without cookies (from the page cache) and for a shopper with one (rendered), in both languages,
 * and nothing in the page asks for the stylesheet file. The built file itself is still served, for anyone
 * who links it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtStylesheetReader } from './asset-text';
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

describe('the stylesheet inside the page', () => {
  it('every page, cached or rendered, in both languages, carries the built stylesheet and links none', async () => {
    const { href, text } = builtCss();
    const { cookie } = await shop.customer();
    for (const page of ['/', '/pl', `/product/${shop.productId}`, `/pl/product/${shop.productId}`, '/cart', '/about', '/no-such-page']) {
      for (const headers of [{}, { cookie }] as Array<Record<string, string>>) {
        const html = await (await fetch(shop.base + page, { headers })).text();
        expect(html, page).toContain(`<style id="kopi-css">${text}</style>`);
        expect(html, page).not.toContain('rel="stylesheet"');
        expect(html.indexOf('<style id="kopi-css">'), page).toBeLessThan(html.indexOf('</head>'));
      }
    }
    const file = await fetch(shop.base + href);
    expect(file.status).toBe(200);
    expect(await file.text()).toBe(text);
  });

  it('reads only built stylesheets, once', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kopi-css-'));
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(path.join(dir, 'assets', 'app-X1.css'), 'body{color:red}');
    fs.writeFileSync(path.join(dir, 'secret.css'), 'nope');
    const read = builtStylesheetReader(dir);
    expect(read('/assets/app-X1.css')).toBe('body{color:red}');
    fs.writeFileSync(path.join(dir, 'assets', 'app-X1.css'), 'changed');
    expect(read('/assets/app-X1.css')).toBe('body{color:red}');
    expect(read('/assets/missing.css')).toBeUndefined();
    expect(read('/secret.css')).toBeUndefined();
    expect(read('/assets/../secret.css')).toBeUndefined();
    expect(read('/assets/app.js')).toBeUndefined();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
