/**
 * The owner's promotions page: in the back office's navigation, checked by axe in both languages; a sale of 15%
 * on one coffee, saved and at once on its card and page with the 30 days' lowest price (this coffee's price was
 * raised 18 days ago, so that is the lower price before the rise, and the percentage is worked out from it); an
 * overlapping sale and a percentage out of range refused with their messages and nothing saved; the start in the
 * product's price history; ended early, and the storefront back at the regular price; both in the activity log.
 *
 * In the back-office project: it changes what every visitor sees, after the storefront journeys ran; the sale
 * ends before the test does.
 */
import type { Browser, Page, TestInfo } from '@playwright/test';
import { byKey, productName } from '../fixtures/catalogue';
import { type Locale, price, t } from '../fixtures/i18n';
import { demoVariants } from '../../app/demo/products';
import { percentOff } from '../../app/demo/sale';
import { kopi, newAccount, signUp } from './accounts';
import { plainSpacesPattern } from './checkout-helpers';
import { signedCookie } from './cookies';
import { declineCookies, expect, test } from './fixtures';
import { COOKIE_BANNER_VERSION } from '../../app/lib/analytics';
import { findProductPath, productGrid, waitForHydration } from './helpers';

const en = t('en');
const COFFEE = byKey('ijen-drip-bags');
const regular = demoVariants(COFFEE)[0].priceCents;
/** Listed a euro cheaper 50 days ago and raised 18 days ago (the demo's history): the 30 days' lowest. */
const lowest = regular - 100;
const salePrice = percentOff(regular, 15);
const percent = Math.floor(((lowest - salePrice) * 1000) / lowest) / 10;

test.describe.configure({ mode: 'serial' });

async function ownerPage(browser: Browser, testInfo: TestInfo, language: Locale = 'en'): Promise<Page> {
  const baseURL = testInfo.project.use.baseURL!;
  const context = await browser.newContext({ baseURL, locale: language === 'pl' ? 'pl-PL' : 'en-GB' });
  await context.addInitScript(declineCookies, COOKIE_BANNER_VERSION);
  await context.addCookies([{ name: 'lang', value: await signedCookie('lang', language), url: baseURL }]);
  const page = await context.newPage();
  const account = newAccount(testInfo, 'owner.promotions', 'Owner');
  await signUp(page, account);
  expect(await kopi('grant-admin', '--email', account.email)).toContain('is now an admin');
  return page;
}

/** A moment `days` from now as the form's datetime-local field takes it. */
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 16);

async function fillSale(owner: Page, { percent: value, ends }: { percent: string; ends: string }) {
  await owner.goto('/admin/promotions');
  await waitForHydration(owner);
  const form = owner.getByTestId('new-sale');
  await form.getByLabel(en('admin.promotions.scopes.products')).check();
  await form.getByTestId('sale-targets').getByLabel(productName(COFFEE, 'en'), { exact: true }).check();
  await form.getByLabel(en('admin.promotions.percent'), { exact: true }).fill(value);
  await form.getByLabel(en('admin.promotions.endsAt'), { exact: true }).fill(ends);
  await form.getByLabel(en('admin.promotions.labelEn'), { exact: true }).fill('Drip week');
  await form.getByLabel(en('admin.promotions.labelPl'), { exact: true }).fill('Tydzień dripów');
}

const card = (page: Page) => productGrid(page).locator('article').filter({ has: page.getByRole('link', { name: productName(COFFEE, 'en'), exact: true }) });

for (const locale of ['en', 'pl'] as const) {
  test(`the promotions page passes axe (${locale})`, async ({ browser, expectNoSeriousA11yViolations }, testInfo) => {
    const page = await ownerPage(browser, testInfo, locale);
    await page.goto('/admin');
    await page.getByRole('navigation', { name: t(locale)('manage.backOffice') }).getByRole('link', { name: t(locale)('manage.promotions') }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t(locale)('admin.promotions.heading'));
    // The demo's running sale and its ended flash sale.
    await expect(page.getByTestId('sales-running').getByTestId('sale')).toHaveCount(1);
    await expect(page.getByTestId('sales-ended').getByTestId('sale')).toHaveCount(1);
    await waitForHydration(page);
    await expectNoSeriousA11yViolations(page, { label: `admin promotions (${locale})` });
    await page.getByTestId('new-sale').getByLabel(t(locale)('admin.promotions.scopes.variants')).check();
    await expectNoSeriousA11yViolations(page, { label: `admin promotions, variants (${locale})` });
    await page.context().close();
  });
}

test('a sale saved is on the storefront at once with its lawful reference; overlaps and bad percentages are refused; ended early, logged', async ({ browser, page }, testInfo) => {
  const owner = await ownerPage(browser, testInfo);
  await fillSale(owner, { percent: '15', ends: inDays(3) });
  await owner.getByTestId('save-sale').click();
  await expect(owner.getByTestId('promotions-saved')).toHaveText(en('admin.promotions.created'));
  const row = owner.getByTestId('sales-running').getByTestId('sale').filter({ hasText: 'Drip week' });
  await expect(row).toContainText(`Drip week (${en('admin.promotions.percentOff', { percent: 15 })})`);
  await expect(row).toContainText(productName(COFFEE, 'en'));

  // The shopper sees it at once, every figure from the history.
  await page.goto(`/categories?category=${COFFEE.category}`);
  await expect(card(page).getByTestId('percent-off')).toHaveText(`−${percent}%`);
  await expect(card(page).getByTestId('lowest-price')).toHaveText(plainSpacesPattern(en('product.lowestPrice', { price: price(lowest, 'en') })));
  const path = await findProductPath(page, productName(COFFEE, 'en'));
  await page.goto(path);
  await expect(page.getByTestId('product-price')).toHaveText(price(salePrice, 'en'));
  await expect(page.getByTestId('sale-terms')).toContainText('Drip week');

  // The same coffee cannot be in two sales at once; the server says so and saves nothing.
  await fillSale(owner, { percent: '20', ends: inDays(2) });
  await owner.getByTestId('save-sale').click();
  await expect(owner.getByTestId('promotions-error')).toHaveText(en('admin.promotions.errors.summary'));
  await expect(owner.getByText(en('admin.promotions.errors.overlap'))).toBeVisible();
  await expect(owner.getByTestId('sales-running').getByTestId('sale')).toHaveCount(2);
  // A percentage out of range, past the browser's own check: the server's message.
  await fillSale(owner, { percent: '95', ends: inDays(2) });
  await owner.getByTestId('new-sale').evaluate((form: HTMLFormElement) => (form.noValidate = true));
  await owner.getByTestId('save-sale').click();
  await expect(owner.getByText(en('admin.promotions.errors.percent'))).toBeVisible();
  await expect(owner.getByTestId('new-sale').getByLabel(en('admin.promotions.percent'), { exact: true })).toHaveAttribute('aria-invalid', 'true');

  // Its start is in the product's price history.
  await owner.goto(`/edit-product${path.replace('/product', '')}`);
  await owner.getByTestId('price-history').locator('summary').click();
  await expect(owner.getByTestId('history-entry').filter({ hasText: en('admin.promotions.history.reasons.sale-started') }).first()).toBeVisible();

  // Ended early: the storefront is back at the regular price.
  await owner.goto('/admin/promotions');
  await waitForHydration(owner);
  await owner.getByRole('button', { name: en('admin.promotions.endLabel', { name: `Drip week (${en('admin.promotions.percentOff', { percent: 15 })})` }) }).click();
  await expect(owner.getByTestId('promotions-saved')).toHaveText(en('admin.promotions.stopped'));
  await expect(owner.getByTestId('sales-ended').getByTestId('sale').filter({ hasText: 'Drip week' })).toHaveCount(1);
  await page.goto(path);
  await expect(page.getByTestId('product-price')).toHaveText(price(regular, 'en'));
  await expect(page.getByTestId('percent-off')).toHaveCount(0);

  await owner.goto('/admin/activity');
  const entries = owner.getByTestId('activity-row');
  await expect(entries.nth(0)).toContainText('Drip week');
  await expect(entries.nth(1)).toContainText('Drip week');
  await owner.context().close();
});
