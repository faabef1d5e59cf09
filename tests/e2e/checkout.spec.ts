/**
 * The checkout with the built-in test provider, without reading mail (that is checkout-mail.spec.ts): who may
 * enter it, Review Order and its address, the card messages of the Payment step, the cart after a decline,
 * the provider-return page, and the whole purchase without JavaScript. Every test signs up its own customer.
 */
import type { Page } from '@playwright/test';
import { catalogue, productName } from '../fixtures/catalogue';
import { price, t } from '../fixtures/i18n';
import { fillLogIn, newAccount, signUp, submitButton } from './accounts';
import {
  TEST_CARDS,
  addressField,
  continueToDelivery,
  deliveryMethod,
  card,
  cardField,
  customerWithCart,
  expectDone,
  expectOrderLines,
  expectStep,
  fillAddress,
  fillCard,
  orderLabel,
  pastExpiry,
  payAndFinish,
  payButton,
  paymentAlert,
  plainSpacesPattern,
  polishAddress,
  proceedButton,
  proceedToPayment,
} from './checkout-helpers';
import { expect, failedLoad, test } from './fixtures';
import { addToCartByRequest, expectCartCount, waitForHydration } from './helpers';

const en = t('en');
const main = (page: Page) => page.getByRole('main');

test('a guest opening /checkout logs in and comes back to it, with the cart they filled as a guest', async ({ page, context, productPath }, testInfo) => {
  const product = catalogue[3];
  const account = newAccount(testInfo, 'ola.guest');
  await signUp(page, account);
  await context.clearCookies();
  await addToCartByRequest(page, productPath(product), 2);

  await page.goto('/checkout');
  await expect(page).toHaveURL(/\/auth\?mode=login&redirectTo=%2Fcheckout$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en('auth.titles.login'));
  await waitForHydration(page);
  await fillLogIn(page, account);
  await submitButton(page, 'login').click();

  await expect(page).toHaveURL(/\/checkout$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en('checkout.title'));
  await expectStep(page, 'review');
  await expectOrderLines(main(page), [{ product, quantity: 2 }]);
  await expectCartCount(page, 2);
});

test('a customer with an empty cart is sent from /checkout to the cart', async ({ page }, testInfo) => {
  await customerWithCart(page, testInfo, []);
  await page.goto('/checkout');
  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en('cart.empty.title'));
});

test('Review Order, then Delivery: the way and the address are required, and what is given is saved to the profile', async ({ page, productPath }, testInfo) => {
  const [first, second] = [catalogue[0], catalogue[5]];
  await customerWithCart(page, testInfo, [
    [productPath(first), 1],
    [productPath(second), 3],
  ]);
  await page.goto('/cart');
  await main(page).getByRole('link', { name: en('cart.checkout') }).click();
  await expect(page).toHaveURL(/\/checkout$/);
  await expectStep(page, 'review');
  await expect(main(page).getByRole('heading', { name: en('checkout.review.heading'), level: 2 })).toBeVisible();
  await expectOrderLines(main(page), [
    { product: first, quantity: 1 },
    { product: second, quantity: 3 },
  ]);
  await expect(main(page).getByRole('link', { name: en('checkout.backToCart') })).toHaveAttribute('href', '/cart');
  // The delivery is not chosen yet, but what it starts at is said.
  await expect(main(page).getByTestId('summary-delivery')).toContainText(en('delivery.chosenLater'));

  await waitForHydration(page);
  await continueToDelivery(page);
  await expect(page).toHaveURL(/\/checkout\?step=delivery$/);
  // Nothing chosen, nothing typed: each field says what is missing, and the step does not change.
  await proceedButton(page).click();
  await expect(main(page).getByText(en('checkout.errors.methodRequired'))).toBeVisible();
  await deliveryMethod(page, 'courier').check();
  await proceedButton(page).click();
  for (const [key, error] of [
    ['fullName', 'fullNameRequired'],
    ['address', 'addressRequired'],
    ['city', 'cityRequired'],
    ['zipCode', 'zipCodeRequired'],
  ] as const) {
    await expect(addressField(page, key)).toHaveAttribute('aria-invalid', 'true');
    await expect(addressField(page, key)).toHaveAccessibleDescription(en(`checkout.errors.${error}`));
  }
  await expectStep(page, 'delivery');

  await fillAddress(page, { ...polishAddress, zipCode: '   ' });
  await proceedButton(page).click();
  await expect(addressField(page, 'zipCode'), 'blank is not an answer').toHaveAccessibleDescription(en('checkout.errors.zipCodeRequired'));
  await expect(addressField(page, 'fullName')).not.toHaveAttribute('aria-invalid', 'true');

  // The goods come to more than the free-delivery threshold: the courier costs nothing.
  const total = first.priceCents + 3 * second.priceCents;
  expect(total).toBeGreaterThanOrEqual(5000);
  await expect(main(page).getByRole('radio', { name: new RegExp(`^${en('delivery.kinds.courier')}.*${en('delivery.free')}`) })).toBeVisible();
  await proceedToPayment(page, polishAddress, 'en', { method: 'courier' });
  await expect(main(page).getByRole('heading', { name: en('checkout.payment.heading'), level: 2 })).toBeVisible();
  await expect(main(page).getByText(en('checkout.test.notice'))).toBeVisible();
  await expectOrderLines(main(page).getByRole('complementary'), [
    { product: first, quantity: 1 },
    { product: second, quantity: 3 },
  ]);
  await expect(main(page).getByTestId('summary-delivery-price')).toHaveText(en('delivery.free'));
  await expect(payButton(page, total)).toBeEnabled();

  // Back: the address is now the profile's, filled in.
  await main(page).getByRole('link', { name: en('checkout.backToReview') }).click();
  await expectStep(page, 'review');
  await continueToDelivery(page);
  await expect(addressField(page, 'fullName')).toHaveValue(polishAddress.fullName);
  await expect(addressField(page, 'zipCode')).toHaveValue(polishAddress.zipCode);

  await page.goto('/profile');
  const shipping = main(page).getByRole('group', { name: en('profile.sections.shipping') });
  await expect(shipping.getByLabel(en('profile.fields.address'), { exact: true })).toHaveValue(polishAddress.address);
  await expect(shipping.getByLabel(en('profile.fields.city'), { exact: true })).toHaveValue(polishAddress.city);
});

test('on a phone a declined card’s message is brought into view, clear of the sticky header, and focused', async ({ page, consoleErrors, productPath }, testInfo) => {
  consoleErrors.allow(failedLoad(402));
  await page.setViewportSize({ width: 390, height: 664 });
  const product = catalogue[1];
  await customerWithCart(page, testInfo, [[productPath(product), 1]]);
  await page.goto('/pl/checkout');
  await waitForHydration(page);
  await proceedToPayment(page, polishAddress, 'pl');
  for (let attempt = 0; attempt < 2; attempt++) {
    await fillCard(page, card(TEST_CARDS.declined), 'pl');
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await payButton(page, product.priceCents, 'pl').click();
    const message = paymentAlert(page).getByText(t('pl')('checkout.errors.card_declined'));
    await expect(message).toBeFocused();
    await expect(message).toBeInViewport({ ratio: 1 });
    await expect(async () => {
      const header = (await page.getByRole('banner').boundingBox())!;
      const box = (await message.boundingBox())!;
      expect(box.y, 'below the sticky header').toBeGreaterThanOrEqual(header.y + header.height);
    }).toPass();
  }
});

test('declined, insufficient funds, a bad number, a past expiry and a bad CVC say so; the cart stays, and 4242 then pays', async ({ page, consoleErrors, productPath }, testInfo) => {
  test.setTimeout(120_000); // six payments in one journey
  consoleErrors.allow(failedLoad(402)); // a refused card is answered with 402 Payment Required
  const product = catalogue[1];
  await customerWithCart(page, testInfo, [[productPath(product), 2]]);
  const total = 2 * product.priceCents;
  await page.goto('/checkout');
  await waitForHydration(page);
  await expectCartCount(page, 2);
  await proceedToPayment(page, polishAddress);

  const refusals = [
    [card(TEST_CARDS.declined), 'card_declined', null],
    [card(TEST_CARDS.insufficientFunds), 'insufficient_funds', null],
    [card(TEST_CARDS.invalidNumber), 'invalid_number', 'number'],
    [card(TEST_CARDS.success, { expiry: pastExpiry() }), 'invalid_expiry', 'expiry'],
    [card(TEST_CARDS.success, { cvc: '12' }), 'invalid_cvc', 'cvc'],
  ] as const;
  for (const [refused, code, field] of refusals) {
    await fillCard(page, refused);
    await payButton(page, total).click();
    await expect(paymentAlert(page), code).toHaveText(en(`checkout.errors.${code}`));
    if (field) await expect(cardField(page, field)).toHaveAttribute('aria-invalid', 'true');
    await expectStep(page, 'payment');
    await expect(page).toHaveURL(/\/checkout\?step=delivery$/);
    await expectCartCount(page, 2);
  }

  // The cart is as it was, on its own page too.
  await page.goto('/cart');
  await expect(page.getByTestId('cart-line')).toHaveCount(1);
  await expect(page.getByTestId('cart-total')).toHaveText(price(total, 'en'));

  await page.goto('/checkout');
  await waitForHydration(page);
  await proceedToPayment(page, polishAddress);
  const orderId = await payAndFinish(page, total, card(TEST_CARDS.success));
  await expect(page.getByTestId('order-id')).toHaveText(en('checkout.done.orderId', { label: orderLabel(orderId) }));
  await expectCartCount(page, 0);

  // One order, paid: the declines reused it rather than leaving others behind.
  await main(page).getByRole('link', { name: en('checkout.viewInProfile'), exact: true }).click();
  await expect(main(page).getByTestId('order')).toHaveCount(1);
  await expect(main(page).getByTestId('order')).toContainText(en('orders.paymentSuccessful'));
});

test('a provider return with only a session id shows its first 8 characters as the reference', async ({ page }) => {
  await page.goto('/success?session_id=cs_test_abcdefghijkl');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en('checkout.success.title'));
  await expect(page.getByText(en('checkout.success.text'))).toBeVisible();
  await expect(page.getByTestId('order-reference')).toHaveText(en('checkout.success.reference', { ref: 'cs_test_' }));
  await expect(main(page).getByRole('link', { name: en('checkout.continueShopping'), exact: true })).toHaveAttribute('href', '/');
  await expect(main(page).getByRole('link', { name: en('checkout.viewProfile'), exact: true })).toHaveAttribute('href', '/profile?tab=orders');
  await main(page).getByRole('link', { name: en('checkout.continueShopping'), exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('the provider-return page shows the customer their paid order', async ({ page, productPath }, testInfo) => {
  const product = catalogue[4];
  await customerWithCart(page, testInfo, [[productPath(product), 1]]);
  await page.goto('/checkout');
  await waitForHydration(page);
  await proceedToPayment(page, polishAddress);
  // The card fields format themselves as a numeric keypad types: the number in fours, 1230 as 12/30.
  await cardField(page, 'number').pressSequentially('4242424242424242');
  await expect(cardField(page, 'number')).toHaveValue('4242 4242 4242 4242');
  await cardField(page, 'expiry').pressSequentially('1230');
  await expect(cardField(page, 'expiry')).toHaveValue('12/30');
  await cardField(page, 'cvc').pressSequentially('123');
  await payButton(page, product.priceCents).click();
  const orderId = await expectDone(page);
  // One design for both: the order's label with its lines, never the database id.
  const confirmation = async () => {
    const section = main(page).locator('section[aria-labelledby="confirmation-title"]');
    await expectOrderLines(section, [{ product, quantity: 1 }]);
    await expect(section).toContainText(en('checkout.order', { label: orderLabel(orderId) }));
    await expect(main(page)).not.toContainText(orderId);
  };
  await confirmation();

  await page.goto(`/success?order=${orderId}`);
  await expect(page.getByTestId('order-reference')).toHaveText(en('checkout.success.order', { label: orderLabel(orderId) }));
  await confirmation();
  await expect(main(page).getByText(plainSpacesPattern(`${en('checkout.success.paid')} · ${price(product.priceCents, 'en')}`))).toBeVisible();
  await expect(main(page).getByRole('link', { name: en('checkout.viewProfile'), exact: true })).toHaveAttribute('href', '/profile?tab=orders');

  // Somebody else's order is not shown, only the generic thanks.
  await page.context().clearCookies();
  await page.goto(`/success?order=${orderId}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en('checkout.success.title'));
  await expect(page.getByTestId('order-reference')).toHaveCount(0);
  await expect(page.getByTestId('checkout-line')).toHaveCount(0);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('review, a declined card, then a payment: plain form posts all the way to My Orders', async ({ page, consoleErrors, productPath }, testInfo) => {
    consoleErrors.allow(failedLoad(402));
    consoleErrors.allow(failedLoad(400));
    const [first, second] = [catalogue[2], catalogue[6]];
    await customerWithCart(page, testInfo, [
      [productPath(first), 2],
      [productPath(second), 1],
    ]);
    const total = 2 * first.priceCents + second.priceCents;
    await page.goto('/cart');
    await main(page).getByRole('link', { name: en('cart.checkout') }).click();
    await expectStep(page, 'review');

    await continueToDelivery(page);
    await deliveryMethod(page, 'courier').check();
    await proceedButton(page).click();
    await expect(addressField(page, 'city'), 'checked on the server').toHaveAccessibleDescription(en('checkout.errors.cityRequired'));
    await proceedToPayment(page, polishAddress);
    await expectOrderLines(main(page).getByRole('complementary'), [
      { product: first, quantity: 2 },
      { product: second, quantity: 1 },
    ]);

    await fillCard(page, card(TEST_CARDS.declined));
    await payButton(page, total).click();
    await expect(paymentAlert(page)).toHaveText(en('checkout.errors.card_declined'));
    await expectCartCount(page, 3);

    const orderId = await payAndFinish(page, total, card(TEST_CARDS.success));
    await expect(page.getByTestId('order-id')).toHaveText(en('checkout.done.orderId', { label: orderLabel(orderId) }));
    await expectCartCount(page, 0);
    await main(page).getByRole('link', { name: en('checkout.viewInProfile'), exact: true }).click();
    await expect(page).toHaveURL(/\/profile\?tab=orders$/);
    await expect(main(page).getByTestId('order')).toHaveCount(1);
  });

  test('paying twice for one order (a second tab, a resent form) charges once and lands both on the success screen', async ({ page, productPath }, testInfo) => {
    const product = catalogue[7];
    await customerWithCart(page, testInfo, [[productPath(product), 1]]);
    await page.goto('/checkout');
    await proceedToPayment(page, polishAddress);
    const orderId = await main(page).locator('input[name="orderId"]').first().inputValue();
    const origin = new URL(page.url()).origin;
    const pay = () =>
      page.request.post('/checkout', {
        form: { intent: 'pay', orderId, cardNumber: TEST_CARDS.success, cardExpiry: card('').expiry, cardCvc: '123' },
        headers: { Origin: origin },
        maxRedirects: 0,
      });
    const answers = await Promise.all([pay(), pay()]);
    for (const answer of answers) {
      expect(answer.status()).toBe(302);
      expect(answer.headers().location).toBe(`/checkout?step=done&order=${orderId}`);
    }
    await page.goto(`/checkout?step=done&order=${orderId}`);
    await expectDone(page);
    await page.goto('/profile?tab=orders');
    await expect(main(page).getByTestId('order')).toHaveCount(1);
    await expectCartCount(page, 0);
  });
});

test('the success screen of somebody else’s order goes back to the checkout', async ({ page, productPath }, testInfo) => {
  const product = catalogue[8];
  await customerWithCart(page, testInfo, [[productPath(product), 1]]);
  await page.goto('/checkout');
  await waitForHydration(page);
  await proceedToPayment(page, polishAddress);
  const orderId = await payAndFinish(page, product.priceCents, card(TEST_CARDS.success));

  await page.context().clearCookies();
  await customerWithCart(page, testInfo, [[productPath(product), 1]], { label: 'ola.other' });
  await page.goto(`/checkout?step=done&order=${orderId}`);
  await expect(page).toHaveURL(/\/checkout$/);
  await expectStep(page, 'review');
  await expect(main(page).getByText(productName(product, 'en'))).toBeVisible();
});

test('the success screen of an order not yet paid does not say it was placed', async ({ page, productPath }, testInfo) => {
  const product = catalogue[9];
  await customerWithCart(page, testInfo, [[productPath(product), 1]]);
  await page.goto('/checkout');
  await waitForHydration(page);
  await proceedToPayment(page, polishAddress);
  const orderId = await main(page).locator('input[name="orderId"]').first().inputValue();

  await page.goto(`/checkout?step=done&order=${orderId}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en('checkout.title'));
  await expect(main(page).getByText(en('checkout.done.heading'))).toHaveCount(0);
});

for (const language of ['en', 'pl'] as const) {
  test(`the Payment step says how long the coffee is held; a fourth checkout from one address is told why it is not, and still pays (${language})`, async ({ page, productPath }, testInfo) => {
    const tr = t(language);
    const note = main(page).getByTestId('hold-note');
    const checkout = language === 'en' ? '/checkout' : '/pl/checkout';
    // Every customer of this journey comes from its one address (X-Forwarded-For, as behind the shop's proxy).
    for (let i = 0; i < 3; i++) {
      await customerWithCart(page, testInfo, [[productPath(catalogue[0]), 1]], { label: `ola.hold${i}-${language}` });
      await page.goto(checkout);
      await proceedToPayment(page, polishAddress, language);
      await expect(note).toHaveText(tr('checkout.payment.held', { count: 15 }));
    }
    await customerWithCart(page, testInfo, [[productPath(catalogue[0]), 1]], { label: `ola.hold3-${language}` });
    await page.goto(checkout);
    await proceedToPayment(page, polishAddress, language);
    await expect(note).toHaveText(tr('checkout.payment.notHeld.client'));
    await payAndFinish(page, catalogue[0].priceCents, card(TEST_CARDS.success), language);
  });
}
