/**
 * "Continue with Google" against a real OpenID Connect provider (oidc-provider with its development login
 * form, started by tests/setup/start-server.js): in a popup, and as a plain link without JavaScript; and the sign-in
 * asked for again before a Google-only account is deleted.
 * Whether the button hides without GOOGLE_CLIENT_ID cannot be seen here: the e2e server always sets it.
 */
import { t } from '../fixtures/i18n';
import { expect, failedLoad, test } from './fixtures';
import { expectCartCount, waitForHydration } from './helpers';
import {
  expectSignedIn,
  expectSignedOut,
  googleButton,
  googleName,
  keepProviderOffline,
  logOut,
  newAccount,
  openGooglePopup,
  signInWithGoogle,
  signUp,
} from './accounts';

const en = t('en');
const cancelled = en('auth.errors.googleCancelled');

test.describe('in a popup', () => {
  test('a first sign-in creates a customer account and returns to redirectTo, signed in', async ({ page, context }, testInfo) => {
    const login = `gosia.kowal+${testInfo.testId}-${testInfo.retry}`;
    await page.goto('/auth?redirectTo=%2Fcart');
    await waitForHydration(page);
    await expect(googleButton(page)).toHaveAttribute('href', '/auth/google?redirectTo=%2Fcart');

    await signInWithGoogle(page, login);
    await expect(page).toHaveURL(/\/cart$/);
    await expectSignedIn(page, googleName(login));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(en('cart.empty.title'));
    expect((await context.cookies()).map((c) => c.name), 'the sign-in state cookie is spent').not.toContain('kopi_oidc');

    await page.goto('/profile');
    await expect(page.getByText(en('profile.signedInAs', { name: googleName(login), email: `${login}@example.test` }))).toBeVisible();

    // A customer, not an admin: the product editor sends it home.
    await page.goto('/edit-product/x');
    await expect(page).toHaveURL(/\/$/);
    await expectSignedIn(page, googleName(login));
  });

  test('a Google account with the email of a password account signs in to that account', async ({ page }, testInfo) => {
    const account = newAccount(testInfo, 'ola.linked', 'Ola Linked');
    await signUp(page, account);
    await page.goto('/');
    await logOut(page);

    await page.goto('/auth');
    await waitForHydration(page);
    await signInWithGoogle(page, account.email);
    await expect(page).toHaveURL(/\/$/);
    await expectSignedIn(page, account.name);
  });

  test('cancelling at the provider says the sign-in was cancelled', async ({ page }) => {
    await page.goto('/auth');
    await waitForHydration(page);
    const popup = await openGooglePopup(page);
    const closed = popup.waitForEvent('close');
    await popup.getByRole('link', { name: '[ Cancel ]' }).click();
    await closed;
    await expect(page.getByRole('alert').filter({ hasText: cancelled })).toBeVisible();
    await expect(page).toHaveURL(/\/auth$/);
    await expectSignedOut(page);
  });

  test('closing the popup says the sign-in was cancelled', async ({ page }) => {
    await page.goto('/auth?mode=signup');
    await waitForHydration(page);
    const alert = page.getByRole('alert').filter({ hasText: cancelled });
    const popup = await openGooglePopup(page);
    await popup.getByRole('textbox', { name: 'Enter any login' }).fill('changed.my.mind');
    await expect(alert, 'nothing is said while the popup is open').toHaveCount(0);
    await popup.close();
    await expect(alert).toBeVisible();
    await expect(page).toHaveURL(/\/auth\?mode=signup$/);
    await expectSignedOut(page);
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test.beforeEach(async ({ context }) => keepProviderOffline(context));

  test('the button is a link: a first sign-in in the tab creates a customer account and returns to redirectTo', async ({ page }, testInfo) => {
    const login = `jan.nowak+${testInfo.testId}-${testInfo.retry}`;
    await page.goto('/auth?mode=signup&redirectTo=%2Fcategories');
    await googleButton(page).click();
    await page.getByRole('textbox', { name: 'Enter any login' }).fill(login);
    await page.getByPlaceholder('and password').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/categories$/);
    await expectSignedIn(page, googleName(login));
    await expectCartCount(page, 0);

    // The new account is a customer: the product editor sends it home.
    await page.goto('/edit-product/x');
    await expect(page).toHaveURL(/\/$/);
    await expectSignedIn(page, googleName(login));
  });

  test('cancelling at the provider comes back to the sign-in page with the message', async ({ page }) => {
    await page.goto('/auth?redirectTo=%2Fcart');
    await googleButton(page).click();
    await page.getByRole('link', { name: '[ Cancel ]' }).click();
    await expect(page).toHaveURL(/\/auth\?error=cancelled&redirectTo=%2Fcart$/);
    await expect(page.getByRole('alert').filter({ hasText: cancelled })).toBeVisible();
    await expectSignedOut(page);
  });
});

test('deleting a Google-only account needs a sign-in asked for again at Google: the ordinary one a moment ago does not count', async ({ page, consoleErrors }, testInfo) => {
  consoleErrors.allow(failedLoad(400));
  const login = `kasia.wrona+${testInfo.testId}-${testInfo.retry}`;
  await page.goto('/auth?redirectTo=%2Fprofile%2Fdelete');
  await waitForHydration(page);
  await signInWithGoogle(page, login);
  await expect(page).toHaveURL(/\/profile\/delete$/);
  await expectSignedIn(page, googleName(login));

  // Signed in seconds ago, but through the provider's own session as far as the shop can tell: asked to confirm.
  const main = page.getByRole('main');
  await expect(main.getByText(en('privacy.delete.reauth'))).toBeVisible();
  await expect(main.getByLabel(en('privacy.delete.password'))).toHaveCount(0);
  await waitForHydration(page);
  await main.getByLabel(en('privacy.delete.confirm')).check();
  await main.getByRole('button', { name: en('privacy.delete.submit') }).click();
  await expect(main.getByRole('alert')).toContainText(en('privacy.delete.errors.reauth'));

  // "Sign in again with Google": the provider asks for the login again (prompt=login), and back here it counts.
  await keepProviderOffline(page.context());
  await main.getByRole('link', { name: en('privacy.delete.reauthButton') }).click();
  await page.getByRole('textbox', { name: 'Enter any login' }).fill(login);
  await page.getByPlaceholder('and password').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  // The provider remembers the consent given at the first sign-in: straight back to the shop.
  await expect(page).toHaveURL(/\/profile\/delete$/);
  await expect(main.getByText(en('privacy.delete.reauthFresh'))).toBeVisible();
  await waitForHydration(page);
  await main.getByLabel(en('privacy.delete.confirm')).check();
  await main.getByRole('button', { name: en('privacy.delete.submit') }).click();
  await expect(page.getByTestId('account-deleted')).toHaveText(en('privacy.delete.done'));
  await page.goto('/profile');
  await expectSignedOut(page);
});
