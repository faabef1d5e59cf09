/**
 * Customers own their data (docs/decisions/0029): a customer, in English and in Polish, downloads their data (the
 * file holds their order), is refused deletion while the order is on its way, deletes the account once it is
 * delivered (a missing tick and a wrong password refused first), can no longer sign in, and the owner (in the same
 * language) sees the order from "Deleted customer"; the owner finds an English customer by email, downloads their data and deletes the account for
 * them. axe on the data tab, the deletion page, the page after it and the owner's page.
 *
 * In the back-office project (it grants an admin). Fails a login on purpose twice (the wrong password, the
 * sign-in after deletion).
 */
import fs from 'node:fs/promises';
import type { Browser, Download, Page, TestInfo } from '@playwright/test';
import { catalogue, productName } from '../fixtures/catalogue';
import { type Locale, t } from '../fixtures/i18n';
import { authField, kopi, newAccount, signUp, submitButton } from './accounts';
import { checkOutByRequest, customerWithCart, orderLabel, polishAddress } from './checkout-helpers';
import { signedCookie } from './cookies';
import { declineCookies, expect, failedLoad, test } from './fixtures';
import { COOKIE_BANNER_VERSION } from '../../app/lib/analytics';
import { findProductPath, waitForHydration } from './helpers';

const en = t('en');
const pl = t('pl');

test.describe.configure({ mode: 'serial' });

async function ownerPage(browser: Browser, testInfo: TestInfo, language: Locale = 'en'): Promise<Page> {
  const baseURL = testInfo.project.use.baseURL!;
  const context = await browser.newContext({ baseURL, locale: language === 'pl' ? 'pl-PL' : 'en-GB', extraHTTPHeaders: { 'X-Forwarded-For': `10.9.0.${testInfo.retry + 1}` } });
  await context.addInitScript(declineCookies, COOKIE_BANNER_VERSION);
  await context.addCookies([{ name: 'lang', value: await signedCookie('lang', language), url: baseURL }]);
  const page = await context.newPage();
  const account = newAccount(testInfo, 'owner.privacy', 'Owner');
  await signUp(page, account);
  expect(await kopi('grant-admin', '--email', account.email)).toContain('is now an admin');
  return page;
}

async function json(download: Download): Promise<Record<string, any>> {
  return JSON.parse(await fs.readFile((await download.path())!, 'utf8'));
}

for (const language of ['en', 'pl'] as const) {
test(`a customer downloads their data, deletes the account once the order has arrived, and cannot sign in again (${language})`, async ({ page, browser, expectNoSeriousA11yViolations, consoleErrors }, testInfo) => {
  test.setTimeout(120_000);
  consoleErrors.allow(failedLoad(400));
  consoleErrors.allow(failedLoad(409));
  consoleErrors.allow(failedLoad(401));
  const baseURL = testInfo.project.use.baseURL!;
  const tr = t(language);
  const at = (target: string) => (language === 'pl' ? `/pl${target}` : target);
  await page.context().addCookies([{ name: 'lang', value: await signedCookie('lang', language), url: baseURL }]);
  const product = catalogue[language === 'pl' ? 0 : 7];
  const path = await findProductPath(page, product.en.name);
  const account = await customerWithCart(page, testInfo, [[path, 2]], { label: `ola.privacy.${language}` });
  const orderId = await checkOutByRequest(page, { locale: language, method: 'courier' });

  // What the shop keeps, counted, and the file.
  await page.goto(at('/profile?tab=data'));
  await expect(page.getByRole('heading', { level: 2, name: tr('privacy.data.title') })).toBeVisible();
  await expect(page.getByTestId('data-summary')).toContainText(tr('privacy.data.counts.orders', { count: 1 }));
  await expectNoSeriousA11yViolations(page, { label: `your data ${language}` });
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: tr('privacy.data.download') }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^kopi-data-\d{4}-\d{2}-\d{2}\.json$/);
  const data = await json(file);
  expect(data.account.email).toBe(account.email);
  expect(data.orders.map((o: { id: string }) => o.id)).toEqual([orderId]);
  expect(data.orders[0].shipTo.fullName).toBe(polishAddress.fullName);
  expect(data.summary.orders).toBe(1);

  // On its way: refused, nothing changed.
  await page.goto(at('/profile/delete'));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(tr('privacy.delete.title'));
  await expectNoSeriousA11yViolations(page, { label: `delete account ${language}` });
  await page.getByLabel(tr('privacy.delete.password')).fill(account.password);
  await page.getByLabel(tr('privacy.delete.confirm')).check();
  await page.getByRole('button', { name: tr('privacy.delete.submit') }).click();
  await expect(page.getByRole('alert')).toHaveText(tr('privacy.delete.errors.openDelivery', { label: orderLabel(orderId) }));

  // The owner ships it and marks it delivered.
  const owner = await ownerPage(browser, testInfo, language);
  await owner.goto(`/admin/orders/${orderId}`);
  await owner.getByLabel(tr('admin.orders.carrier')).selectOption('inpost');
  await owner.getByLabel(tr('admin.orders.trackingNumber')).fill('620012345678901234567899');
  await owner.getByRole('button', { name: tr('admin.orders.ship') }).click();
  await expect(owner.getByTestId('admin-order-status')).toHaveText(tr('orders.status.shipped'));
  await owner.getByRole('button', { name: tr('admin.orders.deliver') }).click();
  await expect(owner.getByTestId('admin-order-status')).toHaveText(tr('orders.status.delivered'));

  // No tick, then a wrong password: each refused with its message.
  await page.goto(at('/profile/delete'));
  await waitForHydration(page);
  await page.getByLabel(tr('privacy.delete.password')).fill(account.password);
  await page.getByRole('button', { name: tr('privacy.delete.submit') }).click();
  await expect(page.getByText(tr('privacy.delete.errors.confirm'))).toBeVisible();
  await page.getByLabel(tr('privacy.delete.password')).fill('not my password');
  await page.getByLabel(tr('privacy.delete.confirm')).check();
  await page.getByRole('button', { name: tr('privacy.delete.submit') }).click();
  await expect(page.getByText(tr('privacy.delete.errors.password'))).toBeVisible();
  await expect(page.getByLabel(tr('privacy.delete.password'))).toHaveAttribute('aria-invalid', 'true');

  await page.getByLabel(tr('privacy.delete.password')).fill(account.password);
  await page.getByLabel(tr('privacy.delete.confirm')).check();
  await page.getByRole('button', { name: tr('privacy.delete.submit') }).click();
  await expect(page.getByTestId('account-deleted')).toHaveText(tr('privacy.delete.done'));
  await expectNoSeriousA11yViolations(page, { label: `account deleted ${language}` });

  // Signed out here, and the account is gone: the same email and password no longer sign in.
  await page.goto(at('/profile'));
  await expect(page).toHaveURL(language === 'pl' ? /\/pl\/auth\?mode=login/ : /\/auth\?mode=login/);
  await waitForHydration(page);
  await authField(page, 'email', language).fill(account.email);
  await authField(page, 'password', language).fill(account.password);
  await submitButton(page, 'login', language).click();
  await expect(page.getByRole('main').getByText(tr('auth.errors.invalidCredentials'))).toBeVisible();

  // The owner still has the order, from "Deleted customer", with its lines; nobody is found under the address.
  await owner.goto(`/admin/orders/${orderId}`);
  await expect(owner.getByTestId('order-deleted-customer')).toHaveText(tr('admin.customers.deletedCustomer'));
  await expect(owner.getByRole('main')).not.toContainText(polishAddress.fullName);
  await expect(owner.getByRole('main')).toContainText(productName(product, language));
  await owner.goto(`/admin/customers?q=${encodeURIComponent(account.email)}`);
  await expect(owner.getByText(tr('admin.customers.none', { q: account.email }))).toBeVisible();
  await owner.goto('/admin/activity');
  await expect(owner.getByTestId('activity-row').first()).toContainText(tr('admin.activity.customerActor'));
  await owner.context().close();
});
}

test('the owner finds a customer by email, downloads their data and deletes the account for them', async ({ page, browser, expectNoSeriousA11yViolations }, testInfo) => {
  test.setTimeout(120_000);
  const account = newAccount(testInfo, 'jan.asks', 'Jan Nowak');
  await signUp(page, account);
  const owner = await ownerPage(browser, testInfo);
  await owner.goto('/admin/customers');
  await waitForHydration(owner);
  await owner.getByLabel(en('admin.customers.search')).fill(account.email);
  await owner.getByRole('button', { name: en('admin.customers.find') }).click();
  const match = owner.getByTestId('customer-match');
  await expect(match).toHaveCount(1);
  await expect(match).toContainText(account.email);
  await expectNoSeriousA11yViolations(owner, { label: 'customers' });

  const download = owner.waitForEvent('download');
  await match.getByRole('button', { name: en('admin.customers.download') }).click();
  const data = await json(await download);
  expect(data.account).toMatchObject({ email: account.email, name: 'Jan Nowak' });
  expect(data.account.signInMethods).toEqual([{ method: 'password' }]);

  await match.getByRole('link', { name: en('admin.customers.delete') }).click();
  await expect(owner.getByRole('heading', { name: en('admin.customers.confirmTitle', { email: account.email }) })).toBeVisible();
  await expectNoSeriousA11yViolations(owner, { label: 'customers delete' });
  await owner.getByLabel(en('admin.customers.confirmBox')).check();
  await owner.getByRole('button', { name: en('admin.customers.confirmDelete') }).click();
  await expect(owner.getByRole('status')).toHaveText(en('admin.customers.deleted'));
  await expect(owner.getByTestId('customer-match')).toHaveCount(0);

  // The customer's browser is signed out at once.
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/auth\?mode=login/);

  // Both requests are in the activity log, by the owner; the deleted customer's address is not.
  await owner.goto('/admin/activity');
  const rows = owner.getByTestId('activity-row');
  await expect(rows.nth(0)).toContainText(en('admin.activity.actions.customerDeleted', { subject: en('admin.activity.deletedCustomer') }));
  await expect(rows.nth(1)).toContainText(en('admin.activity.actions.customerExported', { subject: en('admin.activity.deletedCustomer') }));
  await expect(owner.getByRole('main')).not.toContainText(account.email);
  await owner.context().close();
});

async function refusedInView(page: Page, testInfo: TestInfo, language: 'en' | 'pl') {
  const tr = t(language);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.context().addCookies([{ name: 'lang', value: await signedCookie('lang', language), url: testInfo.project.use.baseURL! }]);
  const path = await findProductPath(page, catalogue[1].en.name);
  const account = await customerWithCart(page, testInfo, [[path, 1]], { label: `ola.pickup-delete.${language}` });
  const orderId = await checkOutByRequest(page, { locale: language, method: 'pickup' });
  await page.goto(language === 'pl' ? '/pl/profile/delete' : '/profile/delete');
  await page.getByLabel(tr('privacy.delete.password')).fill(account.password);
  await page.getByLabel(tr('privacy.delete.confirm')).check();
  await page.getByRole('button', { name: tr('privacy.delete.submit') }).click();
  const refused = page.getByRole('alert');
  await expect(refused).toHaveText(tr('privacy.delete.errors.openPickup', { label: orderLabel(orderId) }));
  await expect(refused).toBeInViewport();
}

for (const language of ['en', 'pl'] as const) {
  test(`on a phone, deleting the account with a pickup not yet collected is refused in view, naming the order and the pickup (${language})`, async ({ page, consoleErrors }, testInfo) => {
    consoleErrors.allow(failedLoad(409));
    await refusedInView(page, testInfo, language);
  });
}

test.describe('without JavaScript (or pressed before the page is interactive)', () => {
  test.use({ javaScriptEnabled: false });
  test('on a phone, the refusal is in view on the new page too (pl)', async ({ page, consoleErrors }, testInfo) => {
    consoleErrors.allow(failedLoad(409));
    await refusedInView(page, testInfo, 'pl');
  });
});
