/**
 * The owner ships an order: the customer sees "Shipped" and the tracking link in My Orders, then
 * "Delivered"; customers are refused on the order pages and actions; the pages pass axe in both languages.
 */
import type { Page, TestInfo } from '@playwright/test';
import { type DemoProduct, catalogue } from '../fixtures/catalogue';
import { t } from '../fixtures/i18n';
import { kopi, newAccount, signUp } from './accounts';
import { TEST_CARDS, card, customerWithCart, orderLabel, payAndFinish, polishAddress, proceedToPayment } from './checkout-helpers';
import { expect, test } from './fixtures';
import { findProductPath, switchLanguage, waitForHydration } from './helpers';

const en = t('en');

/** A customer's paid order of two bags of a demo coffee (found through the search: these journeys run after others changed the grid). */
async function paidOrder(page: Page, testInfo: TestInfo, product: DemoProduct): Promise<string> {
  const path = await findProductPath(page, product.en.name);
  await customerWithCart(page, testInfo, [[path, 2]]);
  await page.goto('/checkout');
  await waitForHydration(page);
  await proceedToPayment(page, polishAddress);
  return payAndFinish(page, 2 * product.priceCents, card(TEST_CARDS.success));
}

async function ownerPage(browser: import('@playwright/test').Browser, testInfo: TestInfo): Promise<Page> {
  const context = await browser.newContext({ extraHTTPHeaders: { 'X-Forwarded-For': `10.8.0.${testInfo.retry + 1}` } });
  const page = await context.newPage();
  const account = newAccount(testInfo, 'owner.orders', 'Owner');
  await signUp(page, account);
  await kopi('grant-admin', '--email', account.email);
  return page;
}

test('an admin ships an order with a tracking number; the customer sees it shipped, then delivered', async ({ page, browser }, testInfo) => {
  const orderId = await paidOrder(page, testInfo, catalogue[0]);
  const label = orderLabel(orderId);

  const owner = await ownerPage(browser, testInfo);
  await owner.goto('/admin/orders');
  await owner.getByLabel(en('admin.orders.search')).fill(label);
  await owner.getByRole('button', { name: en('admin.orders.searchButton') }).click();
  await expect(owner.getByTestId('admin-order-row')).toHaveCount(1);
  await owner.getByRole('link', { name: en('admin.orders.open', { label }) }).click();
  await expect(owner.getByRole('heading', { level: 1 })).toHaveText(en('orders.label', { label }));
  await expect(owner.getByTestId('admin-order-status')).toHaveText(en('orders.status.processing'));
  await expect(owner.getByRole('main')).toContainText(polishAddress.address);

  await owner.getByLabel(en('admin.orders.carrier')).selectOption('inpost');
  await owner.getByLabel(en('admin.orders.trackingNumber')).fill('620012345678901234567890');
  await owner.getByRole('button', { name: en('admin.orders.ship') }).click();
  await expect(owner.getByRole('status')).toHaveText(en('admin.orders.moved.shipped'));
  await expect(owner.getByTestId('admin-order-status')).toHaveText(en('orders.status.shipped'));
  await expect(owner.getByTestId('order-timeline')).toContainText('Shipped by owner.orders+');

  await page.goto('/profile?tab=orders');
  const mine = page.getByRole('main').getByRole('listitem').filter({ hasText: label }).first();
  await expect(mine.getByTestId('order-status')).toHaveText(en('orders.status.shipped'));
  const tracking = mine.getByTestId('order-tracking').getByRole('link');
  await expect(tracking).toHaveText('InPost 620012345678901234567890');
  await expect(tracking).toHaveAttribute('href', 'https://inpost.pl/sledzenie-przesylek?number=620012345678901234567890');

  await owner.getByRole('button', { name: en('admin.orders.deliver') }).click();
  await expect(owner.getByTestId('admin-order-status')).toHaveText(en('orders.status.delivered'));
  await page.reload();
  await expect(page.getByRole('main').getByRole('listitem').filter({ hasText: label }).first().getByTestId('order-status')).toHaveText(en('orders.status.delivered'));
  await owner.context().close();
});

test('customers are sent home from the order pages and their actions; the pages pass axe in both languages', async ({ page, browser, expectNoSeriousA11yViolations }, testInfo) => {
  const orderId = await paidOrder(page, testInfo, catalogue[1]);
  for (const path of ['/admin/orders', `/admin/orders/${orderId}`]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/$/);
  }
  const response = await page.request.post(`/admin/orders/${orderId}`, { form: { intent: 'ship', carrier: 'dhl', trackingNumber: '' }, maxRedirects: 0 });
  expect([response.status(), response.headers().location]).toEqual([302, '/']);

  const owner = await ownerPage(browser, testInfo);
  for (const locale of ['en', 'pl'] as const) {
    if (locale === 'pl') {
      await waitForHydration(owner);
      await switchLanguage(owner, 'pl');
    }
    for (const path of ['/admin/orders', `/admin/orders/${orderId}`]) {
      await owner.goto(path);
      await expect(owner.locator('html')).toHaveAttribute('lang', locale);
      await expectNoSeriousA11yViolations(owner, { label: `${path} (${locale})` });
    }
  }
  // The customer's order was not shipped by their post.
  await expect(owner.getByTestId('admin-order-status')).toHaveText(t('pl')('orders.status.processing'));
  await owner.context().close();
});
