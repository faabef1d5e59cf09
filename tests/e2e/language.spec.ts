import type { Page } from '@playwright/test';
import { cardPrice, catalogue, productName } from '../fixtures/catalogue';
import { plainSpaces, price, t } from '../fixtures/i18n';
import { expect, test } from './fixtures';
import { addToCartButton, languageButton, productGrid, switchLanguage, waitForHydration } from './helpers';
import { plainSpacesPattern } from './checkout-helpers';
import { cookieValue } from './cookies';

const en = t('en');
const pl = t('pl');
const storedLanguage = (page: Page) => page.evaluate(() => localStorage.getItem('language'));

test('English by default, Polish with the header button, kept across a reload', async ({ page, context }) => {
  await page.goto('/?q=gayo');
  await waitForHydration(page);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en('home.hero.heading'));
  await expect(productGrid(page).getByText(plainSpacesPattern(cardPrice(newestMatching('gayo'), 'en'))).first()).toBeVisible();
  await expect(languageButton(page, 'en')).toHaveAttribute('lang', 'pl');

  await switchLanguage(page, 'pl');
  await expect(page, 'the Polish URL of the same page and query').toHaveURL(/\/pl\?q=gayo$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(pl('home.hero.heading'));
  await expect(page.getByRole('navigation', { name: pl('nav.main') }).getByRole('link', { name: pl('nav.contact') })).toBeVisible();
  await expect(productGrid(page).getByText(plainSpacesPattern(cardPrice(newestMatching('gayo'), 'pl'))).first()).toBeVisible();
  expect(await storedLanguage(page)).toBe('pl');
  const langCookie = (await context.cookies()).find((c) => c.name === 'lang');
  expect(langCookie).toMatchObject({ path: '/', sameSite: 'Lax', httpOnly: true });
  expect(cookieValue(langCookie?.value)).toBe('pl');

  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'pl');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(pl('home.hero.heading'));

  await switchLanguage(page, 'en');
  await expect(page).toHaveURL(/\/\?q=gayo$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en('home.hero.heading'));
  expect(await storedLanguage(page)).toBe('en');
  expect(cookieValue((await context.cookies()).find((c) => c.name === 'lang')?.value)).toBe('en');
});

test('a product page switches language in place: name, price format and texts', async ({ page }) => {
  const product = catalogue.find((p) => p.en.name !== p.pl.name)!;
  await page.goto('/');
  await productGrid(page).getByRole('link', { name: productName(product, 'en'), exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(product.en.name);
  await expect(page.getByTestId('product-price')).toHaveText(price(product.priceCents, 'en'));
  await waitForHydration(page);

  await switchLanguage(page, 'pl');
  await expect(page).toHaveURL(/\/pl\/product\/[\w-]+$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(product.pl.name);
  await expect(page.getByTestId('product-price')).toHaveText(price(product.priceCents, 'pl'));
  await expect(page.getByTestId('product-price')).toHaveText(/^\d+,\d{2}\s€$/);
  await expect(page).toHaveTitle(`${product.pl.name} · Kopi`);
  await expect(addToCartButton(page.getByRole('main'), product.pl.name, 'pl').first()).toBeVisible();
});

test('a Polish page opened directly is Polish without any cookie, and its links stay Polish', async ({ page, context }) => {
  await page.goto('/pl/contact');
  expect(await context.cookies()).toEqual([]);
  await expect(page.locator('html')).toHaveAttribute('lang', 'pl');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(pl('contact.title'));
  await waitForHydration(page);

  await page.getByRole('navigation', { name: pl('nav.main') }).getByRole('link', { name: pl('nav.categories') }).click();
  await expect(page).toHaveURL(/\/pl\/categories$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(pl('categories.title'));
  await productGrid(page).getByRole('heading').getByRole('link').first().click();
  await expect(page).toHaveURL(/\/pl\/product\/[\w-]+$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'pl');
  await page.getByRole('banner').getByRole('link', { name: pl('brand.home') }).click();
  await expect(page).toHaveURL(/\/pl$/);

  const hrefs = await page.locator('main a[href^="/"], header a[href^="/"], footer a[href^="/"]').evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
  expect(hrefs.length).toBeGreaterThan(10);
  expect(hrefs.filter((href) => !/^\/pl(\/|\?|#|$)/.test(href)), 'every page link on a Polish page stays Polish').toEqual([]);
});

test('the English page a Polish reader lands on offers the Polish page and never redirects', async ({ page }) => {
  await page.goto('/contact');
  await waitForHydration(page);
  await switchLanguage(page, 'pl');
  await page.goto('/');
  await expect(page, 'no redirect away from the URL asked for').toHaveURL(/\/$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  const offer = page.getByTestId('language-suggestion');
  await expect(offer).toBeVisible();
  await offer.getByRole('link').click();
  await expect(page).toHaveURL(/\/pl$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(pl('home.hero.heading'));
});

function newestMatching(word: string) {
  return catalogue.find((p) => p.en.name.toLowerCase().includes(word))!;
}
