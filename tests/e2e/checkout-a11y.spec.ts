/**
 * axe (WCAG 2.1 A and AA) on the checkout in both languages: Review Order, Delivery (lockers found, the address errors), Payment
 * (with a declined card's message), the success screen, and the provider-return page with an order and with
 * only a session id. One purchase per language, by a customer of its own.
 */
import type { Page } from '@playwright/test';
import { catalogue } from '../fixtures/catalogue';
import { type Locale, t } from '../fixtures/i18n';
import {
  TEST_CARDS,
  addressField,
  card,
  continueToDelivery,
  customerWithCart,
  deliveryMethod,
  expectDone,
  expectStep,
  fillCard,
  payButton,
  paymentAlert,
  polishAddress,
  proceedButton,
  proceedToPayment,
} from './checkout-helpers';
import { expect, failedLoad, test } from './fixtures';
import { waitForHydration } from './helpers';

// Motion off: nothing fades while axe measures contrast.
test.use({ reducedMotion: 'reduce' });

for (const locale of ['en', 'pl'] as Locale[]) {
  test.describe(`in ${locale}`, () => {
    test.use({ language: locale });

    test('checkout steps, success screen and provider-return page', async ({ page, consoleErrors, productPath, expectNoSeriousA11yViolations }, testInfo) => {
      test.slow(); // seven axe scans along a whole checkout: about 30 s on 2 cores
      consoleErrors.allow(failedLoad(402));
      const tr = t(locale);
      const [first, second] = [catalogue[0], catalogue[1]];
      await customerWithCart(page, testInfo, [
        [productPath(first), 2],
        [productPath(second), 1],
      ]);
      const total = 2 * first.priceCents + second.priceCents;
      const scan = async (name: string) => {
        await expect(page.locator('html')).toHaveAttribute('lang', locale);
        await waitForHydration(page);
        await expectNoSeriousA11yViolations(page, { label: `${name} (${locale})` });
      };
      const step = (name: string, body: (page: Page) => Promise<void>) => test.step(name, () => body(page));

      await step('review', async () => {
        await page.goto('/checkout');
        await expectStep(page, 'review', locale);
        await scan('checkout review');
      });
      await step('delivery with a locker search and the address errors', async () => {
        await continueToDelivery(page, locale);
        await scan('checkout delivery');
        await deliveryMethod(page, 'locker', locale).check();
        await page.getByLabel(tr('checkout.shipping.lockerSearch')).fill('Kraków');
        await page.getByRole('button', { name: tr('checkout.shipping.lockerSearchButton') }).click();
        await expect(page.getByTestId('lockers').getByRole('radio')).toHaveCount(5);
        await proceedButton(page, locale).click();
        await expect(addressField(page, 'fullName', locale)).toHaveAttribute('aria-invalid', 'true');
        await scan('checkout delivery with errors');
      });
      await step('payment', async () => {
        await proceedToPayment(page, polishAddress, locale);
        await scan('checkout payment');
      });
      await step('payment with a declined card', async () => {
        await fillCard(page, card(TEST_CARDS.declined), locale);
        await payButton(page, total, locale).click();
        await expect(paymentAlert(page)).toHaveText(tr('checkout.errors.card_declined'));
        await scan('checkout payment, declined');
      });
      let orderId = '';
      await step('success screen', async () => {
        await fillCard(page, card(TEST_CARDS.success), locale);
        await payButton(page, total, locale).click();
        orderId = await expectDone(page, locale);
        await scan('checkout success screen');
      });
      await step('provider-return page with the order', async () => {
        await page.goto(`/success?order=${orderId}`);
        await expect(page.getByTestId('checkout-line')).toHaveCount(2);
        await scan('success page with an order');
      });
      await step('provider-return page with a session id', async () => {
        await page.goto('/success?session_id=cs_test_abcdefghijkl');
        await expect(page.getByTestId('order-reference')).toBeVisible();
        await scan('success page with a reference');
      });
    });
  });
}
