/**
 * The shared `test` for every journey:
 * - an unexpected console.error or uncaught page error fails the test (STYLE.md); a test that provokes one
 *   on purpose (a 404 document) says so with `consoleErrors.allow(/pattern/)`;
 * - `cookieConsent` decides what the browser has already answered to the cookie banner: 'declined' by
 *   default so the banner stays out of the way and no analytics are sent; `null` for a first visit;
 * - `language` starts the visit in a language: with 'pl', `page.goto('/cart')` opens `/pl/cart`, and the `lang`
 *   cookie is set for the single-URL back office (the header button is tested apart);
 * - `expectNoSeriousA11yViolations(page)` runs axe (WCAG 2.1 A/AA) and fails on serious or critical findings.
 */
import AxeBuilder from '@axe-core/playwright';
import { type Page, test as base, expect } from '@playwright/test';
import { type DemoProduct, PAGE_SIZE, catalogue } from '../fixtures/catalogue';
import type { Locale } from '../fixtures/i18n';
import { localePath } from '../../app/modules/i18n/paths';
import { COOKIE_BANNER_VERSION } from '../../app/lib/analytics';
import { signedCookie } from './cookies';

const hash = (text: string) => [...text].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0, 7);

export { expect } from '@playwright/test';

export type ConsoleErrors = {
  /** Errors matching `pattern` are expected in this test and do not fail it. */
  allow(pattern: RegExp): void;
  /** What was reported so far (allowed or not). */
  readonly messages: string[];
};

type Options = {
  cookieConsent: 'accepted' | 'declined' | null;
  language: Locale | null;
};

type Fixtures = {
  consoleErrors: ConsoleErrors;
  /** The client address the shop sees for this test (X-Forwarded-For). */
  clientAddress: string;
  expectNoSeriousA11yViolations: (page?: Page, options?: A11yOptions) => Promise<void>;
  /** The product page path of a demo product ("/product/<id>"; ids are random per server start). */
  productPath: (product: DemoProduct) => string;
};

type WorkerFixtures = {
  /** Demo product key → product page path, read once per worker from the home page's grid. */
  productPaths: Map<string, string>;
};

export type A11yOptions = {
  /** CSS selectors left out of the scan. */
  exclude?: string[];
  /** Named in the failure message, e.g. "cart (pl, with items)". */
  label?: string;
};

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** Runs axe on the page as it rests and fails on any serious or critical violation, listing each one. */
export async function expectNoSeriousA11yViolations(page: Page, { exclude = [], label }: A11yOptions = {}): Promise<void> {
  // Only violations are reported; skipping the passes' details makes a scan markedly faster. Legacy mode runs axe
  // once in the page itself instead of per frame and then again in a blank page of its own to merge the frames'
  // results: the same rules and findings for a page without frames, in less than half the time.
  const scanner = () => {
    let builder = new AxeBuilder({ page }).setLegacyMode(page.frames().length === 1).withTags(WCAG_TAGS).options({ resultTypes: ['violations'] });
    for (const selector of exclude) builder = builder.exclude(selector);
    return builder;
  };
  // The page as it rests: a banner sliding in or a colour in transition is measured half-faded (a loaded machine
  // caught the cookie banner, which opens a moment after the page, at 2.2:1 and 3.2:1 mid-animation). So a scan
  // waits for the page's finite animations to end, and is made again if one started while it ran; endless ones (a
  // progress bar) are not waited for.
  let results: Awaited<ReturnType<AxeBuilder['analyze']>>;
  for (let scan = 1; ; scan++) {
    const since = await page.evaluate(async () => {
      const finite = (a: Animation) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime));
      await Promise.all(document.getAnimations().filter((a) => a.playState === 'running' && finite(a)).map((a) => a.finished.catch(() => undefined)));
      return Number(document.timeline.currentTime);
    });
    results = await scanner().analyze();
    const moved = await page.evaluate(
      (since) => document.getAnimations().some((a) => Number(a.startTime) >= since || (a.playState === 'running' && Number.isFinite(Number(a.effect?.getComputedTiming().endTime)))),
      since,
    );
    if (!moved || scan === 3) break;
  }
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const report = serious
    .map((v) => {
      const nodes = v.nodes
        .slice(0, 5)
        .map((n) => `    - ${n.target.join(' ')}\n      ${n.failureSummary?.replace(/\n/g, '\n      ') ?? ''}`)
        .join('\n');
      const more = v.nodes.length > 5 ? `\n    … and ${v.nodes.length - 5} more` : '';
      return `  [${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})\n${nodes}${more}`;
    })
    .join('\n');
  expect(serious.map((v) => v.id), `axe found serious/critical violations on ${label ?? page.url()}:\n${report}`).toEqual([]);
}

/** An init script: the visitor declined statistics on the current banner (it stays closed). */
export function declineCookies(version: string): void {
  try {
    window.localStorage.setItem('cookiesAccepted', 'false');
    window.localStorage.setItem('cookiesVersion', version);
  } catch {
    // about:blank has no storage
  }
}

export const test = base.extend<Options & Fixtures, WorkerFixtures>({
  cookieConsent: ['declined', { option: true }],
  language: [null, { option: true }],

  context: async ({ context, cookieConsent, language, baseURL }, use) => {
    if (cookieConsent !== null) {
      const value = String(cookieConsent === 'accepted');
      await context.addInitScript(
        ({ v, version }) => {
          try {
            window.localStorage.setItem('cookiesAccepted', v);
            window.localStorage.setItem('cookiesVersion', version);
          } catch {
            // about:blank has no storage
          }
        },
        { v: value, version: COOKIE_BANNER_VERSION },
      );
    }
    if (language) await context.addCookies([{ name: 'lang', value: await signedCookie('lang', language), url: baseURL! }]);
    await use(context);
  },

  page: async ({ page, language }, use) => {
    if (language && language !== 'en') {
      const goto = page.goto.bind(page);
      page.goto = (url, options) => goto(url.startsWith('/') ? localePath(language, url) : url, options);
    }
    await use(page);
  },

  // Each test is its own client: behind the journeys' trusted proxy (tests/setup/start-server.js), the shop
  // counts its abuse limits by this address.
  clientAddress: [
    async ({ context }, use, testInfo) => {
      const n = (testInfo.workerIndex * 7919 + testInfo.retry * 104_729 + hash(testInfo.testId)) % 16_000_000;
      const address = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
      await context.setExtraHTTPHeaders({ 'x-forwarded-for': address });
      await use(address);
    },
    { auto: true },
  ],

  consoleErrors: [
    async ({ context }, use, testInfo) => {
      const allowed: RegExp[] = [];
      const messages: string[] = [];
      context.on('console', (message) => {
        if (message.type() !== 'error') return;
        const where = message.location()?.url ? ` (${message.location().url})` : '';
        messages.push(`console.error: ${message.text()}${where}`);
      });
      context.on('weberror', (error) => messages.push(`page error: ${error.error().stack ?? error.error().message}`));
      await use({ allow: (pattern) => void allowed.push(pattern), messages });
      const unexpected = messages.filter((m) => !allowed.some((pattern) => pattern.test(m)));
      // A failed or skipped test has its own story to tell; only a passing one is failed for its console.
      if (unexpected.length > 0 && testInfo.status === 'passed') {
        throw new Error(`Unexpected errors in the browser console:\n${unexpected.map((m) => `  ${m}`).join('\n')}`);
      }
    },
    { auto: true },
  ],

  productPaths: [
    async ({ browser }, use, workerInfo) => {
      const context = await browser.newContext({ baseURL: workerInfo.project.use.baseURL, javaScriptEnabled: false });
      const page = await context.newPage();
      const links = page.getByTestId('product-grid').getByRole('heading').getByRole('link');
      const paths = new Map<string, string>();
      // The grid is newest first and `?page=N` shows N pages: coffees other tests added push the demo's further
      // down, so more pages are asked for until every demo coffee is found.
      for (let n = Math.ceil(catalogue.length / PAGE_SIZE); paths.size < catalogue.length && n <= Math.ceil(catalogue.length / PAGE_SIZE) + 10; n++) {
        await page.goto(`/?page=${n}`);
        await expect(links.first()).toBeVisible();
        const found = await links.evaluateAll((as) => as.map((a) => [a.textContent?.trim() ?? '', a.getAttribute('href') ?? '']));
        for (const [name, href] of found) {
          const product = catalogue.find((p) => p.en.name === name);
          if (product) paths.set(product.key, new URL(href, 'http://x').pathname);
        }
      }
      await context.close();
      expect([...catalogue.filter((p) => !paths.has(p.key)).map((p) => p.en.name)], 'demo coffees missing from the home grid').toEqual([]);
      await use(paths);
    },
    { scope: 'worker' },
  ],

  productPath: async ({ productPaths }, use) => {
    await use((product) => {
      const path = productPaths.get(product.key);
      if (!path) throw new Error(`The home page grid does not list "${product.en.name}"`);
      return path;
    });
  },

  expectNoSeriousA11yViolations: async ({ page }, use) => {
    await use((target = page, options) => expectNoSeriousA11yViolations(target, options));
  },
});

/** A failed page or resource load with this status, as Chromium reports it in the console. */
export const failedLoad = (status: number) => new RegExp(`Failed to load resource: the server responded with a status of ${status}`);
