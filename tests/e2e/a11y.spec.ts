/**
 * axe (WCAG 2.1 A and AA) on every page, in both languages, at desktop width: no serious or critical
 * violations. The cookie banner is answered beforehand, except in the scan of the banner itself. Each test
 * walks through a few states of one page and scans each of them.
 */
import type { Page } from '@playwright/test';
import { type DemoProduct, byKey, catalogue, lineNameOf, withImages } from '../fixtures/catalogue';
import { type Locale, t } from '../fixtures/i18n';
import { type ConsoleErrors, expect, failedLoad, test } from './fixtures';
import { addToCartByRequest, openAbout, waitForHydration } from './helpers';

type Context = { locale: Locale; consoleErrors: ConsoleErrors; productPath: (product: DemoProduct) => string };
/** A state of a page to scan: `reach` gets the page there (from wherever the previous state left it). */
type State = { name: string; reach: (page: Page, context: Context) => Promise<void> };

const visit = (path: string) => async (page: Page) => {
  await page.goto(path);
};
const gallery = withImages(3)[0];
// The demo's sold-out coffee and the one running low (3 packs of its first variant).
const soldOut = byKey('mollo-timor-ground-aeropress');
const low = byKey('lintong-ese-pods');

const pages: Record<string, State[]> = {
  home: [
    { name: 'home', reach: visit('/') },
    { name: 'home with a search and a category', reach: visit('/?q=czekolada&category=groundCoffee') },
    { name: 'home with no results', reach: visit('/?q=zzzz-nothing') },
  ],
  categories: [{ name: 'categories', reach: visit('/categories?category=capsulesAndPods') }],
  product: [
    {
      name: 'sold-out product with the notify-me form',
      reach: async (page, { locale, productPath }) => {
        await page.goto(productPath(soldOut));
        await expect(page.getByTestId('availability')).toHaveText(t(locale)('product.soldOut'));
        await waitForHydration(page);
      },
    },
    {
      name: 'notify-me form with errors',
      reach: async (page, { locale }) => {
        await page.getByRole('button', { name: t(locale)('product.notify.submit') }).click();
        await expect(page.getByText(t(locale)('product.notify.errors.emailRequired'))).toBeVisible();
      },
    },
    {
      name: 'notify-me form done',
      reach: async (page, { locale }) => {
        const email = `axe-${locale}-${Date.now().toString(36)}@example.com`;
        await page.getByLabel(t(locale)('product.notify.email')).fill(email);
        await page.getByLabel(t(locale)('product.notify.consent')).check();
        await page.getByRole('button', { name: t(locale)('product.notify.submit') }).click();
        await expect(page.getByRole('status').filter({ hasText: email })).toBeVisible();
      },
    },
    { name: 'product running low', reach: (page, { productPath }) => visit(productPath(low))(page) },
    { name: 'product with a gallery', reach: (page, { productPath }) => visit(productPath(gallery))(page) },
    {
      name: 'product lightbox',
      reach: async (page, { locale }) => {
        await page.getByRole('button', { name: t(locale)('product.gallery.open', { n: 1, total: gallery.imageCount }) }).click();
        await expect(page.getByRole('dialog')).toBeVisible();
      },
    },
  ],
  cart: [
    { name: 'empty cart', reach: visit('/cart') },
    {
      name: 'cart with items and the login message',
      reach: async (page, { locale, productPath }) => {
        await addToCartByRequest(page, productPath(catalogue[0]), 2);
        await addToCartByRequest(page, productPath(catalogue[1]));
        await page.goto('/cart');
        await expect(page.getByTestId('cart-line')).toHaveCount(2);
        await waitForHydration(page);
        await page.getByRole('button', { name: t(locale)('cart.checkout') }).click();
        await expect(page.getByText(t(locale)('cart.loginRequired'))).toBeVisible();
      },
    },
    {
      name: 'cart line refused one more: only 3 left',
      reach: async (page, { locale, productPath, consoleErrors }) => {
        consoleErrors.allow(failedLoad(409));
        await addToCartByRequest(page, productPath(low), 3);
        await page.goto('/cart');
        await waitForHydration(page);
        const name = lineNameOf(low, locale);
        await page.getByRole('button', { name: t(locale)('cart.increase', { name }) }).click();
        await expect(page.getByText(t(locale)('cart.stock.lineNotEnough', { count: 3 }))).toBeVisible();
      },
    },
  ],
  about: [{ name: 'about', reach: (page, { consoleErrors }) => openAbout(page, consoleErrors) }],
  contact: [
    { name: 'contact', reach: visit('/contact') },
    {
      name: 'contact with validation errors',
      reach: async (page, { locale }) => {
        await page.getByRole('main').getByLabel(t(locale)('contact.form.email'), { exact: true }).fill('not-an-email');
        await page.getByRole('button', { name: t(locale)('contact.form.send') }).click();
        await expect(page.getByText(t(locale)('contact.errors.emailInvalid'))).toBeVisible();
      },
    },
  ],
  withdraw: [
    { name: 'withdrawal form', reach: visit('/withdraw') },
    {
      name: 'withdrawal form with errors',
      reach: async (page, { locale }) => {
        await waitForHydration(page);
        await page.getByRole('button', { name: t(locale)('withdrawal.continue') }).click();
        await expect(page.getByText(t(locale)('withdrawal.errors.nameRequired'))).toBeVisible();
      },
    },
  ],
  legal: ['terms', 'privacy', 'cookies', 'shipping-returns', 'seller', 'reviews'].map((page) => ({ name: `legal page ${page}`, reach: visit(`/legal/${page}`) })),
  'not found': [
    {
      name: '404 page',
      reach: async (page, { consoleErrors }) => {
        consoleErrors.allow(failedLoad(404));
        await page.goto('/no-such-page');
      },
    },
    { name: 'product 404', reach: visit('/product/NoSuchProduct0000') },
  ],
};

// Motion off: the hero stays on one slide and nothing fades while axe measures contrast.
test.use({ reducedMotion: 'reduce' });

for (const locale of ['en', 'pl'] as Locale[]) {
  test.describe(`in ${locale}`, () => {
    test.use({ language: locale });

    for (const [name, states] of Object.entries(pages)) {
      test(name, async ({ page, consoleErrors, productPath, expectNoSeriousA11yViolations }) => {
        // Several axe scans of a long page: more than the default 30 s on a busy 2-core machine.
        test.setTimeout(60_000);
        for (const state of states) {
          await test.step(state.name, async () => {
            await state.reach(page, { locale, consoleErrors, productPath });
            await expect(page.locator('html')).toHaveAttribute('lang', locale);
            await waitForHydration(page);
            await expectNoSeriousA11yViolations(page, { label: `${state.name} (${locale})` });
          });
        }
      });
    }

    test.describe('with the cookie banner open', () => {
      test.use({ cookieConsent: null });
      test('contact', async ({ page, expectNoSeriousA11yViolations }) => {
        await page.goto('/contact');
        await waitForHydration(page);
        await expect(page.getByRole('region', { name: t(locale)('cookies.label') })).toBeVisible();
        await expectNoSeriousA11yViolations(page, { label: `contact with the cookie banner (${locale})` });
      });
    });
  });
}
