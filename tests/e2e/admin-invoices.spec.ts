/**
 * Invoices (docs/decisions/0028), read back from the PDF with poppler's pdftotext: a customer asks for one in
 * Polish from My Orders (a wrong NIP refused with its message, then a café's), downloads it; a buyer asks at
 * checkout, in both languages; the owner issues one for another order from its page (in English, with its
 * correction after a refund and the month's KSeF batch; in Polish, for an order whose customer's window has
 * closed, and the OSS report); axe on the request page, the checkout's invoice step and the owner's order page.
 *
 * In the back-office project (it grants an admin).
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Browser, Download, Page, TestInfo } from '@playwright/test';
import { askedCents, catalogue } from '../fixtures/catalogue';
import { type Locale, escapeRegExp, price, t } from '../fixtures/i18n';
import { e2eDataDir, kopi, newAccount, signUp } from './accounts';
import { card, checkOutByRequest, continueToDelivery, customerWithCart, deliveryMethod, expectStep, fillAddress, orderCard, payAndFinish, polishAddress, proceedButton, shownDate, TEST_CARDS } from './checkout-helpers';
import { signedCookie } from './cookies';
import { declineCookies, expect, failedLoad, test } from './fixtures';
import { COOKIE_BANNER_VERSION } from '../../app/lib/analytics';
import { waitForHydration } from './helpers';

const en = t('en');
const pl = t('pl');

async function ownerPage(browser: Browser, testInfo: TestInfo, language: Locale = 'en'): Promise<Page> {
  const baseURL = testInfo.project.use.baseURL!;
  const context = await browser.newContext({ baseURL, locale: language === 'pl' ? 'pl-PL' : 'en-GB' });
  await context.addInitScript(declineCookies, COOKIE_BANNER_VERSION);
  await context.addCookies([{ name: 'lang', value: await signedCookie('lang', language), url: baseURL }]);
  const page = await context.newPage();
  const account = newAccount(testInfo, 'owner.invoices', 'Owner');
  await signUp(page, account);
  expect(await kopi('grant-admin', '--email', account.email)).toContain('is now an admin');
  return page;
}

/** The PDF's text, its no-break spaces plain. */
async function pdfText(download: Download): Promise<string> {
  return execFileSync('pdftotext', ['-layout', (await download.path())!, '-']).toString().replace(/[\u00a0\u202f]/g, ' ');
}
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');
const vat23 = (cents: number) => Math.round((cents * 23) / 123);

test('a customer asks for an invoice in Polish from My Orders and downloads it; a wrong NIP is refused first', async ({ page, consoleErrors, productPath, expectNoSeriousA11yViolations }, testInfo) => {
  consoleErrors.allow(failedLoad(400));
  const product = catalogue[2];
  const cents = askedCents(product, product.priceCents);
  const baseURL = testInfo.project.use.baseURL!;
  await page.context().addCookies([{ name: 'lang', value: await signedCookie('lang', 'pl'), url: baseURL }]);
  await customerWithCart(page, testInfo, [[productPath(product), 1]], { label: 'ola.invoice' });
  const orderId = await checkOutByRequest(page, { locale: 'pl' });

  await page.goto('/pl/profile?tab=orders');
  await orderCard(page, orderId, 'pl').getByRole('link', { name: pl('invoices.ask') }).click();
  await expect(page).toHaveURL(new RegExp(`/pl/invoice/${orderId}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(pl('invoices.request.title'));
  // Pre-filled from the order.
  await expect(page.getByLabel(pl('invoices.fields.name'))).toHaveValue(polishAddress.fullName);
  await expect(page.getByLabel(pl('invoices.fields.city'))).toHaveValue(polishAddress.city);
  await expectNoSeriousA11yViolations(page, { label: 'invoice request pl' });
  await waitForHydration(page);

  await page.getByLabel(pl('invoices.fields.name')).fill('Kawiarnia Żuraw sp. z o.o.');
  await page.getByLabel(pl('invoices.fields.taxId'), { exact: true }).fill('725-001-82-01');
  await page.getByRole('button', { name: pl('invoices.request.submit') }).click();
  await expect(page.getByText(pl('invoices.errors.nip'))).toBeVisible();
  await expect(page.getByLabel(pl('invoices.fields.taxId'), { exact: true })).toHaveAttribute('aria-invalid', 'true');

  await page.getByLabel(pl('invoices.fields.taxId'), { exact: true }).fill('725-001-82-00');
  await page.getByRole('button', { name: pl('invoices.request.submit') }).click();
  const issued = page.getByTestId('invoice-issued');
  await expect(issued.getByRole('status')).toContainText(/FV\/\d{4}\/\d{5}/);
  const number = (await issued.getByRole('status').textContent())!.match(/FV\/\d{4}\/\d{5}/)![0];

  // My Orders now offers the PDF instead of the request.
  await page.goto('/pl/profile?tab=orders');
  const invoices = orderCard(page, orderId, 'pl').getByTestId('order-invoices');
  await expect(invoices.getByRole('link', { name: pl('invoices.ask') })).toHaveCount(0);
  const download = page.waitForEvent('download');
  await invoices.getByRole('link', { name: pl('invoices.download', { number }) }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`${number.replace(/\//g, '-')}.pdf`);
  const text = await pdfText(file);
  expect(text).toContain(`Faktura VAT ${number}`);
  expect(text).toContain('Kawiarnia Żuraw sp. z o.o.');
  expect(text).toContain('NIP: 7250018200');
  expect(text).toContain('Kopi Palarnia sp. z o.o.');
  expect(text).toContain('NIP: 5260250274');
  // Paid in euros: the VAT in złoty too, at NBP's average rate of the working day before (NBP's stand-in).
  expect(text.replace(/\s+/g, ' ')).toMatch(/VAT w złotych: [\d ]+,\d\d zł \(średni kurs NBP \d,\d{4} PLN\/EUR, tabela nr \d{3}\/A\/NBP\/\d{4} z \d{1,2} \p{L}+ \d{4}\)/u);
  expect(text).toMatch(new RegExp(`23%\\s+${plain(price(vat23(cents), 'pl')).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s+${plain(price(cents, 'pl')).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));

  // A second request for the same order is refused: the page shows the invoice instead of the form.
  await page.goto(`/pl/invoice/${orderId}`);
  await expect(page.getByTestId('invoice-issued')).toBeVisible();
  await expect(page.getByRole('button', { name: pl('invoices.request.submit') })).toHaveCount(0);
});

for (const language of ['en', 'pl'] as const) {
  test(`a buyer asks for an invoice at checkout (a VAT number in the wrong format refused first), pays, and downloads it from My Orders (${language})`, async ({ page, consoleErrors, productPath, expectNoSeriousA11yViolations }, testInfo) => {
    consoleErrors.allow(failedLoad(400));
    const tr = t(language);
    const at = (path: string) => (language === 'pl' ? `/pl${path}` : path);
    const product = catalogue[language === 'pl' ? 5 : 1];
    const cents = askedCents(product, product.priceCents);
    if (language === 'pl') await page.context().addCookies([{ name: 'lang', value: await signedCookie('lang', 'pl'), url: testInfo.project.use.baseURL! }]);
    await customerWithCart(page, testInfo, [[productPath(product), 1]], { label: `cafe.checkout.${language}` });
    await page.goto(at('/checkout'));
    await continueToDelivery(page, language);
    await waitForHydration(page);
    await deliveryMethod(page, 'pickup', language).check();
    await fillAddress(page, polishAddress, language);
    const section = page.getByTestId('checkout-invoice');
    await section.locator('summary').click();
    await section.getByLabel(tr('invoices.checkout.want')).check();
    await section.getByLabel(tr('invoices.fields.name')).fill('Café Żuraw GmbH');
    await section.getByLabel(tr('invoices.fields.country')).selectOption('DE');
    await section.getByLabel(tr('invoices.fields.taxId'), { exact: true }).fill('DE12345');
    await section.getByLabel(tr('invoices.fields.address')).fill('Torstraße 1');
    await section.getByLabel(tr('invoices.fields.zipCode')).fill('10119');
    await section.getByLabel(tr('invoices.fields.city')).fill('Berlin');
    await proceedButton(page, language).click();
    await expect(section.getByText(tr('invoices.errors.vatFormat'))).toBeVisible();
    await expect(section.getByLabel(tr('invoices.fields.taxId'), { exact: true })).toHaveAttribute('aria-invalid', 'true');
    await expectStep(page, 'delivery', language);
    await expectNoSeriousA11yViolations(page, { label: `delivery step with the invoice request ${language}` });

    // A Polish café after all: its NIP, with dashes.
    await section.getByLabel(tr('invoices.fields.name')).fill('Kawiarnia Żuraw sp. z o.o.');
    await section.getByLabel(tr('invoices.fields.country')).selectOption('PL');
    await section.getByLabel(tr('invoices.fields.taxId'), { exact: true }).fill('725-001-82-00');
    // Its billing address left empty: the delivery address is used.
    await expect(section).toContainText(tr('invoices.checkout.billingHint'));
    for (const key of ['address', 'zipCode', 'city'] as const) await section.getByLabel(tr(`invoices.fields.${key}`)).fill('');
    await proceedButton(page, language).click();
    await expectStep(page, 'payment', language);
    const orderId = await payAndFinish(page, cents, card(TEST_CARDS.success), language);

    // Issued with the payment: My Orders offers the PDF, not the request.
    await page.goto(at('/profile?tab=orders'));
    const invoices = orderCard(page, orderId, language).getByTestId('order-invoices');
    const link = invoices.getByRole('link', { name: /FV\/\d{4}\/\d{5}/ });
    await expect(link).toHaveCount(1);
    const number = (await link.textContent())!.match(/FV\/\d{4}\/\d{5}/)![0];
    await expect(invoices.getByRole('link', { name: tr('invoices.ask') })).toHaveCount(0);
    const download = page.waitForEvent('download');
    await link.click();
    const text = await pdfText(await download);
    // In the buyer's language.
    expect(text).toContain(tr('invoices.pdf.title', { number }));
    expect(text).toContain('Kawiarnia Żuraw sp. z o.o.');
    expect(text).toContain('NIP: 7250018200');
    expect(text).toContain(polishAddress.address);
    expect(text).toContain(`${polishAddress.zipCode} ${polishAddress.city}`);
    expect(text).toContain('NIP: 5260250274');
    expect(text).toMatch(new RegExp(`23%\\s+${escapeRegExp(plain(price(vat23(cents), language)))}\\s+${escapeRegExp(plain(price(cents, language)))}`));
    expect(text.replace(/\s+/g, ' ')).toMatch(
      language === 'pl'
        ? /VAT w złotych: [\d ]+,\d\d zł \(średni kurs NBP \d,\d{4} PLN\/EUR, tabela nr \d{3}\/A\/NBP\/\d{4} z \d{1,2} \p{L}+ \d{4}\)/u
        : /VAT in złoty: PLN [\d,]+\.\d\d \(NBP average rate \d\.\d{4} PLN per euro, table \d{3}\/A\/NBP\/\d{4} of \d{1,2} \w+ \d{4}\)/,
    );
  });
}

test('the owner issues an invoice for an order from its page and downloads it', async ({ page, browser, productPath, expectNoSeriousA11yViolations }, testInfo) => {
  const product = catalogue[4];
  const cents = askedCents(product, product.priceCents) * 2;
  await customerWithCart(page, testInfo, [[productPath(product), 2]], { label: 'ola.owner-invoice' });
  const orderId = await checkOutByRequest(page);

  const owner = await ownerPage(browser, testInfo);
  await owner.goto(`/admin/orders/${orderId}`);
  const section = owner.getByTestId('order-invoice');
  await expect(section).toContainText(en('admin.invoices.none'));
  await expectNoSeriousA11yViolations(owner, { label: 'admin order with invoice form' });
  await waitForHydration(owner);
  await section.getByLabel(en('invoices.fields.name')).fill('Café Berlin GmbH');
  await section.getByLabel(en('invoices.fields.taxId'), { exact: true }).fill('DE 123 456 789');
  await section.getByLabel(en('invoices.fields.country')).selectOption('DE');
  await section.getByLabel(en('invoices.fields.address')).fill('Torstraße 1');
  await section.getByLabel(en('invoices.fields.zipCode')).fill('10119');
  await section.getByLabel(en('invoices.fields.city')).fill('Berlin');
  await section.getByRole('button', { name: en('admin.invoices.issue') }).click();
  await expect(owner.getByRole('status')).toContainText(/Invoice FV\/\d{4}\/\d{5} issued\./);
  const download = owner.waitForEvent('download');
  await section.getByRole('link', { name: /^Invoice FV\// }).click();
  const text = await pdfText(await download);
  // The order's language (English) and the buyer's VAT number.
  expect(text).toMatch(/VAT invoice FV\/\d{4}\/\d{5}/);
  expect(text).toContain('Café Berlin GmbH');
  expect(text).toContain('VAT number: DE123456789');
  expect(text).toContain('Germany');

  // Cancelled and refunded: a correcting invoice in its own series, listed beside the invoice.
  await owner.getByText(en('admin.orders.cancel')).click();
  await owner.getByRole('button', { name: en('admin.orders.confirmCancel', { amount: price(cents, 'en') }) }).click();
  await expect(owner.getByTestId('admin-order-status')).toHaveText(en('orders.status.cancelled'));
  const correctionLink = section.getByRole('link', { name: /^Correction KOR\/\d{4}\/\d{5}/ });
  await expect(correctionLink).toBeVisible();
  const correction = owner.waitForEvent('download');
  await correctionLink.click();
  const correctionText = await pdfText(await correction);
  expect(correctionText).toMatch(/Corrective invoice KOR\/\d{4}\/\d{5}/);
  expect(correctionText).toMatch(/Corrects invoice FV\/\d{4}\/\d{5}/);

  // The month's KSeF batch (the Polish café's invoice of the test before is in it).
  await owner.goto('/admin/tax');
  const batch = owner.waitForEvent('download');
  await owner.getByTestId('ksef-batch').getByRole('button', { name: en('admin.tax.downloadKsef') }).click();
  const zip = await batch;
  expect(zip.suggestedFilename()).toMatch(/^kopi-ksef-\d{4}-\d{2}\.zip$/);
  const bytes = Buffer.concat(await (await zip.createReadStream()).toArray());
  expect(bytes.subarray(0, 2).toString()).toBe('PK');
  expect(bytes.toString('utf8')).toMatch(/FV-\d{4}-\d{5}\.xml<\?xml[^>]*>\s*<Faktura xmlns="http:\/\/crd\.gov\.pl\/wzor\/2025\/06\/25\/13775\/">/);
  await owner.context().close();
});

test('in Polish, for an order delivered five months ago: the customer’s window has closed, the owner still issues the invoice; the OSS report downloads', async ({ page, browser, productPath, consoleErrors, expectNoSeriousA11yViolations }, testInfo) => {
  consoleErrors.allow(failedLoad(409));
  const product = catalogue[6];
  const cents = askedCents(product, product.priceCents);
  const baseURL = testInfo.project.use.baseURL!;
  await page.context().addCookies([{ name: 'lang', value: await signedCookie('lang', 'pl'), url: baseURL }]);
  await customerWithCart(page, testInfo, [[productPath(product), 1]], { label: 'ola.old-order' });
  const orderId = await checkOutByRequest(page, { locale: 'pl' });

  // The clock moved for this order: paid and delivered five months ago, so the customer's window (to the end of
  // the third month after delivery) has closed.
  const long = new Date(Date.now() - 150 * 24 * 3600 * 1000).toISOString();
  const db = new DatabaseSync(path.join(e2eDataDir(), 'kopi.db'));
  try {
    db.exec('pragma busy_timeout = 10000');
    db.prepare("update orders set created_at = ?, paid_at = ?, delivered_at = ?, shipping_status = 'delivered' where id = ?").run(long, long, long, orderId);
  } finally {
    db.close();
  }

  await page.goto('/pl/profile?tab=orders');
  await expect(orderCard(page, orderId, 'pl')).toBeVisible();
  await expect(orderCard(page, orderId, 'pl').getByRole('link', { name: pl('invoices.ask') })).toHaveCount(0);
  await page.goto(`/pl/invoice/${orderId}`);
  await expect(page.getByTestId('invoice-window-closed')).toHaveText(pl('invoices.request.windowClosed'));
  await expect(page.getByRole('button', { name: pl('invoices.request.submit') })).toHaveCount(0);
  // A request sent anyway (a form kept open for months, or crafted) is refused with its message, nothing issued.
  const refused = await page.request.post(`/pl/invoice/${orderId}`, {
    headers: { origin: baseURL },
    form: { invoiceName: 'Kawiarnia Żuraw sp. z o.o.', invoiceTaxId: '725-001-82-00', invoiceCountry: 'PL', invoiceAddress: 'ul. Długa 5/3', invoiceZipCode: '80-827', invoiceCity: 'Gdańsk' },
  });
  expect(refused.status()).toBe(409);
  expect(plain(await refused.text())).toContain(plain(pl('invoices.request.windowClosed')));
  await page.goto(`/pl/invoice/${orderId}`);
  await expect(page.getByTestId('invoice-window-closed')).toBeVisible();

  // The owner, in Polish, is not bound by the customer's window.
  const owner = await ownerPage(browser, testInfo, 'pl');
  await owner.goto(`/admin/orders/${orderId}`);
  const section = owner.getByTestId('order-invoice');
  await expect(section).toContainText(pl('admin.invoices.none'));
  await expectNoSeriousA11yViolations(owner, { label: 'admin order with invoice form pl' });
  await waitForHydration(owner);
  await section.getByLabel(pl('invoices.fields.name')).fill('Kawiarnia Żuraw sp. z o.o.');
  await section.getByLabel(pl('invoices.fields.taxId'), { exact: true }).fill('7250018200');
  await section.getByRole('button', { name: pl('admin.invoices.issue') }).click();
  await expect(owner.getByRole('status')).toContainText(/Wystawiono fakturę FV\/\d{4}\/\d{5}\./);
  const number = (await owner.getByRole('status').textContent())!.match(/FV\/\d{4}\/\d{5}/)![0];
  const download = owner.waitForEvent('download');
  await section.getByRole('link', { name: pl('invoices.download', { number }) }).click();
  const text = await pdfText(await download);
  // The order's language (Polish), dated today, sold on the day it was paid.
  expect(text).toContain(pl('invoices.pdf.title', { number }));
  expect(text).toContain(`${pl('invoices.pdf.saleDate')}: ${shownDate(long, 'pl')}`);
  expect(text).toContain('NIP: 7250018200');
  expect(text).toMatch(new RegExp(`23%\\s+${escapeRegExp(plain(price(vat23(cents), 'pl')))}\\s+${escapeRegExp(plain(price(cents, 'pl')))}`));

  // The customer now finds it in My Orders.
  await page.goto('/pl/profile?tab=orders');
  await expect(orderCard(page, orderId, 'pl').getByTestId('order-invoices').getByRole('link', { name: pl('invoices.download', { number }) })).toBeVisible();

  // The quarter's OSS report, in Polish for the Polish accountant.
  await owner.goto('/admin/tax');
  const report = owner.waitForEvent('download');
  await owner.getByTestId('oss-report').getByRole('button', { name: pl('admin.tax.download') }).click();
  const csv = Buffer.concat(await (await (await report).createReadStream()).toArray()).toString('utf8');
  expect(csv.split('\r\n')[0]).toBe('\uFEFFOkres;Rodzaj;Kraj;Stawka VAT (%);Waluta;Netto;VAT;Zamówienia');
  await owner.context().close();
});

test('the owner records the number KSeF gave a Polish café’s invoice; its correction’s XML refers to it', async ({ page, browser, productPath, consoleErrors }, testInfo) => {
  consoleErrors.allow(failedLoad(400));
  const product = catalogue[3];
  const cents = askedCents(product, product.priceCents);
  await customerWithCart(page, testInfo, [[productPath(product), 1]], { label: 'ola.ksef-number' });
  const orderId = await checkOutByRequest(page);

  const owner = await ownerPage(browser, testInfo);
  await owner.goto(`/admin/orders/${orderId}`);
  await waitForHydration(owner);
  const section = owner.getByTestId('order-invoice');
  await section.getByLabel(en('invoices.fields.name')).fill('Kawiarnia Żuraw sp. z o.o.');
  await section.getByLabel(en('invoices.fields.taxId'), { exact: true }).fill('725-001-82-00');
  await section.getByRole('button', { name: en('admin.invoices.issue') }).click();
  await expect(owner.getByRole('status')).toContainText(/Invoice FV\/\d{4}\/\d{5} issued\./);
  const number = (await owner.getByRole('status').textContent())!.match(/FV\/\d{4}\/\d{5}/)![0];

  const form = section.getByRole('form', { name: en('admin.invoices.ksefFor', { number }) });
  await form.getByLabel(en('admin.invoices.ksefNumber')).fill('5260250274-20261128-0A1B2C3D4E5F');
  await form.getByRole('button', { name: en('admin.invoices.ksefSave') }).click();
  await expect(owner.getByRole('alert')).toHaveText(en('admin.orders.errors.ksef_invalid'));
  const ksefNumber = '5260250274-20261128-0A1B2C3D4E5F-F7';
  await form.getByLabel(en('admin.invoices.ksefNumber')).fill(ksefNumber);
  await form.getByRole('button', { name: en('admin.invoices.ksefSave') }).click();
  await expect(owner.getByRole('status')).toHaveText(en('admin.invoices.ksefRecorded', { number }));
  await expect(form.getByLabel(en('admin.invoices.ksefNumber'))).toHaveValue(ksefNumber);

  await owner.getByText(en('admin.orders.cancel')).click();
  await owner.getByRole('button', { name: en('admin.orders.confirmCancel', { amount: price(cents, 'en') }) }).click();
  await expect(owner.getByTestId('admin-order-status')).toHaveText(en('orders.status.cancelled'));
  const correction = section.getByRole('link', { name: /^Correction KOR\/\d{4}\/\d{5}/ });
  const correctionNumber = (await correction.textContent())!.match(/KOR\/\d{4}\/\d{5}/)![0];
  const xml = owner.waitForEvent('download');
  await section.getByRole('link', { name: en('admin.invoices.xmlLabel', { number: correctionNumber }) }).click();
  const text = Buffer.concat(await (await (await xml).createReadStream()).toArray()).toString('utf8');
  expect(text).toContain(`<NrKSeFFaKorygowanej>${ksefNumber}</NrKSeFFaKorygowanej>`);
  await owner.context().close();
});
