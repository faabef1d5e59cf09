import type { Page } from '@playwright/test';
import { catalogue, lineNameOf, productName } from '../fixtures/catalogue';
import { price, t } from '../fixtures/i18n';
import { expect, test } from './fixtures';
import { addToCart, addToCartButton, addedButton, cartLink, expectCartCount, productGrid, waitForHydration } from './helpers';

const en = t('en');

/** Marks the window; a full page load forgets the mark. */
const markWindow = (page: Page) => page.evaluate(() => ((window as unknown as { kopiMark: number }).kopiMark = 1));
const windowMarked = (page: Page) => page.evaluate(() => (window as unknown as { kopiMark?: number }).kopiMark === 1);

const cartLine = (page: Page, name: string) => page.getByTestId('cart-line').filter({ has: page.getByRole('heading', { name, exact: true }) });

test('a guest adds from the grid, changes quantities, removes, and is asked to log in at checkout — without page reloads', async ({ page }) => {
  const [first, second] = catalogue;
  const firstName = productName(first, 'en');
  const secondName = productName(second, 'en');
  // The line's controls name the product and its variant (the card adds the cheapest).
  const [firstLine, secondLine] = [lineNameOf(first, 'en'), lineNameOf(second, 'en')];

  await page.goto('/');
  await waitForHydration(page);
  await markWindow(page);
  await expectCartCount(page, 0);

  await addToCartButton(productGrid(page), firstName).click();
  await expectCartCount(page, 1);
  await expect(addedButton(productGrid(page), firstName)).toBeVisible();
  await addToCartButton(productGrid(page), secondName).click();
  await expectCartCount(page, 2);

  await cartLink(page).click();
  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en('cart.title'));
  await expect(page.getByText(en('cart.items', { count: 2 }), { exact: true })).toBeVisible();
  await waitForHydration(page);

  const line = cartLine(page, firstName);
  await expect(page.getByTestId('cart-line')).toHaveCount(2);
  await expect(line.locator('img').first(), 'the product picture (decorative beside the name)').toBeVisible();
  await expect(line.getByRole('link', { name: firstName })).toHaveAttribute('href', /\/product\//);
  await expect(line).toContainText(`${en('cart.unitPrice')}: ${price(first.priceCents, 'en')}`);
  await expect(line.getByTestId('line-quantity')).toHaveText('1');

  const total = (cents: number) => expect(page.getByTestId('cart-total')).toHaveText(price(cents, 'en'));
  await total(first.priceCents + second.priceCents);

  await line.getByRole('button', { name: en('cart.increase', { name: firstLine }) }).click();
  await expect(line.getByTestId('line-quantity')).toHaveText('2');
  await line.getByRole('button', { name: en('cart.increase', { name: firstLine }) }).click();
  await expect(line.getByTestId('line-quantity')).toHaveText('3');
  await expect(line.getByTestId('line-total')).toHaveText(`${en('cart.lineTotal')}: ${price(3 * first.priceCents, 'en')}`);
  await total(3 * first.priceCents + second.priceCents);
  await expectCartCount(page, 4);

  await line.getByRole('button', { name: en('cart.decrease', { name: firstLine }) }).click();
  await expect(line.getByTestId('line-quantity')).toHaveText('2');
  await total(2 * first.priceCents + second.priceCents);
  await expectCartCount(page, 3);

  // Totals always carry two decimals.
  await expect(page.getByTestId('cart-total')).toHaveText(/^€\d+\.\d{2}$/);

  await cartLine(page, secondName).getByRole('button', { name: en('cart.removeItem', { name: secondLine }) }).click();
  await expect(cartLine(page, secondName)).toHaveCount(0);
  await total(2 * first.priceCents);
  await expectCartCount(page, 2);

  await page.getByRole('button', { name: en('cart.checkout') }).click();
  const alert = page.getByRole('alert').filter({ hasText: en('cart.loginRequired') });
  await expect(alert).toBeVisible();
  await expect(alert.getByRole('link', { name: en('cart.loginButton') })).toHaveAttribute('href', /^\/auth\?redirectTo=/);
  await expect(page, 'checkout does not navigate for a guest').toHaveURL(/\/cart$/);

  await line.getByRole('button', { name: en('cart.removeItem', { name: firstLine }) }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en('cart.empty.title'));
  await expect(page.getByText(en('cart.empty.text'))).toBeVisible();
  await expectCartCount(page, 0);
  expect(await windowMarked(page), 'no full page load').toBe(true);

  await page.getByRole('main').getByRole('link', { name: en('cart.empty.back') }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('an empty cart says so and links back to the shop', async ({ page }) => {
  await page.goto('/cart');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en('cart.empty.title'));
  await expect(page.getByRole('main').getByRole('link', { name: en('cart.empty.back') })).toHaveAttribute('href', '/');
  await expectCartCount(page, 0);
});

test('Continue Shopping goes back to the shop', async ({ page }) => {
  const product = catalogue[2];
  await page.goto('/');
  await waitForHydration(page);
  await addToCart(productGrid(page), productName(product, 'en'));
  await expectCartCount(page, 1);
  await page.goto('/cart');
  await page.getByRole('link', { name: en('cart.continueShopping') }).click();
  await expect(page).toHaveURL(/\/$/);
  await expectCartCount(page, 1);
});

test('the cart survives a reload and shows line and cart totals with two decimals', async ({ page }) => {
  const product = catalogue.find((p) => p.priceCents % 100 !== 0) ?? catalogue[0];
  const name = productName(product, 'en');
  await page.goto('/');
  await waitForHydration(page);
  await addToCart(productGrid(page), name);
  await expectCartCount(page, 1);
  await page.goto('/cart');
  await waitForHydration(page);
  await cartLine(page, name).getByRole('button', { name: en('cart.increase', { name: lineNameOf(product, 'en') }) }).click();
  await expect(cartLine(page, name).getByTestId('line-quantity')).toHaveText('2');
  await page.reload();
  await expect(cartLine(page, name).getByTestId('line-quantity')).toHaveText('2');
  await expect(cartLine(page, name).getByTestId('line-total')).toContainText(price(2 * product.priceCents, 'en'));
  await expect(page.getByTestId('cart-total')).toHaveText(price(2 * product.priceCents, 'en'));
  await expectCartCount(page, 2);
});
