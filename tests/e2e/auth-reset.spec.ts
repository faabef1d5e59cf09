/**
 * Password reset through the mail the shop sends, caught by an SMTP server in this process (on the port beside the shop, tests/setup/ports.js).
 * The catcher holds a fixed port, so this file runs in the `mail` project (playwright.config.ts), one test at
 * a time. Reset requests in this file (the shop allows 30 per address an hour): 3.
 */
import { t } from '../fixtures/i18n';
import { type MailCatcher, startMailCatcher } from '../fixtures/smtp';
import { expect, test } from './fixtures';
import { waitForHydration } from './helpers';
import {
  authField,
  expectFieldError,
  expectSignedIn,
  fillLogIn,
  newAccount,
  signUp,
  submitButton,
} from './accounts';

const en = t('en');
const pl = t('pl');

// Tests of this file run in order in one worker, around one catcher.
test.describe.configure({ mode: 'default' });

let mail: MailCatcher;
test.beforeAll(async () => {
  mail = await startMailCatcher();
});
test.afterAll(async () => {
  await mail?.close();
});

const resetLinkIn = (text: string): string => {
  const link = /https?:\/\/\S+\/auth\/reset\?token=[\w-]+/.exec(text)?.[0];
  if (!link) throw new Error(`No reset link in the mail:\n${text}`);
  return link;
};

test('a reset link from the mail sets a new password once and ends every other session', async ({ page, browser, baseURL }, testInfo) => {
  const account = newAccount(testInfo, 'ola.reset', 'Ola Reset');
  const newPassword = `a brand new password ${testInfo.testId}`;

  // Another browser, signed in before the reset.
  const other = await browser.newContext({ baseURL });
  const otherPage = await other.newPage();
  await signUp(otherPage, account);
  await otherPage.goto('/profile');
  await expect(otherPage.getByRole('heading', { level: 1 })).toHaveText(en('profile.title'));

  await page.goto('/auth');
  await waitForHydration(page);
  await page.getByRole('main').getByRole('link', { name: en('auth.links.forgot') }).click();
  await expect(page).toHaveURL(/\/auth\?mode=reset$/);
  await expect(page.getByText(en('auth.intros.reset'))).toBeVisible();
  await authField(page, 'email').fill(account.email.toUpperCase());
  await submitButton(page, 'reset').click();
  await expect(page.getByRole('status')).toHaveText(en('auth.resetSent'));
  await expect(submitButton(page, 'reset'), 'the form gives way to the message').toHaveCount(0);

  const received = await mail.waitFor((m) => m.envelope.to.includes(account.email));
  expect(received.subject).toBe(en('auth.resetMail.subject'));
  expect(received.text).toContain(en('auth.resetMail.greeting', { name: account.name }));
  const link = resetLinkIn(received.text);
  expect(new URL(link).origin).toBe(baseURL);
  expect(received.html).toContain(link);

  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en('auth.titles.newPassword'));
  await waitForHydration(page);
  await submitButton(page, 'newPassword').click();
  await expectFieldError(authField(page, 'newPassword'), en('auth.errors.passwordRequired'));
  await authField(page, 'newPassword').fill('short');
  await submitButton(page, 'newPassword').click();
  await expectFieldError(authField(page, 'newPassword'), en('auth.errors.passwordTooShort'));
  await authField(page, 'newPassword').fill(newPassword);
  await submitButton(page, 'newPassword').click();

  await expect(page).toHaveURL(/\/auth\?mode=login&reset=done$/);
  await expect(page.getByRole('status')).toHaveText(en('auth.resetDone'));
  await waitForHydration(page);
  await fillLogIn(page, { email: account.email, password: newPassword });
  await submitButton(page, 'login').click();
  await expect(page).toHaveURL(/\/$/);
  await expectSignedIn(page, account.name);

  // The session from before the reset is over.
  await otherPage.goto('/profile');
  await expect(otherPage).toHaveURL(/\/auth\?mode=login&redirectTo=%2Fprofile$/);
  await other.close();

  // The link worked once.
  await page.goto(link);
  await expect(page.getByRole('alert')).toHaveText(en('auth.errors.invalidResetLink'));
  await expect(authField(page, 'newPassword')).toHaveCount(0);
  await expect(page.getByRole('main').getByRole('link', { name: en('auth.links.requestNew') })).toHaveAttribute('href', '/auth?mode=reset');
});

test.describe('in Polish', () => {
  test.use({ language: 'pl' });

  test('an unknown address gets the same answer and no mail', async ({ page, baseURL }, testInfo) => {
    const unknown = newAccount(testInfo, 'nikt').email;
    const known = newAccount(testInfo, 'ola.znana', 'Ola Znana');
    await page.goto('/auth?mode=reset');
    await waitForHydration(page);
    await authField(page, 'email', 'pl').fill(unknown);
    await submitButton(page, 'reset', 'pl').click();
    await expect(page.getByRole('status')).toHaveText(pl('auth.resetSent'));

    // Then a request for a known address: once its mail is here, the outbox is through both requests.
    await signUp(page, known);
    const asked = await page.request.post('/pl/auth?mode=reset', { form: { intent: 'reset', email: known.email }, headers: { Origin: baseURL! } });
    expect(asked.status()).toBe(200);
    const received = await mail.waitFor((m) => m.envelope.to.includes(known.email));
    expect(received.subject, 'the mail speaks the language of the request').toBe(pl('auth.resetMail.subject'));
    expect(mail.messages.filter((m) => m.envelope.to.includes(unknown) || m.raw.includes(unknown))).toEqual([]);
  });
});

test('an invalid link says so', async ({ page }) => {
  await page.goto('/auth/reset?token=not-a-real-token');
  await expect(page.getByRole('alert')).toHaveText(en('auth.errors.invalidResetLink'));
  await page.getByRole('main').getByRole('link', { name: en('auth.links.requestNew') }).click();
  await expect(page).toHaveURL(/\/auth\?mode=reset$/);
});
