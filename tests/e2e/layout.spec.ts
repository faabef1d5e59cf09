/**
 * The layout suite: every storefront page at phone, tablet and desktop widths, in both languages, as a guest,
 * a signed-in customer (a long name, an item in the cart) and an admin (the widest header). At each width the
 * page must not scroll sideways, nothing in the header may leave the screen, and no header label may wrap.
 *
 * Every page is also kept as a picture at a phone's, a tablet's and a desktop's width (LAYOUT_SHOTS=all: at every
 * width) in test-results/layout/ (CI leaves them in the clone's test-results/, beside Playwright's report) to be
 * looked at: overflow is measured, ugliness is not.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { catalogue, withImages } from '../fixtures/catalogue';
import type { Locale } from '../fixtures/i18n';
import { kopi, newAccount, signUp } from './accounts';
import { expect, failedLoad, test } from './fixtures';
import { addToCartByRequest, waitForHydration } from './helpers';

const WIDTHS = [320, 390, 768, 820, 1024, 1280, 1920];
const SHOTS = path.resolve('test-results/layout');
/** The widths kept as pictures: a screenshot costs as much as the measuring, and the in-between widths look alike. */
const SHOT_WIDTHS = process.env.LAYOUT_SHOTS === 'all' ? WIDTHS : [390, 768, 1280];

type Who = 'guest' | 'customer' | 'admin';
type Measure = { overflow: number; headerOverflow: number; offScreen: string[]; wrapped: string[] };

/** What a page looks like at the current width, measured in the page. */
const measure = (page: Page): Promise<Measure> =>
  page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const header = document.querySelector('header')!;
    const visible = (el: Element) => (el as HTMLElement).offsetParent !== null && getComputedStyle(el).visibility !== 'hidden';
    const controls = [...header.querySelectorAll('a, button, summary, [data-testid="greeting"]')].filter(visible);
    const label = (el: Element) => (el as HTMLElement).innerText.trim() || el.getAttribute('aria-label') || el.tagName;
    /** A label wraps when one of its text nodes is laid out on more than one line. */
    const wraps = (el: Element) => {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent?.trim() || !visible(node.parentElement!)) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (lines.size > 1) return true;
      }
      return false;
    };
    return {
      overflow: document.documentElement.scrollWidth - width,
      headerOverflow: header.scrollWidth - header.clientWidth,
      offScreen: controls.filter((el) => { const r = el.getBoundingClientRect(); return r.left < 0 || r.right > width; }).map(label),
      wrapped: controls.filter(wraps).map(label),
    };
  });

type Visit = { name: string; path: (productPath: (key: string) => string) => string; only?: Who[] };

const gallery = withImages(3)[0].key;
const visits: Visit[] = [
  { name: 'home', path: () => '/' },
  { name: 'categories', path: () => '/categories?category=groundCoffee' },
  { name: 'product', path: (p) => p(gallery) },
  { name: 'about', path: () => '/about' },
  { name: 'contact', path: () => '/contact' },
  { name: 'cart', path: () => '/cart' },
  { name: 'legal-shipping-returns', path: () => '/legal/shipping-returns' },
  { name: 'withdraw', path: () => '/withdraw' },
  { name: 'not-found', path: () => '/no-such-page' },
  { name: 'auth', path: () => '/auth?mode=signup', only: ['guest'] },
  { name: 'checkout', path: () => '/checkout', only: ['customer'] },
  { name: 'profile', path: () => '/profile', only: ['customer'] },
  { name: 'orders', path: () => '/orders', only: ['customer'] },
  { name: 'admin-dashboard', path: () => '/admin', only: ['admin'] },
  { name: 'admin-orders', path: () => '/admin/orders', only: ['admin'] },
];

test.use({ reducedMotion: 'reduce' });

for (const locale of ['en', 'pl'] as Locale[]) {
  for (const who of ['guest', 'customer', 'admin'] as Who[]) {
    test.describe(`in ${locale}`, () => {
      test.use({ language: locale });

      test(`every page at every width, ${who}`, async ({ page, consoleErrors, productPaths }, testInfo) => {
        // A sweep of every page at a dozen widths: about 2 minutes on 2 cores, more when the machine is busy.
        test.setTimeout(360_000);
        consoleErrors.allow(failedLoad(404));
        const productPath = (key: string) => productPaths.get(key)!;
        if (who !== 'guest') {
          const account = newAccount(testInfo, `layout-${who}`, 'Aleksandra Wiśniewska-Kowalczyk');
          await signUp(page, account);
          if (who === 'admin') await kopi('grant-admin', '--email', account.email);
          await addToCartByRequest(page, productPath(catalogue[0].key), 2);
        }
        const problems: string[] = [];
        for (const visit of visits.filter((v) => !v.only || v.only.includes(who))) {
          await page.setViewportSize({ width: 1280, height: 900 });
          await page.goto(visit.path(productPath));
          await waitForHydration(page);
          for (const width of WIDTHS) {
            await page.setViewportSize({ width, height: width < 768 ? 780 : 900 });
            await page.evaluate(() => new Promise(requestAnimationFrame));
            const m = await measure(page);
            const where = `${visit.name} at ${width} px`;
            if (m.overflow > 0) problems.push(`${where}: the page scrolls sideways by ${m.overflow} px`);
            if (m.headerOverflow > 0) problems.push(`${where}: the header is ${m.headerOverflow} px too wide`);
            if (m.offScreen.length) problems.push(`${where}: off screen: ${m.offScreen.join(', ')}`);
            if (m.wrapped.length) problems.push(`${where}: wrapped header labels: ${m.wrapped.join(', ')}`);
            if (!SHOT_WIDTHS.includes(width)) continue;
            const file = path.join(SHOTS, `${locale}-${who}`, `${visit.name}-${width}.jpg`);
            await fs.mkdir(path.dirname(file), { recursive: true });
            await page.screenshot({ path: file, type: 'jpeg', quality: 70 });
          }
        }
        expect(problems, problems.join('\n')).toEqual([]);
      });
    });
  }
}
