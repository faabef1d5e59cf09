/**
 * Guest checkout, the owner's choice: off, a guest at checkout is sent to sign in (the specification); the
 * owner turns it on at /admin/delivery; a guest then orders with an email (refused when malformed), pays,
 * follows the order on its private page from the confirmation mail's link (a wrong key is a 404), withdraws
 * from it with the form filled in, and turns it into an account with one click (nobody is signed in by it: the
 * mail to the order's address sets the first password, and then My Orders has the order). In Polish, an email that has an account is asked to sign in.
 * Axe checks the guest's delivery step and the order page in both languages.
 *
 * In the back-office project (one file at a time, after the storefront journeys): the shop's setting changes
 * for this file only and is turned off again after it; the SMTP catcher holds the e2e server's SMTP port.
 */
import type { Browser, Page, TestInfo } from '@playwright/test';
import { byKey } from '../fixtures/catalogue';
import { type Locale, t } from '../fixtures/i18n';
import { type MailCatcher, startMailCatcher } from '../fixtures/smtp';
import { authField, fillLogIn, kopi, newAccount, signUp, submitButton } from './accounts';
import { TEST_CARDS, card, continueToDelivery, deliveryMethod, expectStep, fillAddress, orderLabel, payAndFinish, polishAddress, proceedButton } from './checkout-helpers';
import { signedCookie } from './cookies';
import { declineCookies, expect, test } from './fixtures';
import { COOKIE_BANNER_VERSION } from '../../app/lib/analytics';
import { addToCartByRequest, findProductPath, waitForHydration } from './helpers';

const en = t('en');
const pl = t('pl');
const light = byKey('toraja-drip-bags');
const COURIER = 499;

test.describe.configure({ mode: 'serial' });

let mail: MailCatcher;
test.beforeAll(async () => {
  mail = await startMailCatcher();
});
test.afterAll(async ({ browser }, testInfo) => {
  await mail?.close();
  // The storefront's other journeys count on guests signing in first.
  const owner = await ownerPage(browser, testInfo);
  await setGuestCheckout(owner, false);
  await owner.context().close();
});

async function ownerPage(browser: Browser, testInfo: TestInfo): Promise<Page> {
  const baseURL = testInfo.project.use.baseURL!;
  const context = await browser.newContext({ baseURL, extraHTTPHeaders: { 'X-Forwarded-For': `10.8.2.${testInfo.retry + 1}` } });
  await context.addInitScript(declineCookies, COOKIE_BANNER_VERSION);
  const page = await context.newPage();
  const account = newAccount(testInfo, 'owner.guests', 'Owner');
  await signUp(page, account);
  expect(await kopi('grant-admin', '--email', account.email)).toContain('is now an admin');
  return page;
}

async function setGuestCheckout(owner: Page, on: boolean) {
  await owner.goto('/admin/delivery');
  await waitForHydration(owner);
  const box = owner.getByTestId('checkout-settings').getByLabel(en('admin.delivery.guestCheckout'));
  await box.setChecked(on);
  await owner.getByRole('button', { name: en('admin.delivery.saveCheckout') }).click();
  await expect(owner.getByText(en('admin.delivery.saved.checkout'))).toBeVisible();
}

/** A visitor with no account and one pack of drip bags in the cart, in `locale`. */
async function guestWithCart(browser: Browser, testInfo: TestInfo, locale: Locale): Promise<Page> {
  const baseURL = testInfo.project.use.baseURL!;
  const context = await browser.newContext({ baseURL, extraHTTPHeaders: { 'X-Forwarded-For': `10.8.3.${testInfo.retry + 1}` } });
  await context.addInitScript(declineCookies, COOKIE_BANNER_VERSION);
  await context.addCookies([{ name: 'lang', value: await signedCookie('lang', locale), url: baseURL }]);
  const page = await context.newPage();
  await addToCartByRequest(page, await findProductPath(page, light.en.name), 1);
  return page;
}

const email = (testInfo: TestInfo, who: string) => `${who}.${testInfo.workerIndex}.${Date.now()}@example.test`;

test('guests sign in first until the owner accepts them; then a guest orders, follows the order by its link, withdraws, and makes it an account', async ({ browser, expectNoSeriousA11yViolations }, testInfo) => {
  const guest = await guestWithCart(browser, testInfo, 'en');
  await guest.goto('/checkout');
  await expect(guest).toHaveURL(/\/auth\?mode=login&redirectTo=%2Fcheckout/);

  const owner = await ownerPage(browser, testInfo);
  await setGuestCheckout(owner, true);
  await expectNoSeriousA11yViolations(owner, { label: 'admin delivery with the checkout settings' });

  // The review says who is ordering, and offers to sign in instead.
  await guest.goto('/checkout');
  await waitForHydration(guest);
  await expect(guest.getByTestId('guest-checkout')).toContainText(en('checkout.guest.asGuest'));
  await continueToDelivery(guest);
  const main = guest.getByRole('main');
  await expect(main.getByText(en('checkout.shipping.saveToProfile'))).toHaveCount(0);
  await deliveryMethod(guest, 'courier').check();
  await fillAddress(guest, polishAddress);
  await main.getByLabel(en('checkout.guest.email'), { exact: true }).fill('ola@');
  await main.getByLabel(en('checkout.guest.email'), { exact: true }).evaluate((input: HTMLInputElement) => input.form!.setAttribute('novalidate', ''));
  await proceedButton(guest).click();
  await expect(main.getByText(en('checkout.errors.emailInvalid'))).toBeVisible();
  await expectNoSeriousA11yViolations(guest, { label: 'a guest’s delivery step' });
  const address = email(testInfo, 'guest');
  await main.getByLabel(en('checkout.guest.email'), { exact: true }).fill(address);
  await proceedButton(guest).click();
  await expectStep(guest, 'payment');
  const id = await payAndFinish(guest, light.priceCents + COURIER, card(TEST_CARDS.success));
  const label = orderLabel(id);

  // The confirmation: a link to follow the order, and the same link in the mail.
  await guest.getByRole('link', { name: en('checkout.guest.followOrder') }).click();
  await expect(guest.getByRole('heading', { level: 1 })).toHaveText(en('orders.guest.title'));
  await expect(guest.getByTestId('order')).toContainText(en('orders.label', { label }));
  const confirmation = await mail.waitFor((m) => m.envelope.to.includes(address) && m.subject.includes(label));
  const link = /http:\/\/127\.0\.0\.1:\d+\/order\/[\w-]+\?key=[\w-]+/.exec(confirmation.text)?.[0];
  expect(link, 'the order link in the confirmation').toBeTruthy();
  expect(link).toContain(`/order/${id}?key=`);
  expect(new URL(link!).pathname + new URL(link!).search).toBe(new URL(guest.url()).pathname + new URL(guest.url()).search);
  await expectNoSeriousA11yViolations(guest, { label: 'a guest’s order page' });
  // The key is the page's secret: the page is never cached or referred on to another site.
  const page = await guest.context().request.get(new URL(link!).pathname + new URL(link!).search, { headers: { cookie: '' } });
  expect(page.headers()).toMatchObject({ 'cache-control': 'no-store', 'referrer-policy': 'same-origin' });

  // Only the key opens it: a stranger with a wrong key gets a 404 that says nothing about the order.
  const stranger = await browser.newContext({ baseURL: testInfo.project.use.baseURL! });
  const wrong = await stranger.request.get(`/order/${id}?key=${'A'.repeat(22)}`);
  expect(wrong.status()).toBe(404);
  const notFound = await wrong.text();
  for (const secret of [address, polishAddress.fullName, polishAddress.address]) expect(notFound).not.toContain(secret);
  await stranger.close();

  // Withdrawing starts with the form filled in.
  await guest.getByTestId('order').getByRole('link', { name: en('legal.withdraw') }).click();
  await expect(guest.getByLabel(en('withdrawal.fields.email'))).toHaveValue(address);
  await expect(guest.getByLabel(en('withdrawal.fields.orderNumber'))).toHaveValue(label);
  await guest.goBack();

  // One click: an account for that email with the order in it. Nobody is signed in by the click (whoever
  // checked out typed the email): the mail to it sets the first password, and then My Orders has the order.
  await guest.getByRole('button', { name: en('orders.guest.createAccount') }).click();
  await expect(guest.getByTestId('account-ready').getByRole('heading', { level: 1 })).toHaveText(en('orders.guest.readyTitle'));
  await expect(guest.getByRole('link', { name: en('nav.login') }).first()).toBeVisible();
  // The private link has done its work.
  expect((await guest.request.get(new URL(link!).pathname + new URL(link!).search)).status()).toBe(404);
  const welcome = await mail.waitFor((m) => m.envelope.to.includes(address) && m.subject === en('auth.welcomeMail.subject'));
  const setPassword = /http:\/\/127\.0\.0\.1:\d+\/auth\/reset\?token=[\w-]+/.exec(welcome.text)?.[0];
  expect(setPassword, 'the link to set a password').toBeTruthy();
  await guest.goto(new URL(setPassword!).pathname + new URL(setPassword!).search);
  await waitForHydration(guest);
  const password = `a first password ${testInfo.testId}`;
  await authField(guest, 'newPassword').fill(password);
  await submitButton(guest, 'newPassword').click();
  await expect(guest).toHaveURL(/\/auth\?mode=login&reset=done$/);
  await waitForHydration(guest);
  await fillLogIn(guest, { email: address, password });
  await submitButton(guest, 'login').click();
  await expect(guest).toHaveURL(/\/$/);
  await guest.goto('/profile?tab=orders');
  await expect(guest.getByTestId('order').first()).toContainText(en('orders.label', { label }));

  // Now an account's order: the owner's page no longer marks it a guest's.
  await owner.goto(`/admin/orders/${id}`);
  await expect(owner.getByTestId('order-guest')).toHaveCount(0);
  await owner.context().close();
  await guest.context().close();
});

test('a Polish guest whose email has an account is asked to sign in to it; the order page reads in Polish', async ({ browser, expectNoSeriousA11yViolations }, testInfo) => {
  const existing = newAccount(testInfo, 'ola.account', 'Ola Kowalska');
  const signer = await browser.newPage({ baseURL: testInfo.project.use.baseURL! });
  await signUp(signer, existing);
  await signer.context().close();

  const guest = await guestWithCart(browser, testInfo, 'pl');
  await guest.goto('/pl/checkout?step=delivery');
  await waitForHydration(guest);
  const main = guest.getByRole('main');
  await deliveryMethod(guest, 'pickup', 'pl').check();
  await main.getByLabel(pl('checkout.address.fullName'), { exact: true }).fill('Ola Kowalska');
  await main.getByLabel(pl('checkout.guest.email'), { exact: true }).fill(existing.email);
  await proceedButton(guest, 'pl').click();
  await expectStep(guest, 'payment', 'pl');
  const id = await payAndFinish(guest, light.priceCents, card(TEST_CARDS.success), 'pl');

  // The owner's page says the order came from a guest.
  const owner = await ownerPage(browser, testInfo);
  await owner.goto(`/admin/orders/${id}`);
  await expect(owner.getByTestId('order-guest')).toHaveText(en('admin.orders.guest'));
  await owner.context().close();

  await guest.getByRole('link', { name: pl('checkout.guest.followOrder') }).click();
  await expect(guest.getByRole('heading', { level: 1 })).toHaveText(pl('orders.guest.title'));
  await expect(guest.getByTestId('guest-account').getByRole('link', { name: pl('orders.guest.signInToAdd', { email: existing.email }) })).toBeVisible();
  await expect(guest.getByRole('button', { name: pl('orders.guest.createAccount') })).toHaveCount(0);
  await expectNoSeriousA11yViolations(guest, { label: 'a guest’s order page (pl)' });
  await guest.context().close();
});
