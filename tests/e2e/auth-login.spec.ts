/**
 * Logging in and out: redirectTo, the header, wrong passwords and the lock-out, switching between the three
 * forms, the session cookie, the guest cart joining the account's cart, and the admin-only product editor.
 * Failed logins in this file (they count against the shop's 30 per address): 1 + 5.
 */
import type { Page } from '@playwright/test';
import { catalogue, productName } from '../fixtures/catalogue';
import { t } from '../fixtures/i18n';
import { expect, failedLoad, test } from './fixtures';
import { addToCartByRequest, expectCartCount, waitForHydration } from './helpers';
import {
  authField,
  expectFieldError,
  expectNoFieldError,
  expectSignedIn,
  expectSignedOut,
  fillLogIn,
  googleButton,
  kopi,
  logIn,
  logOut,
  newAccount,
  sessionCookie,
  signUp,
  submitButton,
} from './accounts';

const en = t('en');
const main = (page: Page) => page.getByRole('main');
/** The form's message (the Google button's own alert follows it). */
const formAlert = (page: Page) => main(page).getByRole('alert').first();

test('a guest opening /profile logs in, comes back to it, and logs out', async ({ page, context }, testInfo) => {
  const account = newAccount(testInfo, 'ola.profile', 'Ola Kowalska');
  await signUp(page, account);
  await context.clearCookies();

  await page.goto('/profile');
  await expect(page).toHaveURL(/\/auth\?mode=login&redirectTo=%2Fprofile$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en('auth.titles.login'));
  await expectSignedOut(page);
  await waitForHydration(page);
  await fillLogIn(page, account);
  await submitButton(page, 'login').click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en('profile.title'));
  await expectSignedIn(page, account.name);

  await logOut(page);
  expect(await sessionCookie(context)).toBeUndefined();
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/auth\?mode=login&redirectTo=%2Fprofile$/);
});

test('a wrong password is refused, and switching between the forms clears every message', async ({ page, consoleErrors }, testInfo) => {
  consoleErrors.allow(failedLoad(401));
  const account = newAccount(testInfo, 'ola.switch');
  await signUp(page, account);
  await page.context().clearCookies();

  await page.goto('/auth');
  await waitForHydration(page);
  const alert = formAlert(page);
  await fillLogIn(page, { email: account.email, password: 'not my password' });
  await submitButton(page, 'login').click();
  await expect(alert).toHaveText(en('auth.errors.invalidCredentials'));
  await expect(page).toHaveURL(/\/auth\?mode=login$/);
  await expectSignedOut(page);

  await main(page).getByRole('link', { name: en('auth.links.signup'), exact: true }).click();
  await expect(page).toHaveURL(/\/auth\?mode=signup$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en('auth.titles.signup'));
  await expect(alert).toHaveText('');
  await submitButton(page, 'signup').click();
  await expectFieldError(authField(page, 'name'), en('auth.errors.nameRequired'));

  await main(page).getByRole('link', { name: en('auth.links.login'), exact: true }).click();
  await expect(page).toHaveURL(/\/auth\?mode=login$/);
  await expect(alert, 'the wrong-password message does not come back').toHaveText('');
  await expectNoFieldError(authField(page, 'email'));
  await expectNoFieldError(authField(page, 'password'));
  await submitButton(page, 'login').click();
  await expectFieldError(authField(page, 'email'), en('auth.errors.emailRequired'));
  await expectFieldError(authField(page, 'password'), en('auth.errors.passwordRequired'));

  await main(page).getByRole('link', { name: en('auth.links.forgot') }).click();
  await expect(page).toHaveURL(/\/auth\?mode=reset$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en('auth.titles.reset'));
  await expectNoFieldError(authField(page, 'email'));
  await expect(googleButton(page), 'no Google button for a password reset').toHaveCount(0);
  await authField(page, 'email').fill('not-an-email');
  await submitButton(page, 'reset').click();
  await expectFieldError(authField(page, 'email'), en('auth.errors.emailInvalid'));

  await main(page).getByRole('link', { name: en('auth.links.backToLogin') }).click();
  await expect(page).toHaveURL(/\/auth\?mode=login$/);
  await expectNoFieldError(authField(page, 'email'));
  await expect(alert).toHaveText('');

  // The right password still works after a wrong one.
  await fillLogIn(page, account);
  await submitButton(page, 'login').click();
  await expect(page).toHaveURL(/\/$/);
  await expectSignedIn(page, account.name);
});

test('five wrong passwords lock the account’s login from that address, even for the right password; elsewhere its owner signs in', async ({ page, consoleErrors }, testInfo) => {
  consoleErrors.allow(failedLoad(401));
  consoleErrors.allow(failedLoad(429));
  const account = newAccount(testInfo, 'ola.locked');
  await signUp(page, account);
  await page.context().clearCookies();

  await page.goto('/auth');
  await waitForHydration(page);
  const alert = formAlert(page);
  for (let attempt = 1; attempt <= 5; attempt++) {
    await fillLogIn(page, { email: account.email, password: `wrong password ${attempt}` });
    // The same message every time: wait for this attempt's answer, not the last one's.
    const answered = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname.startsWith('/auth'));
    await submitButton(page, 'login').click();
    await answered;
    await expect(alert).toHaveText(en('auth.errors.invalidCredentials'));
  }
  await fillLogIn(page, { email: account.email, password: 'wrong password 6' });
  await submitButton(page, 'login').click();
  await expect(alert).toHaveText(en('auth.errors.tooManyAttempts'));

  await page.reload();
  await waitForHydration(page);
  await fillLogIn(page, account);
  await submitButton(page, 'login').click();
  await expect(alert).toHaveText(en('auth.errors.tooManyAttempts'));
  await expectSignedOut(page);

  // Someone else's guesses must not lock the owner out: from another address the right password works.
  await page.context().setExtraHTTPHeaders({ 'x-forwarded-for': '192.0.2.200' });
  await page.reload();
  await waitForHydration(page);
  await fillLogIn(page, account);
  await submitButton(page, 'login').click();
  await expect(page).toHaveURL(/\/$/);
  await expectSignedIn(page, account.name);
});

test('the session cookie is httpOnly and SameSite=Lax, and every sign-in replaces it', async ({ page, context, browser, baseURL }, testInfo) => {
  const account = newAccount(testInfo, 'ola.cookie');
  await page.goto('/');
  expect(await sessionCookie(context), 'a guest has no session').toBeUndefined();
  await signUp(page, account, { via: 'page' });
  const first = await sessionCookie(context);
  expect(first).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: false, path: '/', domain: '127.0.0.1' });

  // A new login in the same browser: a new session, and the old one ends.
  await logIn(page, account);
  const second = await sessionCookie(context);
  expect(second?.value).toBeTruthy();
  expect(second?.value).not.toBe(first?.value);
  await page.goto('/profile');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en('profile.title'));

  const stale = await browser.newContext({ baseURL });
  try {
    await stale.addCookies([first!]);
    const other = await stale.newPage();
    await other.goto('/profile');
    await expect(other).toHaveURL(/\/auth\?mode=login&redirectTo=%2Fprofile$/);
  } finally {
    await stale.close();
  }
});

test('signing in adds the guest cart to the account’s cart; logging out starts an empty guest cart', async ({ page, productPath }, testInfo) => {
  const [both, guestOnly] = catalogue;
  const account = newAccount(testInfo, 'ola.cart', 'Ola Koszyk');
  await signUp(page, account);
  await addToCartByRequest(page, productPath(both), 2);
  await page.goto('/');
  await expectCartCount(page, 2);
  await logOut(page);
  await expectCartCount(page, 0);

  await addToCartByRequest(page, productPath(both), 1);
  await addToCartByRequest(page, productPath(guestOnly), 1);
  await page.goto('/cart');
  await expectCartCount(page, 2);
  await page.getByRole('banner').getByRole('link', { name: en('nav.login'), exact: true }).click();
  await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fcart$/);
  await waitForHydration(page);
  await fillLogIn(page, account);
  await submitButton(page, 'login').click();

  await expect(page).toHaveURL(/\/cart$/);
  await expectSignedIn(page, account.name);
  await expectCartCount(page, 4);
  const quantity = (name: string) =>
    page.getByTestId('cart-line').filter({ has: page.getByRole('heading', { name, exact: true }) }).getByTestId('line-quantity');
  await expect(page.getByTestId('cart-line')).toHaveCount(2);
  await expect(quantity(productName(both, 'en'))).toHaveText('3');
  await expect(quantity(productName(guestOnly, 'en'))).toHaveText('1');

  await logOut(page);
  await expectCartCount(page, 0);
  await page.goto('/cart');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en('cart.empty.title'));

  // The account keeps its cart for the next sign-in.
  await logIn(page, account);
  await page.goto('/');
  await expectCartCount(page, 4);
});

test('the product editor sends guests and customers home; an admin made with `kopi grant-admin` stays', async ({ page, consoleErrors }, testInfo) => {
  await page.goto('/edit-product/x');
  await expect(page).toHaveURL(/\/$/);

  const account = newAccount(testInfo, 'ola.admin', 'Ola Admin');
  await signUp(page, account);
  await page.goto('/edit-product/x');
  await expect(page).toHaveURL(/\/$/);
  await expectSignedIn(page, account.name);

  expect(await kopi('grant-admin', '--email', account.email)).toContain(`${account.email} is now an admin.`);
  // An admin stays on the editor, which says the product does not exist.
  consoleErrors.allow(failedLoad(404));
  const response = await page.goto('/edit-product/x');
  expect(response?.status()).toBe(404);
  await expect(page).toHaveURL(/\/edit-product\/x$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en('admin.productForm.notFound'));
  await expectSignedIn(page, account.name);
});
