/** Small steps the journeys share. Locators go by role and by the shop's own texts (tests/fixtures/i18n). */
import { type Locator, type Page, expect } from '@playwright/test';
import { type ConsoleErrors, test } from './fixtures';
import { type Locale, escapeRegExp, t } from '../fixtures/i18n';

/** The product grid on the home and categories pages. */
export const productGrid = (page: Page): Locator => page.getByTestId('product-grid');

/** One link per product card (the card's name), in grid order. */
export const productLinks = (page: Page): Locator => productGrid(page).getByRole('heading').getByRole('link');

/** The product names shown in the grid, in order. */
export async function gridNames(page: Page): Promise<string[]> {
  return (await productLinks(page).allInnerTexts()).map((name) => name.trim());
}

export const productIdFromHref = (href: string): string => {
  const match = /\/product\/([^/?#]+)/.exec(href);
  if (!match) throw new Error(`Not a product link: ${href}`);
  return match[1];
};

/** The product page path of the product named `name`, found through the shop's search. */
export async function findProductPath(page: Page, name: string): Promise<string> {
  await page.goto(`/?q=${encodeURIComponent(name)}`);
  const link = productLinks(page).filter({ hasText: new RegExp(`^\\s*${escapeRegExp(name)}\\s*$`) }).first();
  await expect(link, `the search for "${name}" should list it`).toBeVisible();
  const href = await link.getAttribute('href');
  return `/product/${productIdFromHref(href!)}`;
}

/**
 * Waits until React has hydrated the page: the main element carries React's fiber, and add-to-cart and
 * cart-line forms have dropped the `redirectTo` field they only carry without JavaScript.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const main = document.getElementById('main');
    return (
      !!main &&
      Object.keys(main).some((key) => key.startsWith('__reactFiber$')) &&
      !document.querySelector('form[action$="/cart"] input[name="redirectTo"]')
    );
  }, undefined, { polling: 50 });
}

/** The header's language button: it names the other language ("Polski" on English pages). */
export const languageButton = (page: Page, current: Locale): Locator =>
  page.getByRole('banner').getByRole('button', { name: current === 'en' ? 'Polski' : 'English', exact: true });

/** Switches the language with the header button and waits for the page to come back in it. */
export async function switchLanguage(page: Page, to: Locale): Promise<void> {
  const from: Locale = to === 'pl' ? 'en' : 'pl';
  await languageButton(page, from).click();
  await expect(page.locator('html')).toHaveAttribute('lang', to);
  await expect(languageButton(page, to)).toBeVisible();
}

/** The header's cart link; its accessible name carries the count ("Cart, 2 items"). */
export const cartLink = (page: Page): Locator => page.getByTestId('cart-link');

export async function expectCartCount(page: Page, count: number, locale: Locale = 'en'): Promise<void> {
  await expect(page.getByTestId('cart-count')).toHaveText(String(count));
  await expect(cartLink(page)).toHaveAccessibleName(t(locale)('nav.cartCount', { count }));
}

/**
 * The add-to-cart button of a product card or page: its accessible name is the product's name and the variant it
 * adds ("Add to cart: Gayo Wine Natural — 250 g, whole bean"); `variant` narrows it to one, else any.
 */
export const addToCartButton = (scope: Page | Locator, name: string, locale: Locale = 'en', variant?: string): Locator =>
  scope.getByRole('button', { name: buttonName(t(locale)('product.addToCart'), name, variant) });

export const addedButton = (scope: Page | Locator, name: string, locale: Locale = 'en', variant?: string): Locator =>
  scope.getByRole('button', { name: buttonName(t(locale)('product.added'), name, variant) });

const buttonName = (action: string, name: string, variant?: string) =>
  new RegExp(`^${escapeRegExp(`${action}: ${name}`)}${variant === undefined ? '( — .+)?' : escapeRegExp(` — ${variant}`)}$`);

/** Puts a product in the browser context's cart through the cart's form endpoint (a fixture step, not a journey). */
export async function addToCartByRequest(page: Page, productPath: string, quantity = 1): Promise<void> {
  const response = await page.request.post('/cart', {
    form: { intent: 'add', productId: productIdFromHref(productPath), quantity: String(quantity) },
    maxRedirects: 0,
  });
  expect(response.status(), `adding ${productPath} to the cart`).toBeLessThan(400);
}

/** Clicks a product's add-to-cart button and waits until the server has answered (the "Added" label). */
export async function addToCart(scope: Page | Locator, name: string, locale: Locale = 'en'): Promise<void> {
  await addToCartButton(scope, name, locale).click();
  await expect(addedButton(scope, name, locale)).toBeVisible();
}

/** Opens /about and checks it answered 200. */
export async function openAbout(page: Page, _consoleErrors?: ConsoleErrors): Promise<void> {
  const response = await page.goto('/about');
  expect(response?.status()).toBe(200);
}

/** The header's currency switch (on a phone it is in the menu): presses the currency and waits for the page to come back in it. */
export async function switchCurrency(page: Page, to: 'EUR' | 'PLN'): Promise<void> {
  const button = page.getByTestId('currency-switch').filter({ visible: true }).getByRole('button', { name: to, exact: true });
  await button.click();
  await expect(button).toHaveAttribute('aria-pressed', 'true');
}
