/**
 * The storefront on a phone (390 × 844, touch): the menu closes on navigation, Escape and a tap outside,
 * marks the current page and gives focus back to its button; the lightbox keeps both arrows on screen,
 * changes pictures on a swipe and closes on a tap beside the picture.
 */
import type { Locator, Page } from '@playwright/test';
import { catalogue, productName, withImages } from '../fixtures/catalogue';
import { type Locale, t } from '../fixtures/i18n';
import { expect, test } from './fixtures';
import { waitForHydration } from './helpers';

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

/** The menu's <summary> (Chromium exposes it as a disclosure triangle, not a button). */
const menuButton = (page: Page) => page.getByTestId('mobile-menu').locator('summary');
const menu = (page: Page, locale: Locale = 'en') => page.getByTestId('mobile-menu').getByRole('navigation', { name: t(locale)('nav.main') });

async function openMenu(page: Page, locale: Locale = 'en'): Promise<Locator> {
  await expect(menuButton(page)).toHaveAccessibleName(t(locale)('nav.menu'));
  await menuButton(page).tap();
  await expect(menu(page, locale)).toBeVisible();
  return menu(page, locale);
}

test.describe('the menu', () => {
  test('marks the current page and closes after following a link, in Polish too', async ({ page }) => {
    const pl = t('pl');
    await page.goto('/pl/about');
    await waitForHydration(page);
    const nav = await openMenu(page, 'pl');
    await expect(nav.getByRole('link', { name: pl('nav.about') })).toHaveAttribute('aria-current', 'page');
    await expect(nav.getByRole('link', { name: pl('nav.home') })).not.toHaveAttribute('aria-current', 'page');
    await nav.getByRole('link', { name: pl('nav.contact') }).tap();
    await expect(page).toHaveURL(/\/pl\/contact$/);
    await expect(menu(page, 'pl')).toBeHidden();
    await openMenu(page, 'pl');
    await expect(menu(page, 'pl').getByRole('link', { name: pl('nav.contact') })).toHaveAttribute('aria-current', 'page');
  });

  test('closes on Escape and gives focus back to its button', async ({ page }) => {
    await page.goto('/about');
    await waitForHydration(page);
    await menuButton(page).focus();
    await page.keyboard.press('Enter');
    await expect(menu(page)).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(menu(page).getByRole('link').first()).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(menu(page)).toBeHidden();
    await expect(menuButton(page)).toBeFocused();
  });

  test('closes on a tap outside it', async ({ page }) => {
    await page.goto('/about');
    await waitForHydration(page);
    await openMenu(page);
    const heading = (await page.getByRole('heading', { level: 1 }).boundingBox())!;
    await page.touchscreen.tap(heading.x + heading.width - 10, heading.y + heading.height / 2);
    await expect(menu(page)).toBeHidden();
    await expect(page).toHaveURL(/\/about$/);
    await expect(menuButton(page)).toBeFocused();
  });
});

test.describe('the lightbox', () => {
  const product = withImages(3)[0];
  const en = t('en');
  const total = product.imageCount;

  async function openLightbox(page: Page, productPath: string): Promise<Locator> {
    await page.goto(productPath);
    await waitForHydration(page);
    await page.getByRole('button', { name: en('product.gallery.open', { n: 1, total }) }).tap();
    const dialog = page.getByRole('dialog', { name: en('product.gallery.dialog') });
    await expect(dialog).toBeVisible();
    await pictureLoaded(dialog);
    return dialog;
  }

  /**
   * Waits for the shown picture to load, and returns its middle. Measured before it has loaded, the picture is a
   * box of no height in the middle of the screen: a tap "beside" it lands on it once it has, and a swipe meant for
   * it starts on the backdrop (a loaded machine once swiped before the second picture had arrived).
   */
  async function pictureLoaded(dialog: Locator): Promise<{ x: number; y: number }> {
    await expect.poll(() => dialog.getByRole('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    const picture = (await dialog.getByRole('img').boundingBox())!;
    return { x: picture.x + picture.width / 2, y: picture.y + picture.height / 2 };
  }

  /** A one-finger swipe across the picture, as Chromium gets it from a touch screen. */
  async function swipe(page: Page, from: { x: number; y: number }, dx: number) {
    const cdp = await page.context().newCDPSession(page);
    const point = (x: number) => [{ x, y: from.y, id: 1 }];
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: point(from.x) });
    for (let step = 1; step <= 5; step++) {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: point(from.x + (dx * step) / 5) });
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await cdp.detach();
  }

  test('both arrows are on screen and a swipe changes the picture', async ({ page, productPath }) => {
    const dialog = await openLightbox(page, productPath(product));
    const counter = (n: number) => dialog.getByText(en('product.gallery.counter', { n, total }), { exact: true });
    await expect(counter(1)).toBeVisible();
    for (const name of ['previous', 'next']) {
      const box = (await dialog.getByRole('button', { name: en(`product.gallery.${name}`) }).boundingBox())!;
      expect(box.x, `${name} starts on screen`).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, `${name} ends on screen`).toBeLessThanOrEqual(390);
    }
    await swipe(page, await pictureLoaded(dialog), -150);
    await expect(counter(2)).toBeVisible();
    await expect(dialog.getByRole('img')).toHaveAccessibleName(`${productName(product, 'en')} (2/${total})`);
    await swipe(page, await pictureLoaded(dialog), 150);
    await expect(counter(1)).toBeVisible();
    await swipe(page, await pictureLoaded(dialog), 150);
    await expect(counter(total), 'a swipe back from the first picture wraps to the last').toBeVisible();
    await expect(dialog).toBeVisible();
  });

  test('a tap beside the picture closes it; a tap on the picture does not', async ({ page, productPath }) => {
    const dialog = await openLightbox(page, productPath(product));
    const picture = (await dialog.getByRole('img').boundingBox())!;
    await page.touchscreen.tap(picture.x + picture.width / 2, picture.y + picture.height / 2);
    await expect(dialog).toBeVisible();
    await page.touchscreen.tap(195, Math.max(2, picture.y - 40) > 80 ? picture.y - 40 : picture.y + picture.height + 60);
    await expect(dialog).toBeHidden();
  });
});

test.describe('the product cards', () => {
  test.use({ javaScriptEnabled: false });

  test('name a coffee in two lines at most on a phone (the whole name stays the link’s name); /categories fits 320 px before its scripts', async ({ page }) => {
    for (const width of [320, 390]) {
      await page.setViewportSize({ width, height: 800 });
      for (const locale of ['en', 'pl'] as const) {
        await page.goto(`${locale === 'pl' ? '/pl' : ''}/?page=3`);
        const headings = page.getByTestId('product-grid').getByRole('heading', { level: 3 });
        const tall = await headings.evaluateAll((all) =>
          all.filter((h) => h.getBoundingClientRect().height > 2 * parseFloat(getComputedStyle(h).lineHeight) + 1).map((h) => h.textContent),
        );
        expect(tall, `${locale} at ${width} px`).toEqual([]);
        // Clamped on screen only: the link still says the whole name.
        const names = await headings.getByRole('link').evaluateAll((links) => links.map((a) => a.textContent ?? ''));
        expect(names.length).toBeGreaterThan(0);
        for (const name of names) expect(catalogue.map((p) => productName(p, locale))).toContain(name);
      }
      for (const path of ['/categories', '/pl/categories', '/pl/categories?category=groundCoffee&sort=price-asc']) {
        await page.goto(path);
        expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), `${path} at ${width} px`).toBe(0);
        // The filter's Show and the order's Sort buttons (the forms' own, until scripts take over) are whole on screen.
        const buttons = page.getByRole('main').locator('form[method="get"] button');
        await expect(buttons).toHaveCount(2);
        for (const box of await buttons.evaluateAll((all) => all.map((b) => b.getBoundingClientRect().toJSON()))) {
          expect(box.left, `${path} at ${width} px`).toBeGreaterThanOrEqual(0);
          expect(box.right, `${path} at ${width} px`).toBeLessThanOrEqual(width);
        }
      }
    }
  });
});
