/**
 * Two currencies (docs/decisions/0023): out of the box every page is in euros; the header's EUR / PLN switch
 * re-prices the page, the product page (its price per kilogram and its JSON-LD offers), the cart and the
 * checkout on the server, and is remembered. A Polish shopper pays in złoty and the order stays in złoty; an
 * English shopper switches to złoty and back. A currency the shop does not offer changes nothing.
 *
 * The owner's default per language and the proposed prices are in admin-currencies.spec.ts (they change what
 * every visitor sees, so they run with the back office, after the storefront's journeys).
 */
import type { Page } from '@playwright/test';
import { cardPrice, catalogue, netWeight, productName, zloty } from '../fixtures/catalogue';
import { price, t } from '../fixtures/i18n';
import {
  TEST_CARDS,
  card,
  customerWithCart,
  expectStep,
  orderCard,
  payAndFinish,
  plainSpacesPattern,
  polishAddress,
  proceedToPayment,
} from './checkout-helpers';
import { cookieValue } from './cookies';
import { expect, test } from './fixtures';
import { addToCartByRequest, findProductPath, productGrid, switchCurrency, waitForHydration } from './helpers';

const pl = t('pl');
const main = (page: Page) => page.getByRole('main');
const first = catalogue[0];

async function jsonLdCurrencies(page: Page): Promise<string[]> {
  const text = await page.locator('script[type="application/ld+json"]').first().textContent();
  return [...new Set([...(text ?? '').matchAll(/"priceCurrency":"(\w+)"/g)].map((m) => m[1]))];
}

test('an English shopper switches to złoty and back: the grid, the product page, its JSON-LD and the cart follow, remembered', async ({ page, context }) => {
  await page.goto('/');
  await waitForHydration(page);
  const switcher = page.getByTestId('currency-switch').filter({ visible: true });
  await expect(switcher.getByRole('button', { name: 'EUR', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await expect(productGrid(page).getByTestId('card-price').first()).toHaveText(plainSpacesPattern(cardPrice(first, 'en')));

  await switchCurrency(page, 'PLN');
  await expect(page).toHaveURL(/\/$/);
  await expect(productGrid(page).getByTestId('card-price').first()).toHaveText(plainSpacesPattern(cardPrice(first, 'en', 'PLN')));
  const cookie = (await context.cookies()).find((c) => c.name === 'kopi_currency');
  expect(cookie).toMatchObject({ path: '/', sameSite: 'Lax', httpOnly: true });
  expect(cookieValue(cookie?.value)).toBe('PLN');

  const path = await findProductPath(page, productName(first, 'en'));
  await page.goto(path);
  const pln = zloty(first.priceCents);
  await expect(main(page).getByTestId('product-price')).toHaveText(plainSpacesPattern(price(pln, 'en', 'PLN')));
  await expect(main(page).getByTestId('unit-price').first()).toContainText(plainSpacesPattern(`${price(Math.round((pln * 1000) / netWeight(first)), 'en', 'PLN')} / kg`));
  expect(await jsonLdCurrencies(page)).toEqual(['PLN']);

  await addToCartByRequest(page, path, 2);
  await page.goto('/cart');
  await expect(main(page).getByTestId('cart-total')).toHaveText(plainSpacesPattern(price(2 * pln, 'en', 'PLN')));

  // Back to euros: the same cart, re-priced on the server.
  await waitForHydration(page);
  await switchCurrency(page, 'EUR');
  await expect(page).toHaveURL(/\/cart$/);
  await expect(main(page).getByTestId('cart-total')).toHaveText(plainSpacesPattern(price(2 * first.priceCents, 'en')));
  await page.goto(path);
  expect(await jsonLdCurrencies(page)).toEqual(['EUR']);
  await expect(main(page).getByTestId('product-price')).toHaveText(plainSpacesPattern(price(first.priceCents, 'en')));
});

test('a Polish shopper pays in złoty: the checkout, the paid order and My Orders stay in złoty', async ({ page }, testInfo) => {
  await page.goto('/pl');
  const path = await findProductPath(page, productName(first, 'pl'));
  await customerWithCart(page, testInfo, [[path, 1]], { label: 'ola.zloty' });
  await page.goto('/pl/cart');
  await waitForHydration(page);
  await switchCurrency(page, 'PLN');
  const pln = zloty(first.priceCents);
  await expect(main(page).getByTestId('cart-total')).toHaveText(plainSpacesPattern(price(pln, 'pl', 'PLN')));

  await page.goto('/pl/checkout');
  await expectStep(page, 'review', 'pl');
  await expect(main(page).getByTestId('checkout-total')).toHaveText(plainSpacesPattern(price(pln, 'pl', 'PLN')));
  await proceedToPayment(page, polishAddress, 'pl');
  const orderId = await payAndFinish(page, pln, card(TEST_CARDS.success), 'pl', 'PLN');
  await expect(main(page)).toContainText(plainSpacesPattern(price(pln, 'pl', 'PLN')));

  // The order keeps its currency whatever the shopper's currency later is.
  await waitForHydration(page);
  await switchCurrency(page, 'EUR');
  await page.goto('/pl/profile?tab=orders');
  const order = orderCard(page, orderId, 'pl');
  await expect(order.getByTestId('checkout-total')).toHaveText(plainSpacesPattern(price(pln, 'pl', 'PLN')));
  await expect(order).not.toContainText('€');
});

test('a currency the shop does not offer is refused with a translated page, and nothing changes', async ({ page, context }) => {
  await page.goto('/pl');
  await waitForHydration(page);
  const response = await page.request.post('/currency', { form: { currency: 'USD', redirectTo: '/pl' }, maxRedirects: 0 });
  expect(response.status()).toBe(400);
  // The switch has one address for both languages: its page is in the language the shopper last chose (none here).
  expect(await response.text()).toContain(t('en')('errors.invalidTitle').replaceAll("'", '&#x27;'));
  expect((await context.cookies()).find((c) => c.name === 'kopi_currency')).toBeUndefined();
  // Somewhere else: back to where it came from, never off the site.
  const away = await page.request.post('/currency', { form: { currency: 'PLN', redirectTo: 'https://evil.test/' }, maxRedirects: 0 });
  expect([away.status(), away.headers().location]).toEqual([302, '/']);
  await page.goto('/pl');
  await expect(productGrid(page).getByTestId('card-price').first()).toHaveText(plainSpacesPattern(cardPrice(first, 'pl', 'PLN')));
});
