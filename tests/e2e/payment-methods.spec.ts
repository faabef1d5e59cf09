/**
 * BLIK and Przelewy24 through the test provider (docs/decisions/0024): the payment step offers the methods of
 * the order's currency (BLIK only in złoty), the customer's preferred one first; BLIK waits for the banking app
 * on a "waiting for your bank" page that follows the payment to the success page, a declined or expired one back
 * to the payment step with the reason; Przelewy24 goes to the stand-in bank page, approved or declined; a page
 * left open changes nothing. axe on the payment step, the waiting page and the bank page.
 */
import type { Page, TestInfo } from '@playwright/test';
import { catalogue, productName, zloty } from '../fixtures/catalogue';
import { type Locale, price, t } from '../fixtures/i18n';
import { customerWithCart, expectDone, expectStep, orderCard, plainSpacesPattern, polishAddress, proceedToPayment } from './checkout-helpers';
import { expect, failedLoad, test } from './fixtures';
import { findProductPath, switchCurrency, waitForHydration } from './helpers';

const main = (page: Page) => page.getByRole('main');
const product = catalogue[2];

/** A signed-in customer with one bag in the cart, at the payment step, in `currency` (pickup: the goods alone are paid). */
async function atPayment(page: Page, testInfo: TestInfo, locale: Locale, currency: 'EUR' | 'PLN', label: string, method: 'pickup' | 'courier' = 'pickup') {
  await page.goto('/');
  const path = await findProductPath(page, productName(product, locale));
  await customerWithCart(page, testInfo, [[path, 1]], { label });
  await page.goto('/cart');
  await waitForHydration(page);
  if (currency === 'PLN') await switchCurrency(page, 'PLN');
  await page.goto('/checkout');
  await proceedToPayment(page, polishAddress, locale, { method });
  return currency === 'PLN' ? zloty(product.priceCents) : product.priceCents;
}

const method = (page: Page, kind: 'card' | 'blik' | 'przelewy24', locale: Locale) => main(page).getByRole('radio', { name: t(locale)(`checkout.methods.${kind}`), exact: true });

test.describe('in Polish, in złoty', () => {
  test.use({ language: 'pl' });

  test('BLIK 777123: waiting for the banking app, then the paid order; 111222 declined and 000000 expired go back with the reason', async ({ page, consoleErrors, expectNoSeriousA11yViolations }, testInfo) => {
    test.slow(); // a declined code, an expired one (6 s) and a confirmed one (3 s)
    consoleErrors.allow(failedLoad(400));
    const pl = t('pl');
    const amount = await atPayment(page, testInfo, 'pl', 'PLN', 'ola.blik');
    await expect(method(page, 'blik', 'pl')).toBeVisible();
    await expectNoSeriousA11yViolations(page, { label: 'payment methods (pl)' });
    await method(page, 'blik', 'pl').check();
    const code = main(page).getByLabel(pl('checkout.blik.code'));
    const pay = main(page).getByRole('button', { name: plainSpacesPattern(pl('checkout.blik.pay', { amount: price(amount, 'pl', 'PLN') })) });

    // Not six digits: refused at once, nothing started.
    await code.fill('12345');
    await pay.click();
    await expect(main(page).getByText(pl('checkout.errors.blik_format'))).toBeVisible();

    await method(page, 'blik', 'pl').check();
    await code.fill('111222');
    await pay.click();
    await expect(page.getByTestId('waiting-for-bank')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(pl('checkout.waiting.heading'));
    await expect(page).toHaveURL(/step=payment&order=[\w-]+&method=blik&failed=declined/, { timeout: 10_000 });
    await expect(main(page).getByText(pl('checkout.errors.bank_declined'))).toBeVisible();

    await code.fill('000000');
    await pay.click();
    await expect(page.getByTestId('waiting-for-bank')).toBeVisible();
    await expectNoSeriousA11yViolations(page, { label: 'waiting for the bank (pl)' });
    await expect(page).toHaveURL(/failed=expired/, { timeout: 15_000 });
    await expect(main(page).getByText(pl('checkout.errors.bank_expired'))).toBeVisible();

    await code.fill('777123');
    await pay.click();
    await expect(main(page).getByRole('status').first()).toContainText(plainSpacesPattern(pl('checkout.waiting.blik', { amount: price(amount, 'pl', 'PLN') })));
    const orderId = await expectDone(page, 'pl');
    await expect(page.getByTestId('checkout-total')).toHaveText(plainSpacesPattern(price(amount, 'pl', 'PLN')));
    await page.goto('/profile?tab=orders');
    await expect(orderCard(page, orderId, 'pl').getByText(pl('orders.paymentSuccessful'), { exact: true })).toBeVisible();
  });

  test('the profile’s preferred way to pay is chosen first; in euros BLIK is not offered', async ({ page }, testInfo) => {
    const pl = t('pl');
    // By courier: the address goes to the profile, which can then be saved with a preference.
    await atPayment(page, testInfo, 'pl', 'EUR', 'ola.prefers', 'courier');
    await expect(method(page, 'blik', 'pl')).toHaveCount(0);
    await expect(method(page, 'card', 'pl')).toBeChecked();
    await page.goto('/profile');
    await main(page).getByRole('radio', { name: pl('profile.paymentMethods.przelewy24') }).check();
    await main(page).getByRole('button', { name: pl('profile.save') }).click();
    await expect(page.getByRole('status').filter({ hasText: pl('profile.saved') })).toBeVisible();
    await page.goto('/checkout');
    await proceedToPayment(page, polishAddress, 'pl', { method: 'courier' });
    await expect(method(page, 'przelewy24', 'pl')).toBeChecked();
    await expect(main(page).getByTestId('bank-form')).toBeVisible();
    await expect(main(page).getByTestId('blik-form')).toBeHidden();
  });
});

test('Przelewy24 in euros: the bank page declines (back with the reason), then approves (paid); the bank page passes axe', async ({ page, expectNoSeriousA11yViolations }, testInfo) => {
  const en = t('en');
  const amount = await atPayment(page, testInfo, 'en', 'EUR', 'ola.p24');
  await method(page, 'przelewy24', 'en').check();
  const go = main(page).getByRole('button', { name: plainSpacesPattern(en('checkout.bank.pay', { amount: price(amount, 'en') })) });
  await go.click();
  await expect(page).toHaveURL(/\/test-bank\/tp_[\w-]+\?return=/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en('checkout.testBank.heading'));
  await expect(page.getByTestId('bank-amount')).toHaveText(plainSpacesPattern(price(amount, 'en')));
  await expectNoSeriousA11yViolations(page, { label: 'test bank page' });
  await page.getByRole('button', { name: en('checkout.testBank.decline') }).click();
  await expect(page).toHaveURL(/step=payment&order=[\w-]+&method=przelewy24&failed=declined/);
  await expect(main(page).getByText(en('checkout.errors.bank_declined'))).toBeVisible();
  await expectStep(page, 'payment');

  await method(page, 'przelewy24', 'en').check();
  await go.click();
  await expect(page).toHaveURL(/\/test-bank\//);
  const bankPage = page.url();
  await page.getByRole('button', { name: en('checkout.testBank.approve') }).click();
  await expectDone(page);
  // The bank page answers once: opened again, it is gone.
  const again = await page.request.get(bankPage);
  expect(again.status()).toBe(404);
});

test('a bank page left open changes nothing: the order stays pending and the waiting page keeps waiting', async ({ page }, testInfo) => {
  const en = t('en');
  await atPayment(page, testInfo, 'en', 'EUR', 'ola.p24.open');
  await method(page, 'przelewy24', 'en').check();
  await main(page).getByTestId('bank-form').getByRole('button').click();
  await expect(page).toHaveURL(/\/test-bank\//);
  const waiting = decodeURIComponent(new URL(page.url()).searchParams.get('return')!);
  await page.goto(waiting);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en('checkout.waiting.heading'));
  await page.waitForTimeout(2_000);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en('checkout.waiting.heading'));
  // Another person's waiting page shows nothing of the order.
  const stranger = await page.context().browser()!.newContext({ baseURL: testInfo.project.use.baseURL });
  const other = await stranger.newPage();
  const response = await other.goto(waiting);
  expect(new URL(other.url()).pathname).not.toContain('checkout?step=waiting');
  expect(response?.status()).toBeLessThan(500);
  await stranger.close();
});
