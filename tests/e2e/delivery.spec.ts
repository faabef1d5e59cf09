/**
 * Delivery at checkout, in both languages: a locker found through InPost's Points API (its stand-in,
 * tests/doubles/inpost-points.js) with and without JavaScript, a courier abroad, a pickup at the roastery, the
 * free-delivery threshold, and what the order, the payment and My Orders then say. Prices are the default
 * rates of migration 0019: a locker 3.49 € up to 5 kg, the Polish courier 4.99 € up to 1 kg, the EU courier
 * 9.99 € up to 1 kg, free over 50 € in Poland; parcels weigh their coffee plus 150 g.
 */
import type { Page } from '@playwright/test';
import { byKey, productName } from '../fixtures/catalogue';
import { type Locale, price, t } from '../fixtures/i18n';
import {
  TEST_CARDS,
  addressField,
  card,
  continueToDelivery,
  customerWithCart,
  deliveryMethod,
  expectStep,
  fillAddress,
  payAndFinish,
  polishAddress,
  proceedButton,
} from './checkout-helpers';
import { expect, failedLoad, test } from './fixtures';
import { addToCartByRequest, waitForHydration } from './helpers';

const main = (page: Page) => page.getByRole('main');
const LOCKER = 349;
const COURIER_PL = 499;
const COURIER_EU = 999;

/** Drip bags: 12.50 € and 120 g a pack, so one pack is far from the free threshold and four reach it exactly. */
const light = byKey('toraja-drip-bags');

async function searchLockers(page: Page, query: string, locale: Locale) {
  await main(page).getByLabel(t(locale)('checkout.shipping.lockerSearch')).fill(query);
  await main(page).getByRole('button', { name: t(locale)('checkout.shipping.lockerSearchButton') }).click();
}

for (const locale of ['en', 'pl'] as const) {
  test(`a locker found by city, with its phone, paid with its delivery, and in My Orders (${locale})`, async ({ page, productPath }, testInfo) => {
    const tr = t(locale);
    const prefix = locale === 'pl' ? '/pl' : '';
    await customerWithCart(page, testInfo, [[productPath(light), 1]]);
    await page.goto(`${prefix}/checkout`);
    await waitForHydration(page);
    await continueToDelivery(page, locale);

    await deliveryMethod(page, 'locker', locale).check();
    await searchLockers(page, 'Kraków', locale);
    // A city's lockers are the city's, not "near" anything.
    await expect(main(page).getByTestId('lockers-found')).toHaveText(tr('checkout.shipping.lockersFor', { count: 5, query: 'Kraków' }));
    const lockers = main(page).getByTestId('lockers').getByRole('radio');
    await expect(lockers).toHaveCount(5);
    // The method chosen before the search is still chosen.
    await expect(deliveryMethod(page, 'locker', locale)).toBeChecked();
    await main(page).getByRole('radio', { name: /KRA08N/ }).check();
    // A locker asks for no street, city or postcode: InPost needs the name, the phone and the email.
    await expect(main(page).getByTestId('recipient-address')).toBeHidden();
    await expect(main(page).getByTestId('recipient-locker')).toHaveText(tr('checkout.shipping.recipientLocker'));
    await addressField(page, 'fullName', locale).fill(polishAddress.fullName);

    // A locker needs a Polish mobile: InPost texts the code to it.
    await proceedButton(page, locale).click();
    await expect(main(page).getByLabel(tr('checkout.shipping.phone'), { exact: true })).toHaveAccessibleDescription(new RegExp(tr('checkout.errors.phoneRequired').slice(0, 20)));
    await main(page).getByLabel(tr('checkout.shipping.phone'), { exact: true }).fill('+49 151 2345678');
    await proceedButton(page, locale).click();
    await expect(main(page).getByText(tr('checkout.errors.phonePolishMobile'))).toBeVisible();
    await main(page).getByLabel(tr('checkout.shipping.phone'), { exact: true }).fill('600 100 200');
    await proceedButton(page, locale).click();
    await expectStep(page, 'payment', locale);

    // Back to the review and on again: the way, the locker and the phone are as they were left, nothing to retype.
    await main(page).getByRole('link', { name: tr('checkout.backToReview') }).click();
    await continueToDelivery(page, locale);
    await expect(deliveryMethod(page, 'locker', locale)).toBeChecked();
    await expect(main(page).getByTestId('locker-chosen')).toContainText(tr('checkout.shipping.lockerChosen', { code: 'KRA08N' }));
    await expect(main(page).getByTestId('locker-chosen')).toContainText('Kalwaryjska 26, 30-504 Kraków');
    await expect(main(page).getByLabel(tr('checkout.shipping.phone'), { exact: true })).toHaveValue('600100200');
    await expect(addressField(page, 'fullName', locale)).toHaveValue(polishAddress.fullName);
    await proceedButton(page, locale).click();
    await expectStep(page, 'payment', locale);

    const summary = main(page).getByRole('complementary');
    await expect(summary.getByTestId('summary-goods')).toHaveText(price(light.priceCents, locale));
    await expect(summary.getByTestId('summary-delivery')).toContainText(tr('delivery.locker', { code: 'KRA08N' }));
    await expect(summary.getByTestId('summary-delivery-price')).toHaveText(price(LOCKER, locale));
    await expect(summary.getByTestId('checkout-total')).toHaveText(price(light.priceCents + LOCKER, locale));
    await payAndFinish(page, light.priceCents + LOCKER, card(TEST_CARDS.success), locale);

    await page.goto(`${prefix}/profile?tab=orders`);
    const order = main(page).getByTestId('order').first();
    await expect(order.getByTestId('order-ship-to')).toContainText(tr('delivery.locker', { code: 'KRA08N' }));
    await expect(order.getByTestId('order-ship-to')).toContainText('Kalwaryjska 26, 30-504 Kraków');
    await expect(order.getByTestId('checkout-total')).toHaveText(price(light.priceCents + LOCKER, locale));
  });
}

test('a courier abroad: the country changes the ways and their prices', async ({ page, productPath }, testInfo) => {
  const en = t('en');
  await customerWithCart(page, testInfo, [[productPath(light), 1]]);
  await page.goto('/checkout?step=delivery');
  await waitForHydration(page);
  await expect(deliveryMethod(page, 'locker')).toBeVisible();
  await main(page).getByLabel(en('delivery.country')).selectOption('DE');
  await expect(page).toHaveURL(/country=DE/);
  // Lockers and pickup are for Poland only; the EU courier remains.
  await expect(deliveryMethod(page, 'locker')).toHaveCount(0);
  await expect(deliveryMethod(page, 'pickup')).toHaveCount(0);
  await expect(main(page).getByTestId('delivery-option-price')).toHaveText([price(COURIER_EU, 'en')]);
  await deliveryMethod(page, 'courier').check();
  await fillAddress(page, { fullName: 'Jana Berg', address: 'Torstraße 1', city: 'Berlin', zipCode: '10119' });
  await proceedButton(page).click();
  await expectStep(page, 'payment');
  await expect(main(page).getByRole('complementary').getByTestId('checkout-total')).toHaveText(price(light.priceCents + COURIER_EU, 'en'));
});

test('a pickup at the roastery needs only the name, costs nothing, and says where to collect', async ({ page, productPath }, testInfo) => {
  const pl = t('pl');
  await customerWithCart(page, testInfo, [[productPath(light), 1]]);
  await page.goto('/pl/checkout?step=delivery');
  await waitForHydration(page);
  const pickup = deliveryMethod(page, 'pickup', 'pl');
  await expect(pickup).toBeVisible();
  await pickup.check();
  await expect(main(page).getByText('ul. Mokotowska 12, 00-640 Warszawa')).toBeVisible();
  await addressField(page, 'fullName', 'pl').fill('Ola Kowalska');
  await proceedButton(page, 'pl').click();
  await expectStep(page, 'payment', 'pl');
  await expect(main(page).getByRole('complementary').getByTestId('summary-delivery-price')).toHaveText(pl('delivery.free'));
  await payAndFinish(page, light.priceCents, card(TEST_CARDS.success), 'pl');
  await page.goto('/pl/profile?tab=orders');
  await expect(main(page).getByTestId('order-ship-to').first()).toHaveText(`${pl('orders.pickupBy')} ${polishAddress.fullName} · ul. Mokotowska 12, 00-640 Warszawa · pon.–pt. 9:00–17:00, sob. 10:00–14:00`);
});

for (const locale of ['en', 'pl'] as const) {
  test(`the delivery step's summary prices the way as soon as it is picked: goods, delivery and the total (${locale})`, async ({ page, productPath }, testInfo) => {
    const tr = t(locale);
    await customerWithCart(page, testInfo, [[productPath(light), 1]]);
    await page.goto(locale === 'en' ? '/checkout?step=delivery' : '/pl/checkout?step=delivery');
    await waitForHydration(page);
    const summary = main(page).getByRole('complementary');
    // Nothing picked yet: the goods, what delivery starts at, and the total before it — not "Goods" twice.
    await expect(summary.getByTestId('summary-goods')).toHaveText(price(light.priceCents, locale));
    await expect(summary).toContainText(tr('delivery.totalBeforeDelivery'));
    await expect(summary.getByTestId('checkout-total')).toHaveText(price(light.priceCents, locale));
    await deliveryMethod(page, 'courier', locale).check();
    await expect(summary.getByTestId('summary-delivery-price')).toHaveText(price(COURIER_PL, locale));
    await expect(summary.getByTestId('checkout-total')).toHaveText(price(light.priceCents + COURIER_PL, locale));
    await expect(summary).not.toContainText(tr('delivery.totalBeforeDelivery'));
    await deliveryMethod(page, 'locker', locale).check();
    await expect(summary.getByTestId('summary-delivery-price')).toHaveText(price(LOCKER, locale));
    await expect(summary.getByTestId('checkout-total')).toHaveText(price(light.priceCents + LOCKER, locale));
  });
}

test('on a phone in Polish, each way’s price stays on its name’s first line ("Gratis" never alone on a line)', async ({ page, productPath }, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await customerWithCart(page, testInfo, [[productPath(light), 1]]);
  await page.goto('/pl/checkout?step=delivery');
  const options = main(page).getByRole('radio');
  await expect(options.first()).toBeVisible();
  for (const label of await main(page).locator('label:has(input[name="methodId"])').all()) {
    const name = (await label.getByTestId('delivery-option-name').boundingBox())!;
    const cost = (await label.getByTestId('delivery-option-price').boundingBox())!;
    // One line: the price's top within the name's first line, and to its right.
    expect(Math.abs(cost.y - name.y)).toBeLessThan(8);
    expect(cost.x).toBeGreaterThan(name.x + 20);
  }
});

test('the free-delivery threshold: what is missing is said, and reached, the courier is free', async ({ page, productPath }, testInfo) => {
  const en = t('en');
  const bags = Math.ceil(5000 / light.priceCents);
  await customerWithCart(page, testInfo, [[productPath(light), bags - 1]]);
  await page.goto('/checkout?step=delivery');
  await expect(main(page).getByTestId('delivery-to-free')).toHaveText(en('delivery.toFree', { amount: price(5000 - (bags - 1) * light.priceCents, 'en') }));
  await expect(main(page).getByRole('radio', { name: new RegExp(`^${en('delivery.kinds.courier')}.*${escape(price(COURIER_PL, 'en'))}`) })).toBeVisible();

  const again = await customerWithCart(page, testInfo, [[productPath(light), bags]], { label: 'ola.free' });
  expect(again).toBeTruthy();
  await page.goto('/checkout?step=delivery');
  await expect(main(page).getByTestId('delivery-to-free')).toHaveCount(0);
  await expect(main(page).getByRole('radio', { name: new RegExp(`^${en('delivery.kinds.courier')}.*${en('delivery.free')}`) })).toBeVisible();
});

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s/g, '\\s');

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a locker found by post code (nearest first, with the distance) and paid, by plain form posts', async ({ page, consoleErrors, productPath }, testInfo) => {
    consoleErrors.allow(failedLoad(400));
    const en = t('en');
    await customerWithCart(page, testInfo, [[productPath(light), 1]]);
    await page.goto('/checkout');
    await continueToDelivery(page);
    await searchLockers(page, '31-147', 'en');
    await expect(page).toHaveURL(/lockerQuery=31-147/);
    const found = main(page).getByTestId('lockers').getByRole('listitem');
    await expect(found.first()).toContainText('KRA01M');
    await expect(found.first()).toContainText(en('checkout.shipping.away', { distance: '0 m' }));
    // The search was for a locker, so the locker is the way chosen; the phone is forgotten, and the server says so.
    await expect(deliveryMethod(page, 'locker')).toBeChecked();
    // Nearest first, each with its distance.
    await expect(main(page).getByTestId('lockers-found')).toHaveText(en('checkout.shipping.lockersFound', { count: 5, query: '31-147' }));
    await expect(found.nth(1)).toContainText(en('checkout.shipping.away', { distance: '1.6 km' }));
    await main(page).getByRole('radio', { name: /KRA01M/ }).check();
    // No street asked for a locker, without JavaScript too (CSS hides it while a locker is checked).
    await expect(main(page).getByTestId('recipient-address')).toBeHidden();
    await addressField(page, 'fullName').fill(polishAddress.fullName);
    await proceedButton(page).click();
    await expect(main(page).getByText(en('checkout.errors.phoneRequired'))).toBeVisible();
    // What was typed and chosen is still there.
    await expect(addressField(page, 'fullName')).toHaveValue(polishAddress.fullName);
    await expect(main(page).getByRole('radio', { name: /KRA01M/ })).toBeChecked();
    await main(page).getByLabel(en('checkout.shipping.phone'), { exact: true }).fill('600100200');
    await proceedButton(page).click();
    await expectStep(page, 'payment');
    await expect(main(page).getByRole('complementary').getByTestId('summary-delivery')).toContainText(en('delivery.locker', { code: 'KRA01M' }));
    await payAndFinish(page, light.priceCents + LOCKER, card(TEST_CARDS.success));
    await expect(main(page)).toContainText(productName(light, 'en'));
  });
});

test.describe('the cost known early, without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the product page and the cart quote delivery, and the cart’s country choice follows the shopper (pl)', async ({ page, productPath }) => {
    const pl = t('pl');
    await page.goto(`/pl${productPath(light)}`);
    await expect(page.getByTestId('delivery-teaser')).toContainText(`${pl('delivery.teaser', { price: price(LOCKER, 'pl') })} · ${pl('delivery.teaserFree', { threshold: price(5000, 'pl') })}`);
    await expect(page.getByTestId('delivery-teaser')).toContainText('Polska');

    await addToCartByRequest(page, productPath(light), 1);
    await page.goto('/pl/cart');
    await expect(page.getByTestId('cart-delivery-price')).toHaveText(pl('delivery.cheapest', { price: price(LOCKER, 'pl'), method: pl('delivery.kindsShort.locker') }));
    await expect(page.getByTestId('cart-to-free')).toHaveText(pl('delivery.toFree', { amount: price(5000 - light.priceCents, 'pl') }));

    await page.getByLabel(pl('delivery.country')).selectOption('DE');
    await page.getByRole('button', { name: pl('delivery.update') }).click();
    await expect(page).toHaveURL(/\/pl\/cart\?country=DE$/);
    await expect(page.getByTestId('cart-delivery-price')).toHaveText(pl('delivery.cheapest', { price: price(COURIER_EU, 'pl'), method: pl('delivery.kindsShort.courier') }));
    await expect(page.getByTestId('cart-to-free')).toHaveText(pl('delivery.toFree', { amount: price(12000 - light.priceCents, 'pl') }));

    // Remembered: the product page now quotes Germany.
    await page.goto(`/pl${productPath(light)}`);
    await expect(page.getByTestId('delivery-teaser')).toContainText(`${pl('delivery.teaser', { price: price(COURIER_EU, 'pl') })} · ${pl('delivery.teaserFree', { threshold: price(12000, 'pl') })}`);
    await expect(page.getByTestId('delivery-teaser')).toContainText('Niemcy');
  });
});
