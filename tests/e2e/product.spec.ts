import type { Page } from '@playwright/test';
import { byKey, catalogue, lineNameOf, netWeight, originLine, perKiloCents, productName, withImages } from '../fixtures/catalogue';
import { demoVariants } from '../../app/demo/products';
import { customerWithCart, plainSpacesPattern, polishAddress, proceedToPayment } from './checkout-helpers';
import { type Locale, plainSpaces, price, t } from '../fixtures/i18n';
import { expect, failedLoad, test } from './fixtures';
import { addToCartButton, addedButton, expectCartCount, findProductPath, waitForHydration } from './helpers';

const en = t('en');
const gallery = withImages(3)[0];
const galleryName = productName(gallery, 'en');

test.describe('gallery and lightbox', () => {
  test.beforeEach(async ({ page, productPath }) => {
    await page.goto(productPath(gallery));
    await waitForHydration(page);
  });

  const mainImage = (page: Page, n: number, total: number) =>
    page.getByRole('region', { name: en('product.gallery.label') }).getByRole('button', { name: en('product.gallery.open', { n, total }) });
  const thumbnail = (page: Page, n: number, total: number) => page.getByRole('link', { name: en('product.gallery.show', { n, total }) });

  test('thumbnails switch the main image in place', async ({ page }) => {
    const total = gallery.imageCount;
    await expect(thumbnail(page, 1, total)).toHaveAttribute('aria-current', 'true');
    const firstSrc = await mainImage(page, 1, total).getByRole('img').getAttribute('src');

    await thumbnail(page, 2, total).click();
    await expect(thumbnail(page, 2, total)).toHaveAttribute('aria-current', 'true');
    await expect(thumbnail(page, 1, total)).not.toHaveAttribute('aria-current', 'true');
    await expect(mainImage(page, 2, total)).toBeVisible();
    await expect(mainImage(page, 2, total).getByRole('img')).not.toHaveAttribute('src', firstSrc!);
    await expect(page, 'no navigation').not.toHaveURL(/image=/);
  });

  test('the lightbox moves with buttons and arrow keys, wraps around, keeps focus and closes on Escape', async ({ page }) => {
    const total = gallery.imageCount;
    await mainImage(page, 1, total).click();
    const dialog = page.getByRole('dialog', { name: en('product.gallery.dialog') });
    await expect(dialog).toBeVisible();
    const counter = (n: number) => dialog.getByText(en('product.gallery.counter', { n, total }), { exact: true });
    await expect(counter(1)).toBeVisible();
    await expect(dialog.getByRole('img')).toHaveAccessibleName(`${galleryName} (1/${total})`);

    await dialog.getByRole('button', { name: en('product.gallery.next') }).click();
    await expect(counter(2)).toBeVisible();
    await dialog.getByRole('button', { name: en('product.gallery.previous') }).click();
    await dialog.getByRole('button', { name: en('product.gallery.previous') }).click();
    await expect(counter(total), 'previous from the first wraps to the last').toBeVisible();
    await page.keyboard.press('ArrowRight');
    await expect(counter(1), 'next from the last wraps to the first').toBeVisible();
    await page.keyboard.press('ArrowLeft');
    await expect(counter(total)).toBeVisible();

    // The page behind a modal <dialog> is inert: Tab cycles through the dialog's controls and, like every
    // native modal, may pass through the browser's own UI (document.body is then active), never the page.
    const reached = new Set<string>();
    for (const key of ['Tab', 'Tab', 'Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
      await page.keyboard.press(key);
      const where = await dialog.evaluate((d) => {
        const active = document.activeElement;
        if (!active || active === document.body) return 'outside-page';
        return d.contains(active) ? `dialog:${active.getAttribute('aria-label')}` : `page:${active.outerHTML.slice(0, 80)}`;
      });
      expect(where, `after ${key}`).toMatch(/^(dialog:|outside-page)/);
      reached.add(where);
    }
    for (const control of ['close', 'previous', 'next']) expect(reached).toContain(`dialog:${en(`product.gallery.${control}`)}`);

    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(mainImage(page, total, total), 'the gallery follows the lightbox').toBeFocused();
  });
});

test('add to cart shows "Added" for 2 s and updates the header at once', async ({ page, productPath }) => {
  await page.clock.install();
  await page.clock.pauseAt(Date.now() + 1000);
  await page.goto(productPath(gallery));
  await waitForHydration(page);
  await expectCartCount(page, 0);

  await addToCartButton(page.getByRole('main'), galleryName).click();
  await expect(addedButton(page.getByRole('main'), galleryName)).toBeVisible();
  await expect(page.getByRole('main').getByRole('status').filter({ hasText: en('product.addedToCart') })).toBeAttached();
  await expectCartCount(page, 1);

  await page.clock.runFor(1900);
  await expect(addedButton(page.getByRole('main'), galleryName), 'still "Added" just before 2 s').toBeVisible();
  await page.clock.runFor(200);
  await expect(addToCartButton(page.getByRole('main'), galleryName)).toBeVisible();

  await addToCartButton(page.getByRole('main'), galleryName).click();
  await expectCartCount(page, 2);
});

for (const locale of ['en', 'pl'] as Locale[]) {
  test.describe(`in ${locale}`, () => {
    test.use({ language: locale });

    test('title, description, price and Product JSON-LD are localized', async ({ page }) => {
      const product = byKey('kintamani-drip-bags');
      const name = productName(product, locale);
      await page.goto(await findProductPath(page, name));
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      await expect(page).toHaveTitle(`${name} · Kopi`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
      await expect(page.getByRole('main').getByText(product[locale].description)).toBeVisible();
      await expect(page.getByTestId('product-price')).toHaveText(price(product.priceCents, locale));
      await expect(page.getByRole('navigation', { name: t(locale)('product.breadcrumb') }).getByRole('link', { name: t(locale)(`categories.${product.category}`) })).toBeVisible();

      // A ProductGroup: one Product with its Offer per pack size (schema.org's hasVariant, varying by size).
      const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}');
      expect(jsonLd).toMatchObject({ '@context': 'https://schema.org', '@type': 'ProductGroup', name, description: product[locale].description, variesBy: ['https://schema.org/size'] });
      const variants = demoVariants(product);
      expect(jsonLd.hasVariant).toHaveLength(variants.length);
      for (const [i, variant] of variants.entries()) {
        expect(jsonLd.hasVariant[i]).toMatchObject({
          '@type': 'Product',
          sku: variant.sku,
          name: plainSpaces(lineNameOf(product, locale, variant)),
          weight: { '@type': 'QuantitativeValue', value: variant.netWeightGrams, unitCode: 'GRM' },
          offers: {
            '@type': 'Offer',
            price: (variant.priceCents / 100).toFixed(2),
            priceCurrency: 'EUR',
            availability: 'https://schema.org/InStock',
            priceSpecification: { '@type': 'UnitPriceSpecification', price: (Math.round((variant.priceCents * 1000) / variant.netWeightGrams) / 100).toFixed(2), referenceQuantity: { value: 1, unitCode: 'KGM' } },
          },
        });
      }
      expect(plainSpaces(jsonLd.hasVariant[0].name)).toBe(plainSpaces(lineNameOf(product, locale)));
      expect(jsonLd).not.toHaveProperty('offers');
      await expect(page.getByRole('main').getByTestId('unit-price').first()).toContainText(plainSpacesPattern(`${price(perKiloCents(product), locale)} / kg`));
      expect(jsonLd.image).toHaveLength(product.imageCount);
      expect(jsonLd.url).toBe(page.url());
    });
  });
}

test.describe('a missing or malformed product', () => {
  for (const [what, path] of [
    ['unknown id', '/product/NoSuchProduct0000'],
    ['malformed id', '/product/not%20an%20id!'],
  ]) {
    test(`${what}: "Product not found" with status 404`, async ({ page, consoleErrors }) => {
      consoleErrors.allow(failedLoad(404));
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(en('errors.productNotFoundTitle'));
      await expect(page.getByText(en('errors.productNotFoundText'))).toBeVisible();
      await expect(page).toHaveTitle(new RegExp(en('errors.productNotFoundTitle')));
    });
  }

  test.describe('in Polish', () => {
    test.use({ language: 'pl' });
    test('the 404 is localized', async ({ page, consoleErrors }) => {
      consoleErrors.allow(failedLoad(404));
      const response = await page.goto('/product/NoSuchProduct0000');
      expect(response?.status()).toBe(404);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('pl')('errors.productNotFoundTitle'));
      await expect(page.getByText(t('pl')('errors.productNotFoundText'))).toBeVisible();
    });
  });
});

test('Polish pages name the origin and region in Polish, on the card and on the product page', async ({ page, productPath }) => {
  const java = catalogue.find((p) => p.origin === 'Java')!;
  expect(originLine(java, 'pl')).not.toBe(originLine(java, 'en'));
  await page.goto(`/pl${productPath(java)}`);
  const main = page.getByRole('main');
  await expect(main.getByText(originLine(java, 'pl'), { exact: true }).first()).toBeVisible();
  await expect(main.getByText(originLine(java, 'en'), { exact: true })).toHaveCount(0);
  await page.goto(`/pl?q=${encodeURIComponent(productName(java, 'pl'))}`);
  const card = page.getByTestId('product-grid').getByRole('listitem').first();
  await expect(card.getByText(originLine(java, 'pl'), { exact: true })).toBeVisible();
  await page.goto(productPath(java));
  await expect(main.getByText(originLine(java, 'en'), { exact: true }).first()).toBeVisible();
});

test.describe('in Polish', () => {
  test.use({ language: 'pl' });

  test('the price per kilogram stands beside every price: card, product page, cart and checkout review', async ({ page, productPath }, testInfo) => {
    const pl = t('pl');
    const product = byKey('kintamani-drip-bags');
    const perKilo = plainSpacesPattern(`${price(perKiloCents(product), 'pl')} / kg`);
    const weighed = plainSpacesPattern(`${netWeight(product)} g · ${pl('product.unitPrice')}: ${price(perKiloCents(product), 'pl')} / kg`);
    await customerWithCart(page, testInfo, [[productPath(product), 2]]);

    await page.goto(`/?q=${encodeURIComponent(productName(product, 'pl'))}`);
    const card = page.getByTestId('product-grid').getByRole('listitem').filter({ hasText: productName(product, 'pl') });
    await expect(card.getByTestId('unit-price')).toContainText(perKilo);
    await page.goto(productPath(product));
    await expect(page.getByRole('main').getByTestId('unit-price').first()).toHaveText(weighed);
    await page.goto('/cart');
    await expect(page.getByTestId('cart-line').getByTestId('unit-price')).toHaveText(weighed);
    await page.goto('/checkout');
    await expect(page.getByTestId('checkout-line').getByTestId('unit-price')).toHaveText(weighed);
    // And on the payment step, the last screen before paying.
    await proceedToPayment(page, polishAddress, 'pl');
    await expect(page.getByTestId('checkout-line').getByTestId('unit-price')).toHaveText(weighed);
  });
});
