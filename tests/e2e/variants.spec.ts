/**
 * Choosing a variant on a product page (issue 31): a size and a grind as groups of radio buttons (keyboard and
 * screen reader), the price, the price per kilogram and the URL following the choice in place; the choice in the
 * cart; the same without JavaScript through the form's GET; a combination the coffee is not sold in says so.
 */
import type { Page } from '@playwright/test';
import { type DemoProduct, catalogue, lineNameOf, productName } from '../fixtures/catalogue';
import { type Locale, price, t } from '../fixtures/i18n';
import { demoVariants } from '../../app/demo/products';
import { plainSpacesPattern } from './checkout-helpers';
import { expect, test } from './fixtures';
import { addToCart, addToCartButton, expectCartCount, waitForHydration } from './helpers';

const beans = catalogue.find((p) => p.category === 'wholeBean')!;
const ground = catalogue.find((p) => p.category === 'groundCoffee')!;
const perKilo = (cents: number, grams: number) => Math.round((cents * 1000) / grams);

const group = (page: Page, kind: 'size' | 'grind' | 'pack', locale: Locale) => page.getByRole('group', { name: t(locale)(`variant.option.${kind}`) });
const kilo = (product: DemoProduct, grind: string) => demoVariants(product).find((v) => v.netWeightGrams === 1000 && v.grind === grind)!;

test('choosing a size and a grind changes the price, the price per kilogram and the URL in place; the cart holds that variant', async ({ page, productPath }) => {
  const path = productPath(beans);
  await page.goto(path);
  await waitForHydration(page);
  const [cheapest] = demoVariants(beans);
  await expect(page.getByTestId('product-price')).toHaveText(price(cheapest.priceCents, 'en'));
  await expect(group(page, 'size', 'en').getByRole('radio', { name: '250 g' })).toBeChecked();
  await expect(group(page, 'grind', 'en').getByRole('radio', { name: t('en')('grind.wholeBean') })).toBeChecked();

  // By keyboard: into the size group, then the arrow key moves to 1 kg.
  await group(page, 'size', 'en').getByRole('radio', { name: '250 g' }).focus();
  await page.keyboard.press('ArrowRight');
  const big = kilo(beans, 'wholeBean');
  await expect(group(page, 'size', 'en').getByRole('radio', { name: '1 kg' })).toBeChecked();
  await expect(page.getByTestId('product-price')).toHaveText(price(big.priceCents, 'en'));
  await expect(page.getByRole('main').getByTestId('unit-price').first()).toContainText(plainSpacesPattern(`1 kg · ${t('en')('product.unitPrice')}: ${price(perKilo(big.priceCents, 1000), 'en')} / kg`));
  await expect(page).toHaveURL(new RegExp(`${path}\\?size=1000&grind=wholeBean$`));

  await group(page, 'grind', 'en').getByText(t('en')('grind.espresso'), { exact: true }).click();
  const chosen = kilo(beans, 'espresso');
  await expect(page).toHaveURL(new RegExp(`size=1000&grind=espresso$`));
  await addToCart(page.getByRole('main'), productName(beans, 'en'));
  await expectCartCount(page, 1);
  await page.goto('/cart');
  const line = page.getByTestId('cart-line');
  await expect(line.getByTestId('line-variant')).toHaveText(plainSpacesPattern(`1 kg, ${t('en')('grind.espresso')}`));
  await expect(page.getByTestId('cart-total')).toHaveText(price(chosen.priceCents, 'en'));
  // Back to the coffee from the cart: the page opens on that variant.
  await line.getByRole('link', { name: productName(beans, 'en'), exact: true }).click();
  await expect(group(page, 'grind', 'en').getByRole('radio', { name: t('en')('grind.espresso') })).toBeChecked();
  await expect(group(page, 'size', 'en').getByRole('radio', { name: '1 kg' })).toBeChecked();
});

test.describe('without JavaScript, in Polish', () => {
  test.use({ javaScriptEnabled: false, language: 'pl' });

  test('the choice is a form: "Show" loads the variant’s own page, and Add to cart adds that variant', async ({ page, productPath }) => {
    await page.goto(productPath(beans));
    await group(page, 'size', 'pl').getByText('1 kg', { exact: true }).click();
    await group(page, 'grind', 'pl').getByText(t('pl')('grind.mokaPot'), { exact: true }).click();
    await page.getByRole('button', { name: t('pl')('variant.show') }).click();
    await expect(page).toHaveURL(/\?size=1000&grind=mokaPot$/);
    const chosen = kilo(beans, 'mokaPot');
    await expect(page.getByTestId('product-price')).toHaveText(price(chosen.priceCents, 'pl'));
    await addToCartButton(page.getByRole('main'), productName(beans, 'pl'), 'pl').click();
    await expect(page).toHaveURL(/\?size=1000&grind=mokaPot$/);
    await expectCartCount(page, 1, 'pl');
    await page.goto('/cart');
    await expect(page.getByTestId('cart-line').getByRole('button', { name: t('pl')('cart.removeItem', { name: lineNameOf(beans, 'pl', chosen) }) })).toBeVisible();
  });

  test('ground coffee is not sold as whole beans: that combination says so and offers nothing to add', async ({ page, productPath }) => {
    await page.goto(`${productPath(ground)}?size=250&grind=wholeBean`);
    await expect(page.getByTestId('not-offered')).toHaveText(t('pl')('variant.notOffered'));
    await expect(addToCartButton(page.getByRole('main'), productName(ground, 'pl'), 'pl')).toHaveCount(0);
    await expect(group(page, 'grind', 'pl').getByRole('radio', { name: t('pl')('grind.wholeBean') })).toHaveCount(0);
    // The canonical address stays the coffee's own.
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', new RegExp(`${productPath(ground)}$`));
  });
});

test('the product page with a chosen variant passes axe in both languages', async ({ page, productPath, expectNoSeriousA11yViolations }) => {
  for (const locale of ['en', 'pl'] as const) {
    await page.goto(`${locale === 'pl' ? '/pl' : ''}${productPath(ground)}?size=1000&grind=espresso`);
    await waitForHydration(page);
    await expectNoSeriousA11yViolations(page, { label: `product with a chosen variant (${locale})` });
  }
});
