/** Creating an account: every validation message (in the browser, and from the server without JavaScript). */
import type { Page } from '@playwright/test';
import { MIN_PASSWORD_LENGTH } from '../../app/modules/accounts/accounts.schema';
import { t } from '../fixtures/i18n';
import { expect, failedLoad, test } from './fixtures';
import { waitForHydration } from './helpers';
import {
  authField,
  expectFieldError,
  expectNoFieldError,
  expectSignedIn,
  expectSignedOut,
  newAccount,
  sessionCookie,
  signUp,
  submitButton,
} from './accounts';

const en = t('en');
const pl = t('pl');
const error = (key: string) => en(`auth.errors.${key}`);

async function fillSignUp(page: Page, values: { name: string; email: string; password: string }, locale: 'en' | 'pl' = 'en') {
  await authField(page, 'name', locale).fill(values.name);
  await authField(page, 'email', locale).fill(values.email);
  await authField(page, 'password', locale).fill(values.password);
}

test('every field is checked in the browser, then the account is created and signed in', async ({ page, context }, testInfo) => {
  const account = newAccount(testInfo, 'ola.signup', 'Ola Nowak');
  const [name, email, password] = [authField(page, 'name'), authField(page, 'email'), authField(page, 'password')];
  await page.goto('/auth?mode=signup&redirectTo=%2Fcategories');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en('auth.titles.signup'));
  await waitForHydration(page);
  await expect(password).toHaveAccessibleDescription(en('auth.passwordHint', { count: MIN_PASSWORD_LENGTH }));

  await submitButton(page, 'signup').click();
  await expectFieldError(name, error('nameRequired'));
  await expectFieldError(email, error('emailRequired'));
  await expectFieldError(password, error('passwordRequired'));
  await expect(name, 'the first invalid field gets focus').toBeFocused();

  await fillSignUp(page, { name: '   ', email: 'ola@', password: 'short' });
  await submitButton(page, 'signup').click();
  await expectFieldError(name, error('nameRequired'));
  await expectFieldError(email, error('emailInvalid'));
  await expectFieldError(password, error('passwordTooShort'));

  // The inputs' maxlength keeps a visitor from typing more; the checks behind them still answer.
  for (const field of [name, email, password]) await field.evaluate((input) => input.removeAttribute('maxlength'));
  await fillSignUp(page, { name: 'N'.repeat(101), email: `${'a'.repeat(243)}@example.test`, password: 'p'.repeat(201) });
  await submitButton(page, 'signup').click();
  await expectFieldError(name, error('nameTooLong'));
  await expectFieldError(email, error('emailTooLong'));
  await expectFieldError(password, error('passwordTooLong'));

  await fillSignUp(page, account);
  expect(await sessionCookie(context), 'a guest has no session').toBeUndefined();
  await submitButton(page, 'signup').click();
  await expect(page).toHaveURL(/\/categories$/);
  await expectSignedIn(page, account.name);

  const cookie = await sessionCookie(context);
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: false, path: '/' });
  expect(cookie!.expires - Date.now() / 1000, 'the session lasts 30 days').toBeGreaterThan(29 * 24 * 3600);

  // Signed in, /auth goes straight on to redirectTo.
  await page.goto('/auth?mode=signup&redirectTo=%2Fcart');
  await expect(page).toHaveURL(/\/cart$/);
});

test('an email that already has an account is refused by the server', async ({ page, context, consoleErrors }, testInfo) => {
  consoleErrors.allow(failedLoad(409));
  const account = newAccount(testInfo, 'ola.taken');
  await signUp(page, account);
  await context.clearCookies();

  await page.goto('/auth?mode=signup');
  await waitForHydration(page);
  await fillSignUp(page, { name: 'Another Ola', email: account.email.toUpperCase(), password: 'another password' });
  await submitButton(page, 'signup').click();
  await expectFieldError(authField(page, 'email'), error('emailInUse'));
  await expectNoFieldError(authField(page, 'name'));
  await expect(authField(page, 'name'), 'what was typed stays').toHaveValue('Another Ola');
  await expect(authField(page, 'email')).toHaveValue(account.email.toUpperCase());
  await expectSignedOut(page);
});

test.describe('without JavaScript, in Polish', () => {
  test.use({ javaScriptEnabled: false, language: 'pl' });

  test('the server answers with the same messages, and the sign-up works', async ({ page, consoleErrors }, testInfo) => {
    consoleErrors.allow(failedLoad(400));
    const account = newAccount(testInfo, 'zofia.nojs', 'Zofia Wójcik-Grzegorzewska');
    const perr = (key: string) => pl(`auth.errors.${key}`);
    const [name, email, password] = [authField(page, 'name', 'pl'), authField(page, 'email', 'pl'), authField(page, 'password', 'pl')];
    await page.goto('/auth?mode=signup');
    await submitButton(page, 'signup', 'pl').click();
    await expect(page).toHaveURL(/\/auth\?mode=signup$/);
    await expectFieldError(name, perr('nameRequired'));
    await expectFieldError(email, perr('emailRequired'));
    await expectFieldError(password, perr('passwordRequired'));

    await fillSignUp(page, { name: account.name, email: 'zofia@example', password: 'krótkie' }, 'pl');
    await submitButton(page, 'signup', 'pl').click();
    await expectNoFieldError(name);
    await expect(name).toHaveValue(account.name);
    await expectFieldError(email, perr('emailInvalid'));
    await expectFieldError(password, perr('passwordTooShort'));

    await fillSignUp(page, account, 'pl');
    await submitButton(page, 'signup', 'pl').click();
    await expect(page, 'the Polish home page').toHaveURL(/\/pl$/);
    await expectSignedIn(page, account.name, 'pl');
    // Greeted by her first name only, not the whole of a long one.
    await expect(page.getByRole('banner').getByTestId('greeting')).toHaveText(pl('nav.greeting', { name: 'Zofia' }));
  });
});
