/**
 * Keyboard journeys: where the focus is after each step a keyboard user takes (issue 12, item 3), the
 * progress indication on a slow navigation (item 4), and the contrast of focus rings.
 */
import type { Page } from '@playwright/test';
import { PAGE_SIZE, catalogue, productName, withImages, lineNameOf } from '../fixtures/catalogue';
import { t } from '../fixtures/i18n';
import { expect, test } from './fixtures';
import { addToCartByRequest, waitForHydration } from './helpers';

const en = t('en');
const pl = t('pl');

/** What has the focus: its tag, its text or label. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return el ? `${el.tagName.toLowerCase()}: ${(el.getAttribute('aria-label') ?? el.innerText ?? '').trim()}` : 'nothing';
  });

test('Add to cart keeps the focus on its button and announces the add', async ({ page, productPath }) => {
  const product = withImages(1)[0];
  await page.goto(productPath(product));
  await waitForHydration(page);
  // The page opens on the cheapest variant, the one its card adds too.
  const name = lineNameOf(product, 'en');
  await page.getByRole('main').getByRole('button', { name: `${en('product.addToCart')}: ${name}` }).first().focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main').getByRole('status').filter({ hasText: en('product.addedToCart') }).first()).toBeAttached();
  expect(await focused(page)).toBe(`button: ${en('product.added')}: ${name}`);
  await expect(page.getByTestId('cart-count')).toHaveText('1');
});

test('Remove moves the focus to the next line, and after the last line to the heading', async ({ page, productPath }) => {
  const [first, second] = catalogue;
  await addToCartByRequest(page, productPath(first));
  await addToCartByRequest(page, productPath(second));
  await page.goto('/cart');
  await waitForHydration(page);
  const lines = page.getByTestId('cart-line');
  await expect(lines).toHaveCount(2);
  const firstName = (await lines.nth(0).getByRole('heading').innerText()).trim();
  const secondName = (await lines.nth(1).getByRole('heading').innerText()).trim();
  expect([firstName, secondName].sort()).toEqual([productName(first, 'en'), productName(second, 'en')].sort());

  await page.getByRole('button', { name: en('cart.removeItem', { name: lineNameOf(first, 'en') }) }).focus();
  await page.keyboard.press('Enter');
  await expect(lines).toHaveCount(1);
  await expect(page.getByRole('main').getByRole('link', { name: secondName, exact: true })).toBeFocused();

  await page.getByRole('button', { name: en('cart.removeItem', { name: lineNameOf(second, 'en') }) }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: en('cart.empty.title') })).toBeFocused();
});

test('a client-side navigation moves the focus to the new page heading and announces its title', async ({ page }) => {
  await page.goto('/');
  await waitForHydration(page);
  await page.getByRole('banner').getByRole('link', { name: en('nav.about'), exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/about$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
  await expect(page.getByTestId('route-announcer')).toHaveText(await page.title());
  // A filter on the same page leaves the focus on the link that was followed.
  await page.goto('/');
  await waitForHydration(page);
  const ground = page.getByRole('main').getByRole('link', { name: en('categories.groundCoffee'), exact: true }).first();
  await ground.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/category=groundCoffee/);
  await expect(ground).toBeFocused();
});

test('Load more moves the focus to the first new card', async ({ page }) => {
  await page.goto('/');
  await waitForHydration(page);
  await page.getByTestId('load-more').focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`#item-${PAGE_SIZE + 1}$`));
  const firstNew = page.locator(`#item-${PAGE_SIZE + 1}`).getByRole('heading').getByRole('link');
  await expect(firstNew).toBeFocused();
});

test.describe('the cookie banner', () => {
  test.use({ cookieConsent: null });

  test('comes right after the skip link in the Tab order, and its answer hands the focus to the header', async ({ page }) => {
    await page.goto('/pl/about');
    await waitForHydration(page);
    const banner = page.getByRole('region', { name: pl('cookies.label') });
    await expect(banner).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: pl('nav.skip') })).toBeFocused();
    await page.keyboard.press('Tab');
    expect(await banner.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    await banner.getByRole('button', { name: pl('cookies.decline') }).focus();
    await page.keyboard.press('Enter');
    await expect(banner).toBeHidden();
    await expect(page.getByRole('banner').getByRole('link', { name: pl('brand.home') })).toBeFocused();
  });
});

test('a slow navigation shows a progress bar and says it is loading', async ({ page }) => {
  await page.goto('/');
  await waitForHydration(page);
  // The About page's data takes 1.5 s to come.
  await page.route(/\/about\.data/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  const bar = page.getByTestId('navigation-progress');
  await expect(bar).toHaveAttribute('data-state', 'idle');
  await page.getByRole('banner').getByRole('link', { name: en('nav.about'), exact: true }).click();
  await expect(bar).toHaveAttribute('data-state', 'loading');
  await expect(page.getByTestId('navigation-announcer')).toHaveText(en('nav.loading'));
  await expect(page).toHaveURL(/\/about$/);
  await expect(bar).toHaveAttribute('data-state', 'idle');
});

test('focus rings reach 3:1 against what is behind them, the dark footer included', async ({ page }) => {
  await page.goto('/contact');
  await waitForHydration(page);
  /** The contrast of the focused element's outline (or ring) against the nearest opaque background. */
  const ringContrast = () =>
    page.evaluate(() => {
      const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).slice(0, 4).map(Number);
      const lum = ([r, g, b]: number[]) =>
        [r, g, b].map((v) => v / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)).reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
      const el = document.activeElement as HTMLElement;
      const style = getComputedStyle(el);
      const ring = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0 ? style.outlineColor : (style.boxShadow.match(/rgba?\([^)]+\)/)?.[0] ?? '');
      let node: HTMLElement | null = el.parentElement;
      let behind = 'rgb(255, 255, 255)';
      for (; node; node = node.parentElement) {
        const bg = rgb(getComputedStyle(node).backgroundColor);
        if (bg.length === 3 || (bg.length === 4 && bg[3] > 0.9)) {
          behind = getComputedStyle(node).backgroundColor;
          break;
        }
      }
      const [a, b] = [lum(rgb(ring)), lum(rgb(behind))];
      return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    });
  const footerLink = page.getByRole('contentinfo').getByRole('link').first();
  await footerLink.focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  await expect(footerLink).toBeFocused();
  expect(await ringContrast(), 'footer link').toBeGreaterThanOrEqual(3);
  const email = page.getByRole('main').getByLabel(en('contact.form.email'), { exact: true });
  await email.focus();
  expect(await ringContrast(), 'text field').toBeGreaterThanOrEqual(3);
});

test('a field scrolled to under the sticky header is not hidden by it', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 700 });
  await page.goto('/contact');
  await waitForHydration(page);
  await page.getByRole('main').getByLabel(en('contact.form.name'), { exact: true }).fill('Ola');
  await page.getByRole('main').getByLabel(en('contact.form.email'), { exact: true }).fill('not-an-email');
  await page.getByRole('main').getByLabel(en('contact.form.subject'), { exact: true }).fill('Beans');
  await page.getByRole('main').getByLabel(en('contact.form.message'), { exact: true }).fill('Which one is the fruitiest?');
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await page.getByRole('button', { name: en('contact.form.send') }).click();
  const email = page.getByRole('main').getByLabel(en('contact.form.email'), { exact: true });
  await expect(email).toBeFocused();
  await page.waitForFunction(() => {
    const field = document.activeElement!.getBoundingClientRect();
    const header = document.querySelector('header')!.getBoundingClientRect();
    return field.top >= header.bottom;
  });
});
