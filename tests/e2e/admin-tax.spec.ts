/**
 * VAT (docs/decisions/0027): a customer paying in Polish sees the VAT in the order ("w tym VAT … (23%)") on the
 * success screen and in My Orders, and the owner on the order's page; the owner's VAT page passes axe in both
 * languages; a rate is overridden (in Polish, with a decimal comma), refused when out of range with nothing
 * changed, and put back; OSS is switched on and off, each change in the activity log; the quarter's OSS report
 * downloads as CSV; with prices that follow the buyer's VAT, a German consumer's payment step shows the same net
 * price at 7%.
 *
 * In the back-office project: it changes how orders are taxed; each test puts the settings back as they were.
 */
import type { Browser, Page, TestInfo } from '@playwright/test';
import { askedCents, byKey, catalogue } from '../fixtures/catalogue';
import { type Locale, price, t } from '../fixtures/i18n';
import { kopi, newAccount, signUp } from './accounts';
import { card, customerWithCart, deliveryMethod, expectStep, fillAddress, orderCard, orderLabel, payAndFinish, plainSpacesPattern, polishAddress, proceedButton, proceedToPayment, TEST_CARDS } from './checkout-helpers';
import { signedCookie } from './cookies';
import { declineCookies, expect, failedLoad, test } from './fixtures';
import { COOKIE_BANNER_VERSION } from '../../app/lib/analytics';
import { waitForHydration } from './helpers';

const en = t('en');
const pl = t('pl');

test.describe.configure({ mode: 'serial' });

async function ownerPage(browser: Browser, testInfo: TestInfo, language: Locale = 'en'): Promise<Page> {
  const baseURL = testInfo.project.use.baseURL!;
  const context = await browser.newContext({ baseURL, locale: language === 'pl' ? 'pl-PL' : 'en-GB' });
  await context.addInitScript(declineCookies, COOKIE_BANNER_VERSION);
  await context.addCookies([{ name: 'lang', value: await signedCookie('lang', language), url: baseURL }]);
  const page = await context.newPage();
  const account = newAccount(testInfo, 'owner.tax', 'Owner');
  await signUp(page, account);
  expect(await kopi('grant-admin', '--email', account.email)).toContain('is now an admin');
  return page;
}

/** The VAT in a gross amount at 23%, as the shop rounds it. */
const vat23 = (cents: number) => Math.round((cents * 23) / 123);

for (const locale of ['en', 'pl'] as const) {
  test(`the VAT page passes axe and is in the back office's navigation (${locale})`, async ({ browser, expectNoSeriousA11yViolations }, testInfo) => {
    const page = await ownerPage(browser, testInfo, locale);
    await page.goto('/admin');
    await page.getByRole('navigation', { name: t(locale)('manage.backOffice') }).getByRole('link', { name: t(locale)('manage.tax'), exact: true }).click();
    await expect(page).toHaveURL(/\/admin\/tax$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t(locale)('admin.tax.heading'));
    await expect(page.getByTestId('rates-DE').getByRole('textbox', { name: t(locale)('admin.tax.rateLabel', { country: locale === 'pl' ? 'Niemcy' : 'Germany', class: t(locale)('admin.tax.classes.coffee') }) })).toHaveValue('7');
    await expect(page.getByTestId('oss-figure')).toBeVisible();
    await expectNoSeriousA11yViolations(page, { label: `admin tax ${locale}` });
    // The dashboard shows the year's cross-border sales against the threshold too.
    await page.goto('/admin');
    await expect(page.getByTestId('dashboard-oss').getByRole('meter')).toBeVisible();
    await page.context().close();
  });
}

test('a customer paying in Polish sees the VAT on the success screen and in My Orders; the owner on the order page', async ({ page, browser, productPath }, testInfo) => {
  const product = catalogue[3];
  const cents = askedCents(product, product.priceCents) * 2;
  const baseURL = testInfo.project.use.baseURL!;
  await page.context().addCookies([{ name: 'lang', value: await signedCookie('lang', 'pl'), url: baseURL }]);
  await customerWithCart(page, testInfo, [[productPath(product), 2]], { label: 'ola.vat' });
  await page.goto('/pl/checkout');
  await proceedToPayment(page, polishAddress, 'pl');
  // Before paying, the payment step says what of the amount is VAT.
  const inclVat = plainSpacesPattern(pl('cart.inclVat', { amount: price(vat23(cents), 'pl'), rate: '23%' }));
  await expect(page.getByRole('main').getByTestId('summary-vat')).toHaveText(inclVat);
  const orderId = await payAndFinish(page, cents, card(TEST_CARDS.success), 'pl');
  await expect(page.getByTestId('summary-vat')).toHaveText(inclVat);
  await page.goto('/pl/profile?tab=orders');
  await expect(orderCard(page, orderId, 'pl').getByTestId('summary-vat')).toHaveText(inclVat);

  const owner = await ownerPage(browser, testInfo);
  await owner.goto(`/admin/orders/${orderId}`);
  await expect(owner.getByRole('heading', { level: 1 })).toContainText(orderLabel(orderId));
  const row = owner.getByTestId('order-vat-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(en('admin.orders.vatRow', { rate: '23%', country: 'PL' }));
  await expect(row).toContainText(plainSpacesPattern(price(vat23(cents), 'en')));
  await expect(row).toContainText(plainSpacesPattern(en('admin.orders.vatNet', { net: price(cents - vat23(cents), 'en') })));
  await owner.context().close();
});

test('the owner overrides a rate in Polish, is refused one out of range with nothing changed, and puts it back; each change logged', async ({ browser, consoleErrors }, testInfo) => {
  consoleErrors.allow(failedLoad(400));
  const page = await ownerPage(browser, testInfo, 'pl');
  const germanCoffee = () =>
    page.getByTestId('rates-DE').getByRole('textbox', { name: pl('admin.tax.rateLabel', { country: 'Niemcy', class: pl('admin.tax.classes.coffee') }) });
  const save = () => page.getByTestId('tax-rates').getByRole('button', { name: pl('admin.tax.saveRates') }).first().click();
  await page.goto('/admin/tax');
  await waitForHydration(page);

  await germanCoffee().fill('5,5');
  await save();
  await expect(page.getByTestId('tax-saved')).toHaveText(pl('admin.tax.ratesSaved', { count: 1 }));
  await expect(germanCoffee()).toHaveValue('5,5');
  await expect(page.getByTestId('rates-DE')).toContainText(pl('admin.tax.shipped', { rate: '7%' }));

  // 60% is no VAT rate: refused with the field's message, nothing saved (the page still says 5,5 after a reload).
  await germanCoffee().fill('60');
  await save();
  await expect(page.getByTestId('tax-error')).toHaveText(pl('admin.tax.errors.summary'));
  await expect(germanCoffee()).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('rates-DE')).toContainText(pl('admin.tax.errors.rate'));
  await page.goto('/admin/tax');
  await expect(germanCoffee()).toHaveValue('5,5');

  // Empty goes back to Kopi's rate.
  await waitForHydration(page);
  await germanCoffee().fill('');
  await save();
  await expect(page.getByTestId('tax-saved')).toBeVisible();
  await expect(germanCoffee()).toHaveValue('7');
  await expect(page.getByTestId('rates-DE')).not.toContainText(pl('admin.tax.shipped', { rate: '7%' }));

  await page.goto('/admin/activity');
  const entries = page.getByRole('main').getByRole('listitem').filter({ hasText: 'Niemcy, Kawa' });
  await expect(entries.filter({ hasText: '7% → 5,5%' })).toHaveCount(1);
  await expect(entries.filter({ hasText: '5,5% → 7%' })).toHaveCount(1);
  await page.context().close();
});

test('OSS on and off, logged; the quarter’s OSS report downloads as CSV', async ({ browser }, testInfo) => {
  const page = await ownerPage(browser, testInfo);
  await page.goto('/admin/tax');
  await waitForHydration(page);
  const registered = page.getByTestId('oss-registered');
  await expect(registered).not.toBeChecked();
  await registered.check();
  await page.getByTestId('oss').getByRole('button', { name: en('admin.tax.saveOss') }).click();
  await expect(page.getByTestId('tax-saved')).toHaveText(en('admin.tax.ossSaved'));
  await expect(registered).toBeChecked();
  await registered.uncheck();
  // The first save's message is still shown: wait for the second save's own answer before reloading.
  const saved = page.waitForResponse((response) => response.request().method() === 'POST' && new URL(response.url()).pathname.startsWith('/admin/tax'));
  await page.getByTestId('oss').getByRole('button', { name: en('admin.tax.saveOss') }).click();
  expect((await saved).status()).toBe(200);
  await expect(page.getByTestId('tax-saved')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('oss-registered')).not.toBeChecked();

  const download = page.waitForEvent('download');
  await page.getByTestId('oss-report').getByRole('button', { name: en('admin.tax.download') }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^kopi-oss-\d{4}-Q[1-4]\.csv$/);
  const csv = await (await file.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString('utf8'));
  expect(csv.split('\r\n')[0]).toBe('\uFEFFPeriod,Type,Country,VAT rate (%),Currency,Net,VAT,Orders');

  await page.goto('/admin/activity');
  await expect(page.getByRole('main')).toContainText(en('admin.activity.tax.ossOn'));
  await expect(page.getByRole('main')).toContainText(en('admin.activity.tax.ossOff'));
  await page.context().close();
});

test('prices that follow the buyer’s VAT: the owner chooses them under OSS; a German consumer sees the same net price with German VAT before paying', async ({ browser, page, productPath, expectNoSeriousA11yViolations }, testInfo) => {
  const owner = await ownerPage(browser, testInfo);
  const saveOss = async (registered: boolean, prices: 'pricesFollow' | 'pricesSame') => {
    await owner.goto('/admin/tax');
    await waitForHydration(owner);
    await owner.getByTestId('oss-registered').setChecked(registered);
    await owner.getByTestId('oss-prices').getByRole('radio', { name: en(`admin.tax.${prices}`) }).check();
    await owner.getByTestId('oss').getByRole('button', { name: en('admin.tax.saveOss') }).click();
    await expect(owner.getByTestId('tax-saved')).toHaveText(en('admin.tax.ossSaved'));
  };
  await saveOss(true, 'pricesFollow');
  try {
    await expect(owner.getByTestId('oss-prices').getByRole('radio', { name: en('admin.tax.pricesFollow') })).toBeChecked();
    await expectNoSeriousA11yViolations(owner, { label: 'VAT page with prices that follow the rate' });
    // Drip bags: 12.50 € with Polish VAT (23%) are 10.16 € net, so 10.87 € with German VAT (7%); the EU courier 9.99 €.
    const dripBags = byKey('toraja-drip-bags');
    await customerWithCart(page, testInfo, [[productPath(dripBags), 1]], { label: 'ola.follow' });
    await page.goto('/checkout?step=delivery');
    await waitForHydration(page);
    await page.getByRole('main').getByLabel(en('delivery.country')).selectOption('DE');
    await expect(page).toHaveURL(/country=DE/);
    // The delivery step already shows the goods at German VAT, and says why.
    const german = Math.round((dripBags.priceCents * 107) / 123);
    const stepSummary = page.getByRole('main').getByRole('complementary');
    await expect(stepSummary.getByTestId('prices-in-country')).toHaveText(en('checkout.pricesInCountry', { country: 'Germany' }));
    await expect(stepSummary).toContainText(price(german, 'en'));
    await deliveryMethod(page, 'courier').check();
    await fillAddress(page, { fullName: 'Jana Berg', address: 'Torstraße 1', city: 'Berlin', zipCode: '10119' });
    await proceedButton(page).click();
    await expectStep(page, 'payment');
    const summary = page.getByRole('main').getByRole('complementary');
    await expect(summary.getByTestId('checkout-total')).toHaveText(price(german + 999, 'en'));
    await expect(summary.getByTestId('summary-vat')).toContainText('(7%)');
    await expect(summary.getByTestId('prices-in-country')).toHaveText(en('checkout.pricesInCountry', { country: 'Germany' }));
    await owner.goto('/admin/activity');
    await expect(owner.getByRole('main')).toContainText(en('admin.activity.tax.pricesFollow'));
  } finally {
    await saveOss(false, 'pricesSame');
    await owner.context().close();
  }
});
