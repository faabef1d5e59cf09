/**
 * InPost shipments from the order page, against the ShipX stand-in (tests/doubles/shipx.js, its own process
 * on the shop's port + 280): a Polish customer's locker order is shipped with "Create shipment", the A6 label
 * downloaded is a real PDF (read back with pdftotext), the customer's "shipped" mail carries the tracking link
 * and My Orders shows it; a locker InPost took out of service is refused in InPost's words and the order stays
 * as it was. The order page passes axe with the shipment panel, in both languages.
 *
 * In the back-office project (one file at a time): the SMTP catcher holds the e2e server's SMTP port.
 */
import { execFileSync } from 'node:child_process';
import type { Browser, Page, TestInfo } from '@playwright/test';
import { byKey } from '../fixtures/catalogue';
import { type Locale, t } from '../fixtures/i18n';
import { type MailCatcher, startMailCatcher } from '../fixtures/smtp';
import { kopi, newAccount, signUp } from './accounts';
import { TEST_CARDS, addressField, card, customerWithCart, deliveryMethod, expectStep, orderLabel, payAndFinish, polishAddress, proceedButton } from './checkout-helpers';
import { signedCookie } from './cookies';
import { declineCookies, expect, test } from './fixtures';
import { COOKIE_BANNER_VERSION } from '../../app/lib/analytics';
import { findProductPath, waitForHydration } from './helpers';

const en = t('en');
const pl = t('pl');
const light = byKey('toraja-drip-bags');

test.describe.configure({ mode: 'serial' });

let mail: MailCatcher;
test.beforeAll(async () => {
  mail = await startMailCatcher();
});
test.afterAll(async () => {
  await mail?.close();
});

const shipxUrl = (testInfo: TestInfo) => {
  const shop = new URL(testInfo.project.use.baseURL!);
  return `http://127.0.0.1:${Number(shop.port) + 280}`;
};

/** A Polish customer's paid order of one pack of drip bags to locker `code` (found by searching Kraków). */
/** "15,99 €" → 1599. */
const parsePrice = (text: string) => Math.round(Number(text.replace(/[^\d,]/g, '').replace(',', '.')) * 100);

async function lockerOrder(page: Page, testInfo: TestInfo, code: string) {
  const path = await findProductPath(page, light.en.name);
  const account = await customerWithCart(page, testInfo, [[path, 1]], { label: 'ola.locker' });
  await page.goto('/pl/checkout?step=delivery');
  await waitForHydration(page);
  const main = page.getByRole('main');
  await deliveryMethod(page, 'locker', 'pl').check();
  await main.getByLabel(pl('checkout.shipping.lockerSearch')).fill('Kraków');
  await main.getByRole('button', { name: pl('checkout.shipping.lockerSearchButton') }).click();
  await main.getByRole('radio', { name: new RegExp(code) }).check();
  // A locker takes the name, the phone and the account's email; no street.
  await addressField(page, 'fullName', 'pl').fill(polishAddress.fullName);
  await main.getByLabel(pl('checkout.shipping.phone'), { exact: true }).fill('600 100 200');
  await proceedButton(page, 'pl').click();
  await expectStep(page, 'payment', 'pl');
  // The locker's price is whatever the owner's journeys left it at (admin-delivery.spec.ts lowers it): read it.
  const total = await main.getByRole('complementary').getByTestId('checkout-total').textContent();
  const id = await payAndFinish(page, parsePrice(total ?? ''), card(TEST_CARDS.success), 'pl');
  return { id, label: orderLabel(id), email: account.email };
}

async function ownerPage(browser: Browser, testInfo: TestInfo, language: Locale = 'en'): Promise<Page> {
  const baseURL = testInfo.project.use.baseURL!;
  const context = await browser.newContext({ baseURL, extraHTTPHeaders: { 'X-Forwarded-For': `10.8.1.${testInfo.retry + 1}` } });
  await context.addInitScript(declineCookies, COOKIE_BANNER_VERSION);
  await context.addCookies([{ name: 'lang', value: await signedCookie('lang', language), url: baseURL }]);
  const page = await context.newPage();
  const account = newAccount(testInfo, 'owner.shipments', 'Owner');
  await signUp(page, account);
  expect(await kopi('grant-admin', '--email', account.email)).toContain('is now an admin');
  return page;
}

test('the owner creates an InPost shipment for a locker order and prints its label; the customer is mailed the tracking link', async ({ page, browser, expectNoSeriousA11yViolations }, testInfo) => {
  const order = await lockerOrder(page, testInfo, 'KRA08N');
  const owner = await ownerPage(browser, testInfo);
  await owner.goto(`/admin/orders/${order.id}`);
  await waitForHydration(owner);
  const panel = owner.getByTestId('inpost-shipment');
  await expect(panel).toContainText(en('admin.orders.shipment.toLocker', { code: 'KRA08N' }));
  // 120 g of drip bags and 150 g of packaging: the small locker size is proposed.
  await expect(panel).toContainText(en('admin.orders.shipment.weight', { weight: '0.27 kg' }));
  await expect(panel.getByLabel(en('admin.orders.shipment.size'))).toHaveValue('small');
  await expectNoSeriousA11yViolations(owner, { label: 'order page with an InPost shipment to create' });

  await panel.getByLabel(en('admin.orders.shipment.size')).selectOption('medium');
  await panel.getByRole('button', { name: en('admin.orders.shipment.create') }).click();
  await expect(owner.getByRole('status')).toHaveText(en('admin.orders.moved.shipmentShipped'));
  await expect(owner.getByTestId('admin-order-status')).toHaveText(en('orders.status.shipped'));

  // What InPost was sent, and the number it gave.
  const sent = ((await (await fetch(`${shipxUrl(testInfo)}/__shipments`)).json()) as Array<{ id: number; reference: string; tracking_number: string; body: Record<string, any> }>).find((s) => s.reference === order.label)!;
  expect(sent.body).toMatchObject({ service: 'inpost_locker_standard', parcels: { template: 'medium' }, custom_attributes: { target_point: 'KRA08N' }, receiver: { phone: '600100200', email: order.email } });
  await expect(owner.getByTestId('inpost-shipment-id')).toHaveText(en('admin.orders.shipment.created', { id: String(sent.id), size: 'B' }));
  await expect(owner.getByRole('link', { name: `InPost ${sent.tracking_number}` })).toHaveAttribute('href', `https://inpost.pl/sledzenie-przesylek?number=${sent.tracking_number}`);
  await expect(owner.getByTestId('order-timeline')).toContainText(en('admin.orders.events.shipment', { by: '' }).trim());

  // The label: a real A6 PDF with the locker, the number and the order's label on it.
  const [download] = await Promise.all([owner.waitForEvent('download'), panel.getByRole('link', { name: en('admin.orders.shipment.label') }).click()]);
  expect(download.suggestedFilename()).toBe(`kopi-${order.label}-inpost.pdf`);
  const file = testInfo.outputPath('label.pdf');
  await download.saveAs(file);
  const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  for (const expected of ['Paczkomat KRA08N', sent.tracking_number, polishAddress.fullName, `Ref: ${order.label}`]) expect(text).toContain(expected);
  expect(execFileSync('pdfinfo', [file], { encoding: 'utf8' })).toMatch(/Page size:\s+297\.6 x 419\.5 pts/); // A6: 105 × 148 mm

  // The customer's mail (in Polish, as ordered) and My Orders.
  const shipped = await mail.waitFor((m) => m.envelope.to.includes(order.email) && m.subject === pl('orders.shippingMail.shippedSubject', { label: order.label }));
  expect(shipped.text).toContain(pl('orders.shippingMail.trackWith', { carrier: 'InPost', number: sent.tracking_number }));
  expect(shipped.text).toContain(`https://inpost.pl/sledzenie-przesylek?number=${sent.tracking_number}`);
  await page.goto('/pl/profile?tab=orders');
  const mine = page.getByRole('main').getByRole('listitem').filter({ hasText: order.label }).first();
  await expect(mine.getByTestId('order-status')).toHaveText(pl('orders.status.shipped'));
  await expect(mine.getByTestId('order-tracking').getByRole('link')).toHaveText(`InPost ${sent.tracking_number}`);

  // The activity log says it too.
  await owner.goto('/admin/activity');
  await expect(owner.getByRole('row').filter({ hasText: en('admin.activity.actions.orderShipment', { subject: order.label }) })).toContainText(en('admin.activity.shipment', { id: String(sent.id), size: 'B' }));
  await owner.context().close();
});

test('InPost refuses a locker taken out of service: its words are shown in Polish, and the order is as it was', async ({ page, browser, expectNoSeriousA11yViolations }, testInfo) => {
  const order = await lockerOrder(page, testInfo, 'KRA310M');
  await fetch(`${shipxUrl(testInfo)}/__lockers/KRA310M/withdraw`, { method: 'POST' });
  const owner = await ownerPage(browser, testInfo, 'pl');
  await owner.goto(`/admin/orders/${order.id}`);
  await waitForHydration(owner);
  const panel = owner.getByTestId('inpost-shipment');
  await panel.getByRole('button', { name: pl('admin.orders.shipment.create') }).click();
  const alert = owner.getByRole('alert');
  await expect(alert).toContainText(pl('admin.orders.errors.refused', { message: '' }).trim());
  await expect(alert).toContainText('custom_attributes.target_point: does_not_exist');
  await expect(owner.getByTestId('admin-order-status')).toHaveText(pl('orders.status.processing'));
  // Nothing changed: the shipment can be created again, or the order shipped by hand.
  await expect(panel.getByRole('button', { name: pl('admin.orders.shipment.create') })).toBeVisible();
  await expect(owner.getByRole('button', { name: pl('admin.orders.ship') })).toBeVisible();
  await expectNoSeriousA11yViolations(owner, { label: 'order page with InPost’s refusal (pl)' });
  await owner.context().close();
});
