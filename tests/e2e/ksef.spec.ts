/**
 * Invoices the shop sends to KSeF itself (docs/decisions/0034), on a shop started with KSEF_SENDER=kopi against
 * KSeF's stand-in (tests/doubles/ksef.js, beside the shop: tests/setup/ports.js): a café asks for an invoice at
 * checkout in Polish and pays; My Orders says it is being registered until KSeF has numbered it, then offers the
 * PDF, which names the KSeF number under a QR code that decodes to KOD I; the owner sees it accepted on the
 * invoices page and downloads its UPO. A refused invoice is corrected and sent again under its number; with KSeF
 * down the invoice waits, said so, and goes when KSeF is back. axe on the invoices page in both languages.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Download, Page, TestInfo } from '@playwright/test';
import { catalogue } from '../fixtures/catalogue';
import { type Locale, t } from '../fixtures/i18n';
import { qrCodeOnPdf } from '../fixtures/qr';
import { e2ePorts, portOf } from '../setup/ports.js';
import { kopi, newAccount, signUp } from './accounts';
import { checkOutByRequest, continueToDelivery, customerWithCart, deliveryMethod, expectStep, fillAddress, orderCard, payAndFinish, polishAddress, proceedButton, card, TEST_CARDS } from './checkout-helpers';
import { signedCookie } from './cookies';
import { declineCookies, expect, test } from './fixtures';
import { COOKIE_BANNER_VERSION } from '../../app/lib/analytics';
import { waitForHydration } from './helpers';
import { askedCents } from '../fixtures/catalogue';

const en = t('en');
const pl = t('pl');
const VENDOR = path.resolve('vendor/ksef');

test.describe.configure({ mode: 'serial' });

const standIn = (testInfo: TestInfo) => `http://127.0.0.1:${e2ePorts(portOf(testInfo.project.use.baseURL!)).ksef}`;
const control = (testInfo: TestInfo, route: string, body: unknown = {}) => fetch(`${standIn(testInfo)}${route}`, { method: 'POST', body: JSON.stringify(body) });

async function ownerPage(browser: Browser, testInfo: TestInfo, language: Locale): Promise<Page> {
  const baseURL = testInfo.project.use.baseURL!;
  const context = await browser.newContext({ baseURL, locale: language === 'pl' ? 'pl-PL' : 'en-GB' });
  await context.addInitScript(declineCookies, COOKIE_BANNER_VERSION);
  await context.addCookies([{ name: 'lang', value: await signedCookie('lang', language), url: baseURL }]);
  const page = await context.newPage();
  const account = newAccount(testInfo, 'owner.ksef', 'Owner');
  await signUp(page, account);
  expect(await kopi('grant-admin', '--email', account.email)).toContain('is now an admin');
  return page;
}

const row = (page: Page, number: string) => page.getByTestId('invoice-row').filter({ hasText: number });
/** The invoices page, asked again until the invoice stands as `standing` (the worker sends every few seconds). */
async function waitForStanding(owner: Page, number: string, standing: string, tr = en) {
  await expect(async () => {
    await owner.goto('/admin/invoices');
    await expect(row(owner, number).getByTestId('ksef-status')).toHaveText(tr(`admin.ksef.standing.${standing}`), { timeout: 1_000 });
  }).toPass({ timeout: 30_000, intervals: [500, 1_000, 2_000] });
}
const saved = async (download: Download) => readFileSync((await download.path())!);

test('a café asks for an invoice at checkout in Polish: KSeF numbers it, the PDF carries the number under its QR code, the owner keeps the UPO', async ({ page, browser, productPath, expectNoSeriousA11yViolations }, testInfo) => {
  const product = catalogue[2];
  const cents = askedCents(product, product.priceCents);
  await page.context().addCookies([{ name: 'lang', value: await signedCookie('lang', 'pl'), url: testInfo.project.use.baseURL! }]);
  await customerWithCart(page, testInfo, [[productPath(product), 1]], { label: 'cafe.ksef' });
  await page.goto('/pl/checkout');
  await continueToDelivery(page, 'pl');
  await waitForHydration(page);
  await deliveryMethod(page, 'pickup', 'pl').check();
  await fillAddress(page, polishAddress, 'pl');
  const section = page.getByTestId('checkout-invoice');
  await section.locator('summary').click();
  await section.getByLabel(pl('invoices.checkout.want')).check();
  await section.getByLabel(pl('invoices.fields.name')).fill('Kawiarnia Ziarno sp. z o.o.');
  await section.getByLabel(pl('invoices.fields.taxId'), { exact: true }).fill('725-001-82-00');
  for (const key of ['address', 'zipCode', 'city'] as const) await section.getByLabel(pl(`invoices.fields.${key}`)).fill('');
  await proceedButton(page, 'pl').click();
  await expectStep(page, 'payment', 'pl');
  const orderId = await payAndFinish(page, cents, card(TEST_CARDS.success), 'pl');

  // Until KSeF has given it its number the customer is told so; then the PDF is theirs.
  const invoices = orderCard(page, orderId, 'pl').getByTestId('order-invoices');
  const link = invoices.getByRole('link', { name: /FV\/\d{4}\/\d{5}/ });
  await expect(async () => {
    await page.goto('/pl/profile?tab=orders');
    await expect(link).toHaveCount(1, { timeout: 1_000 });
  }).toPass({ timeout: 30_000, intervals: [500, 1_000, 2_000] });
  const number = (await link.textContent())!.match(/FV\/\d{4}\/\d{5}/)![0];
  const download = page.waitForEvent('download');
  await link.click();
  const pdf = await saved(await download);
  const text = execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf }).toString();
  const ksefNumber = /\b5260250274-\d{8}-[0-9A-F]{12}-[0-9A-F]{2}\b/.exec(text)?.[0];
  expect(ksefNumber, 'the PDF names its KSeF number').toBeTruthy();
  expect(text).toContain(pl('invoices.pdf.ksefQr'));

  // The owner: accepted, with the same number; the XML the code hashes; the UPO, valid against its schema.
  const owner = await ownerPage(browser, testInfo, 'pl');
  await waitForStanding(owner, number, 'accepted', pl);
  await expect(row(owner, number).getByTestId('ksef-number')).toHaveText(ksefNumber!);
  await expect(row(owner, number)).toContainText('NIP/VAT 7250018200');
  const xml = await saved(await Promise.all([owner.waitForEvent('download'), row(owner, number).getByRole('link', { name: pl('admin.invoices.xmlLabel', { number }) }).click()]).then(([d]) => d));
  const issued = /<P_1>(\d{4})-(\d{2})-(\d{2})<\/P_1>/.exec(xml.toString())!;
  expect(qrCodeOnPdf(pdf)).toBe(`https://qr-test.ksef.mf.gov.pl/invoice/5260250274/${issued[3]}-${issued[2]}-${issued[1]}/${createHash('sha256').update(xml).digest('base64url')}`);
  const upo = await saved(await Promise.all([owner.waitForEvent('download'), row(owner, number).getByRole('link', { name: pl('admin.invoicesPage.upoLabel', { number }) }).click()]).then(([d]) => d));
  expect(upo.toString()).toContain(`<NumerKSeFDokumentu>${ksefNumber}</NumerKSeFDokumentu>`);
  const file = path.join(os.tmpdir(), `kopi-upo-${testInfo.workerIndex}.xml`);
  writeFileSync(file, upo);
  execFileSync('xmllint', ['--nonet', '--noout', '--schema', path.join(VENDOR, 'upo-v4-3.xsd'), file], { stdio: 'pipe' });
  await expect(owner.getByTestId('ksef-connection')).toContainText(pl('admin.ksef.byKopi', { environment: pl('admin.ksef.environments.custom') }));
  await expectNoSeriousA11yViolations(owner, { label: 'the invoices page pl' });
  // On a phone each invoice is a card: nothing scrolls sideways, the number, the KSeF number and the files in view.
  await owner.setViewportSize({ width: 390, height: 844 });
  expect(await owner.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await row(owner, number).scrollIntoViewIfNeeded();
  await expect(row(owner, number).getByTestId('ksef-number')).toBeInViewport({ ratio: 1 });
  await expect(row(owner, number).getByRole('link', { name: pl('admin.invoicesPage.upoLabel', { number }) })).toBeVisible();
  await expectNoSeriousA11yViolations(owner, { label: 'the invoices page on a phone pl' });
  await owner.setViewportSize({ width: 1280, height: 900 });
  // The order's page names the invoice's buyer and its KSeF standing.
  await owner.goto(`/admin/orders/${orderId}`);
  await expect(owner.getByTestId('invoice-buyer')).toContainText('Kawiarnia Ziarno sp. z o.o.');
  await expect(owner.getByTestId('order-invoice').getByTestId('ksef-number')).toHaveText(ksefNumber!);
  await owner.context().close();
});

test('an invoice KSeF refuses shows its words; the owner corrects the buyer and it is accepted under the same number', async ({ page, browser, productPath, expectNoSeriousA11yViolations }, testInfo) => {
  await control(testInfo, '/__refuse-buyer', { nip: '7770006338' });
  await customerWithCart(page, testInfo, [[productPath(catalogue[3]), 1]], { label: 'cafe.refused' });
  const orderId = await checkOutByRequest(page, { invoice: { name: 'Bar Mleczny Pod Gruszą', taxId: '7770006338' } });
  const owner = await ownerPage(browser, testInfo, 'en');
  let number = '';
  await expect(async () => {
    await owner.goto('/admin/invoices?status=refused');
    const refused = owner.getByTestId('invoice-row').filter({ hasText: 'Bar Mleczny Pod Gruszą' });
    await expect(refused.getByTestId('ksef-refusal'), 'refused in KSeF’s words').toContainText('450: Błąd weryfikacji semantyki dokumentu faktury', { timeout: 1_000 });
    number = (await refused.locator('th .font-mono').textContent())!;
  }).toPass({ timeout: 30_000, intervals: [500, 1_000, 2_000] });
  await expectNoSeriousA11yViolations(owner, { label: 'the invoices page with a refusal en' });
  // The order's page says it too, in KSeF's words.
  await owner.goto(`/admin/orders/${orderId}`);
  await expect(owner.getByTestId('order-invoice').getByTestId('ksef-refusal')).toContainText('Nabywca o numerze NIP 7770006338');
  await owner.goto('/admin/invoices?status=refused');
  await control(testInfo, '/__refuse-buyer');
  const fix = row(owner, number);
  await fix.getByText(en('admin.invoicesPage.fix')).click();
  const form = fix.getByRole('form', { name: en('admin.invoicesPage.fixFor', { number }) });
  // A NIP that fails its checksum is refused by the shop, nothing sent.
  await form.getByLabel(en('invoices.fields.taxId'), { exact: true }).fill('5213017229');
  await form.getByRole('button', { name: en('admin.invoicesPage.resend') }).click();
  await expect(owner.getByText(en('invoices.errors.nip'))).toBeVisible();
  await expect(row(owner, number).getByTestId('ksef-status')).toHaveText(en('admin.ksef.standing.refused'));
  await row(owner, number).getByLabel(en('invoices.fields.taxId'), { exact: true }).fill('5213017228');
  await row(owner, number).getByLabel(en('invoices.fields.name')).fill('Bar Mleczny Pod Gruszą sp. z o.o.');
  await row(owner, number).getByRole('button', { name: en('admin.invoicesPage.resend') }).click();
  await expect(owner.getByTestId('invoices-message')).toHaveText(en('admin.invoicesPage.resent', { number }));
  await waitForStanding(owner, number, 'accepted');
  await expect(row(owner, number)).toContainText('NIP/VAT 5213017228');
  await owner.context().close();
});

test.afterEach(async ({}, testInfo) => {
  // Each journey leaves KSeF's stand-in as it found it, whatever happened in it.
  await control(testInfo, '/__refuse-buyer');
  await control(testInfo, '/__mode', { mode: 'normal' });
});

test('with KSeF down the invoice waits and the page says so; when KSeF is back it is accepted', async ({ page, browser, productPath }, testInfo) => {
  await control(testInfo, '/__mode', { mode: 'maintenance', retryAfter: 3 });
  try {
    await customerWithCart(page, testInfo, [[productPath(catalogue[4]), 1]], { label: 'cafe.down' });
    const orderId = await checkOutByRequest(page, { invoice: { name: 'Kawiarnia Przerwa', taxId: '5213017228' } });
    const owner = await ownerPage(browser, testInfo, 'en');
    await owner.goto(`/admin/orders/${orderId}`);
    const number = ((await owner.getByTestId('order-invoice').textContent()) ?? '').match(/FV\/\d{4}\/\d{5}/)![0];
    await expect(async () => {
      await owner.goto('/admin/invoices');
      await expect(owner.getByTestId('ksef-paused'), 'KSeF asked to wait: said so').toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 30_000, intervals: [500, 1_000, 2_000] });
    await expect(row(owner, number).getByTestId('ksef-status')).toHaveText(en('admin.ksef.standing.queued'));
    await control(testInfo, '/__mode', { mode: 'normal' });
    await waitForStanding(owner, number, 'accepted');
    await owner.context().close();
  } finally {
    await control(testInfo, '/__mode', { mode: 'normal' });
  }
});
