/**
 * Choosing a variant on a product page (issue 31): a size and a grind as groups of radio buttons (keyboard and
 * screen reader), the price, the price per kilogram and the URL following the choice in place; the choice in the
 * cart; the same without JavaScript through the form's GET; a combination the coffee is not sold in says so. Each in
 * English and in Polish.
 */
import type { Page } from '@playwright/test';
import { type DemoProduct, catalogue, lineNameOf, productName } from '../fixtures/catalogue';
import { type Locale, price, t } from '../fixtures/i18n';
import { demoVariants } from '../../app/demo/products';
import { plainSpacesPattern } from './checkout-helpers';
import { signedCookie } from './cookies';
import { expect, failedLoad, test } from './fixtures';
import { addToCart, addToCartButton, expectCartCount, waitForHydration } from './helpers';

const beans = catalogue.find((p) => p.category === 'wholeBean')!;
const ground = catalogue.find((p) => p.category === 'groundCoffee')!;
const perKilo = (cents: number, grams: number) => Math.round((cents * 1000) / grams);

const group = (page: Page, kind: 'size' | 'grind' | 'pack', locale: Locale) => page.getByRole('group', { name: t(locale)(`variant.option.${kind}`) });
const kilo = (product: DemoProduct, grind: string) => demoVariants(product).find((v) => v.netWeightGrams === 1000 && v.grind === grind)!;

for (const language of ['en', 'pl'] as const) {
test(`choosing a size and a grind changes the price, the price per kilogram and the URL in place; the cart holds that variant (${language})`, async ({ page, productPath }, testInfo) => {
  const tr = t(language);
  const at = (target: string) => (language === 'pl' ? `/pl${target}` : target);
  if (language === 'pl') await page.context().addCookies([{ name: 'lang', value: await signedCookie('lang', 'pl'), url: testInfo.project.use.baseURL! }]);
  const path = at(productPath(beans));
  await page.goto(path);
  await waitForHydration(page);
  const [cheapest] = demoVariants(beans);
  await expect(page.getByTestId('product-price')).toHaveText(price(cheapest.priceCents, language));
  await expect(group(page, 'size', language).getByRole('radio', { name: '250 g' })).toBeChecked();
  await expect(group(page, 'grind', language).getByRole('radio', { name: t(language)('grind.wholeBean') })).toBeChecked();

  // By keyboard: into the size group, then the arrow key moves to 1 kg.
  await group(page, 'size', language).getByRole('radio', { name: '250 g' }).focus();
  await page.keyboard.press('ArrowRight');
  const big = kilo(beans, 'wholeBean');
  await expect(group(page, 'size', language).getByRole('radio', { name: '1 kg' })).toBeChecked();
  await expect(page.getByTestId('product-price')).toHaveText(price(big.priceCents, language));
  await expect(page.getByRole('main').getByTestId('unit-price').first()).toContainText(plainSpacesPattern(`1 kg · ${t(language)('product.unitPrice')}: ${price(perKilo(big.priceCents, 1000), language)} / kg`));
  await expect(page).toHaveURL(new RegExp(`${path}\\?size=1000&grind=wholeBean$`));
  await expect(page.getByTestId('product-type')).toHaveText(tr('categories.wholeBean'));

  await group(page, 'grind', language).getByText(t(language)('grind.espresso'), { exact: true }).click();
  const chosen = kilo(beans, 'espresso');
  await expect(page).toHaveURL(new RegExp(`size=1000&grind=espresso$`));
  // Ground to order: its type says so, on the page and in the cart (never "Whole bean" beside a grind).
  await expect(page.getByTestId('product-type')).toHaveText(tr('categories.groundCoffee'));
  await addToCart(page.getByRole('main'), productName(beans, language), language);
  await expectCartCount(page, 1, language);
  await page.goto(at('/cart'));
  const line = page.getByTestId('cart-line');
  await expect(line.getByTestId('line-variant')).toHaveText(plainSpacesPattern(`1 kg, ${t(language)('grind.espresso')}`));
  await expect(line.getByTestId('line-category')).toHaveText(tr('categories.groundCoffee'));
  await expect(page.getByTestId('cart-total')).toHaveText(price(chosen.priceCents, language));
  // Back to the coffee from the cart: the page opens on that variant.
  await line.getByRole('link', { name: productName(beans, language), exact: true }).click();
  await expect(group(page, 'grind', language).getByRole('radio', { name: t(language)('grind.espresso') })).toBeChecked();
  await expect(group(page, 'size', language).getByRole('radio', { name: '1 kg' })).toBeChecked();
});
}

for (const language of ['en', 'pl'] as const) {
test.describe(`without JavaScript (${language})`, () => {
  test.use({ javaScriptEnabled: false, language });
  const tr = t(language);

  test('the choice is a form: "Show" loads the variant’s own page with its price and price per kilogram, and Add to cart adds that variant', async ({ page, productPath }) => {
    await page.goto(productPath(beans));
    await group(page, 'size', language).getByText('1 kg', { exact: true }).click();
    await group(page, 'grind', language).getByText(t(language)('grind.mokaPot'), { exact: true }).click();
    await page.getByRole('button', { name: t(language)('variant.show') }).click();
    await expect(page).toHaveURL(/\?size=1000&grind=mokaPot$/);
    const chosen = kilo(beans, 'mokaPot');
    await expect(page.getByTestId('product-price')).toHaveText(price(chosen.priceCents, language));
    await expect(page.getByRole('main').getByTestId('unit-price').first()).toContainText(plainSpacesPattern(`1 kg · ${tr('product.unitPrice')}: ${price(perKilo(chosen.priceCents, 1000), language)} / kg`));
    await addToCartButton(page.getByRole('main'), productName(beans, language), language).click();
    await expect(page).toHaveURL(/\?size=1000&grind=mokaPot$/);
    await expectCartCount(page, 1, language);
    await page.goto('/cart');
    await expect(page.getByTestId('cart-line').getByRole('button', { name: t(language)('cart.removeItem', { name: lineNameOf(beans, language, chosen) }) })).toBeVisible();
  });

  test('ground coffee is not sold as whole beans: that combination says so and offers nothing to add', async ({ page, productPath, consoleErrors }) => {
    consoleErrors.allow(failedLoad(404));
    const response = await page.goto(`${productPath(ground)}?size=250&grind=wholeBean`);
    // Not a page of its own: a 404 that says why and offers the choice again.
    expect(response?.status()).toBe(404);
    await expect(page.getByTestId('not-offered')).toHaveText(t(language)('variant.notOffered'));
    await expect(addToCartButton(page.getByRole('main'), productName(ground, language), language)).toHaveCount(0);
    await expect(group(page, 'grind', language).getByRole('radio', { name: t(language)('grind.wholeBean') })).toHaveCount(0);
    // The canonical address stays the coffee's own.
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', new RegExp(`${productPath(ground)}$`));
  });
});
}

test('the product page with a chosen variant passes axe in both languages', async ({ page, productPath, expectNoSeriousA11yViolations }) => {
  for (const locale of ['en', 'pl'] as const) {
    await page.goto(`${locale === 'pl' ? '/pl' : ''}${productPath(ground)}?size=1000&grind=espresso`);
    await waitForHydration(page);
    await expectNoSeriousA11yViolations(page, { label: `product with a chosen variant (${locale})` });
  }
});
