/**
 * The demo shop's sale, as a shopper meets it (docs/decisions/0025): Mandheling is 20% off, but 20 days ago it
 * was 10% off for three days, so its card and its page show the lowest price of those 30 days and −11.1% from
 * it — never −20% — in both languages and currencies; the cart charges the sale price; the pages pass axe.
 */
import type { Page } from '@playwright/test';
import { askedCents, byKey, productName, zloty } from '../fixtures/catalogue';
import { type Locale, price, t } from '../fixtures/i18n';
import { DEMO_FLASH_PERCENT, DEMO_SALE, DEMO_SALE_LABEL, percentOff } from '../../app/demo/sale';
import { demoVariants } from '../../app/demo/products';
import { expect, test } from './fixtures';
import { addToCartButton, addedButton, expectCartCount, findProductPath, productGrid, switchCurrency, waitForHydration } from './helpers';
import { plainSpacesPattern } from './checkout-helpers';

const product = byKey(DEMO_SALE);
const regular = demoVariants(product)[0].priceCents;
/** What the page must say, worked out from the demo's history alone. */
const expected = (locale: Locale, currency: 'EUR' | 'PLN' = 'EUR') => {
  const base = currency === 'PLN' ? zloty(regular) : regular;
  const sale = askedCents(product, base);
  const lowest = percentOff(base, DEMO_FLASH_PERCENT);
  const percent = Math.floor(((lowest - sale) * 1000) / lowest) / 10;
  return {
    price: price(sale, locale, currency),
    lowest: t(locale)('product.lowestPrice', { price: price(lowest, locale, currency) }),
    percent: `−${String(percent).replace('.', locale === 'pl' ? ',' : '.')}%`,
  };
};

const card = (page: Page, locale: Locale) => productGrid(page).locator('article').filter({ has: page.getByRole('link', { name: productName(product, locale), exact: true }) });

for (const locale of ['en', 'pl'] as const) {
  test(`a sale on a card and its page shows the 30 days' lowest price and the percentage from it (${locale})`, async ({ page, expectNoSeriousA11yViolations }) => {
    const want = expected(locale);
    expect(want.percent).toBe(locale === 'en' ? '−11.1%' : '−11,1%');
    await page.goto(`${locale === 'pl' ? '/pl' : ''}/categories?category=${product.category}`);
    const shown = card(page, locale);
    await expect(shown.getByTestId('percent-off')).toHaveText(want.percent);
    await expect(shown.getByTestId('lowest-price')).toHaveText(plainSpacesPattern(want.lowest));
    await expect(shown.getByTestId('card-price')).toContainText(plainSpacesPattern(want.price));

    const path = await findProductPath(page, productName(product, locale));
    await page.goto(`${locale === 'pl' ? '/pl' : ''}${path}`);
    await waitForHydration(page);
    await expect(page.getByTestId('product-price')).toHaveText(plainSpacesPattern(want.price));
    await expect(page.getByTestId('percent-off')).toHaveText(want.percent);
    await expect(page.getByTestId('lowest-price')).toHaveText(plainSpacesPattern(want.lowest));
    await expect(page.getByTestId('sale-terms')).toContainText(DEMO_SALE_LABEL[locale]);
    await expectNoSeriousA11yViolations(page, { label: `product on sale (${locale})` });
    // Its structured data offers the sale price, valid until the sale ends.
    const offers = await page.locator('script[type="application/ld+json"]').allTextContents();
    expect(offers.join(' ')).toContain(`"price":"${(askedCents(product, regular) / 100).toFixed(2)}"`);
    expect(offers.join(' ')).toContain('"priceValidUntil"');
  });
}

test('in złoty the reduction is worked out from the złoty history, and the cart charges the sale price', async ({ page }) => {
  const path = await findProductPath(page, productName(product, 'pl'));
  await page.goto(`/pl${path}`);
  await waitForHydration(page);
  await switchCurrency(page, 'PLN');
  const want = expected('pl', 'PLN');
  await expect(page.getByTestId('product-price')).toHaveText(plainSpacesPattern(want.price));
  await expect(page.getByTestId('lowest-price')).toHaveText(plainSpacesPattern(want.lowest));
  await addToCartButton(page, productName(product, 'pl'), 'pl').first().click();
  // The server's answer (the "Added" label), not only the count the header shows at once: leaving before it
  // aborted the add under CI's load, and the cart was empty.
  await expect(addedButton(page, productName(product, 'pl'), 'pl').first()).toBeVisible();
  await expectCartCount(page, 1, 'pl');
  await page.goto('/pl/cart');
  await expect(page.getByTestId('cart-total')).toHaveText(plainSpacesPattern(want.price));
});
