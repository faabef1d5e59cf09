/** Journeys with JavaScript switched off: every page is a plain HTML form or link. */
import { PAGE_SIZE, askedCents, catalogue, inCategory, productName, textMatches, lineNameOf } from '../fixtures/catalogue';
import { price, t } from '../fixtures/i18n';
import { expect, test } from './fixtures';
import { cookieValue } from './cookies';
import {
  addToCartByRequest,
  addToCartButton,
  expectCartCount,
  gridNames,
  productLinks,
} from './helpers';

const en = t('en');
const pl = t('pl');
const names = (products: typeof catalogue) => products.map((p) => productName(p, 'en'));

test.use({ javaScriptEnabled: false });

test('search, filter and load more are plain GET forms and links', async ({ page }) => {
  await page.goto('/');
  await expect(productLinks(page)).toHaveCount(PAGE_SIZE);

  const box = page.getByRole('searchbox', { name: en('home.search.label') });
  await box.fill('czekolada');
  await page.getByRole('search').getByRole('button', { name: en('home.search.submit') }).click();
  await expect(page).toHaveURL(/\?q=czekolada/);
  await expect.poll(() => gridNames(page)).toEqual(names(textMatches('czekolada')));

  await page.getByRole('navigation', { name: en('home.filter.label') }).getByRole('link', { name: en('categories.groundCoffee') }).click();
  await expect(page).toHaveURL(/q=czekolada&category=groundCoffee/);
  await expect.poll(() => gridNames(page)).toEqual(names(textMatches('czekolada').filter((p) => p.category === 'groundCoffee')));

  await page.goto('/');
  await page.getByRole('link', { name: en('home.loadMore') }).click();
  await expect(page).toHaveURL(/[?&]page=2#item-13$/);
  await expect.poll(() => gridNames(page)).toEqual(names(catalogue.slice(0, 2 * PAGE_SIZE)));
});

test('the categories dropdown works with its Show button', async ({ page }) => {
  await page.goto('/categories');
  const select = page.getByRole('combobox', { name: en('categories.select') });
  await select.selectOption('dripCoffeeBags');
  await page.getByRole('button', { name: en('categories.show') }).click();
  await expect(page).toHaveURL(/\/categories\?category=dripCoffeeBags/);
  await expect.poll(() => gridNames(page)).toEqual(names(inCategory('dripCoffeeBags')));
  await expect(select).toHaveValue('dripCoffeeBags');
});

test('sorting is a GET form with its own button and keeps the category', async ({ page }) => {
  await page.goto('/categories?category=wholeBean');
  await page.getByRole('combobox', { name: en('sort.label') }).selectOption('price-desc');
  await page.getByRole('button', { name: en('sort.apply') }).click();
  await expect(page).toHaveURL(/\/categories\?category=wholeBean&sort=price-desc$/);
  // By the price asked: the demo sale's coffee by its sale price.
  const expected = [...inCategory('wholeBean')].sort((a, b) => askedCents(b, b.priceCents) - askedCents(a, a.priceCents)).slice(0, PAGE_SIZE);
  await expect.poll(() => gridNames(page)).toEqual(names(expected));
});

test('checkout without JavaScript links to the login message', async ({ page, productPath }) => {
  await addToCartByRequest(page, productPath(catalogue[0]));
  await page.goto('/cart');
  await page.getByRole('link', { name: en('cart.checkout') }).click();
  await expect(page).toHaveURL(/\/cart\?checkout=1$/);
  await expect(page.getByText(en('cart.loginRequired'))).toBeVisible();
  await expect(page.getByRole('link', { name: en('cart.loginButton') })).toBeVisible();
});

test('add to cart from a product page posts and returns to the page', async ({ page, context, productPath }) => {
  const product = catalogue[1];
  const name = productName(product, 'en');
  const path = productPath(product);
  await page.goto(path);
  await expectCartCount(page, 0);
  await addToCartButton(page.getByRole('main'), name).click();
  await expect(page).toHaveURL(new RegExp(`${path}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
  await expectCartCount(page, 1);
  expect((await context.cookies()).some((c) => c.name === 'kopi_cart')).toBe(true);
});

test('the cart changes quantities and removes lines with plain forms', async ({ page, productPath }) => {
  const product = catalogue[3];
  const name = lineNameOf(product, 'en');
  await addToCartByRequest(page, productPath(product));
  await page.goto('/cart');
  const line = page.getByTestId('cart-line');

  await line.getByRole('button', { name: en('cart.increase', { name }) }).click();
  await expect(page).toHaveURL(/\/cart$/);
  await expect(line.getByTestId('line-quantity')).toHaveText('2');
  await expect(page.getByTestId('cart-total')).toHaveText(price(2 * product.priceCents, 'en'));
  await expectCartCount(page, 2);

  await line.getByRole('button', { name: en('cart.decrease', { name }) }).click();
  await expect(line.getByTestId('line-quantity')).toHaveText('1');

  await line.getByRole('button', { name: en('cart.removeItem', { name }) }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en('cart.empty.title'));
  await expectCartCount(page, 0);
});

test('the language button switches language and returns to the same page', async ({ page, context }) => {
  await page.goto('/categories?category=wholeBean');
  await page.getByRole('banner').getByRole('button', { name: 'Polski', exact: true }).click();
  await expect(page).toHaveURL(/\/pl\/categories\?category=wholeBean$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'pl');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(pl('categories.title'));
  expect(cookieValue((await context.cookies()).find((c) => c.name === 'lang')?.value)).toBe('pl');

  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'pl');
});
