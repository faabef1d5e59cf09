/**
 * Accounts in the journeys: fresh customers per test, signing up and in (through the page, or through the
 * form endpoint when the journey is about something else), the header's signed-in state, the session cookie,
 * "Continue with Google" against the e2e server's OpenID Connect provider (tests/setup/oidc-provider.js),
 * and the `kopi` command on the e2e server's data directory.
 *
 * Every failed login counts against the shop's limit of 30 per address in 15 minutes, and all journeys come
 * from 127.0.0.1: a spec that fails a login on purpose says how many times in its header comment.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type BrowserContext, type Cookie, type Locator, type Page, type TestInfo, expect, test } from '@playwright/test';
import { type Locale, escapeRegExp, t } from '../fixtures/i18n';
import { waitForHydration } from './helpers';
import { e2eDataDirOf, portOf } from '../setup/ports.js';

export type Account = { name: string; email: string; password: string };

const root = fileURLToPath(new URL('../..', import.meta.url));
/** The DATA_DIR of the shop this test's project runs against (tests/setup/start-server.js). */
export const e2eDataDir = (): string => e2eDataDirOf(portOf(test.info().project.use.baseURL!));
export const SESSION_COOKIE = 'kopi_session';

let counter = 0;
/**
 * Details for an account nobody has yet: `${label}+<test id>-<retry>-<n>@example.test`, so reruns and
 * retries against the same server never meet an existing account.
 */
export function newAccount(testInfo: TestInfo, label = 'ola', name = 'Ola'): Account {
  const id = `${testInfo.testId}-${testInfo.retry}-${++counter}`;
  return { name, email: `${label}+${id}@example.test`, password: `correct horse ${id}` };
}

/** A field of the account forms (/auth, /auth/reset), by its label. */
export const authField = (page: Page, key: 'name' | 'email' | 'password' | 'newPassword', locale: Locale = 'en'): Locator =>
  page.getByRole('main').getByLabel(t(locale)(`auth.fields.${key}`), { exact: true });

export const submitButton = (page: Page, mode: 'login' | 'signup' | 'reset' | 'newPassword', locale: Locale = 'en'): Locator =>
  page.getByRole('main').getByRole('button', { name: t(locale)(`auth.submit.${mode}`), exact: true });

/**
 * Creates the account and signs the page's browser context in. `via: 'request'` posts the sign-up form
 * (the context's cookies go with it and the session cookie comes back into the context); `via: 'page'` fills
 * the form on /auth as a visitor would and waits for the greeting.
 */
export async function signUp(page: Page, account: Account, { via = 'request' }: { via?: 'request' | 'page' } = {}): Promise<void> {
  if (via === 'page') {
    await page.goto('/auth?mode=signup');
    await waitForHydration(page);
    await authField(page, 'name').fill(account.name);
    await authField(page, 'email').fill(account.email);
    await authField(page, 'password').fill(account.password);
    await submitButton(page, 'signup').click();
    await expectSignedIn(page, account.name);
    return;
  }
  await postAuthForm(page, 'signup', { name: account.name, email: account.email, password: account.password });
}

/** Logs the context in through the login form's endpoint (also when it is signed in already: a new session). */
export async function logIn(page: Page, account: Pick<Account, 'email' | 'password'>): Promise<void> {
  await postAuthForm(page, 'login', { email: account.email, password: account.password });
}

export async function fillLogIn(page: Page, account: Pick<Account, 'email' | 'password'>, locale: Locale = 'en'): Promise<void> {
  await authField(page, 'email', locale).fill(account.email);
  await authField(page, 'password', locale).fill(account.password);
}

async function postAuthForm(page: Page, mode: 'signup' | 'login', fields: Record<string, string>): Promise<void> {
  const origin = new URL(test.info().project.use.baseURL!).origin;
  const response = await page.request.post(`/auth?mode=${mode}`, {
    form: { intent: mode, redirectTo: '/', ...fields },
    headers: { Origin: origin },
    maxRedirects: 0,
  });
  expect(response.status(), `${mode} for ${fields.email} should redirect (it answered ${response.status()})`).toBe(302);
  expect(response.headers()['set-cookie'] ?? '').toContain(`${SESSION_COOKIE}=`);
}

/** The field shows `message` as its error (its accessible description starts with it; a hint may follow). */
export async function expectFieldError(field: Locator, message: string): Promise<void> {
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toHaveAccessibleDescription(new RegExp(`^${escapeRegExp(message)}`));
}

export async function expectNoFieldError(field: Locator): Promise<void> {
  await expect(field).not.toHaveAttribute('aria-invalid', 'true');
}

const banner = (page: Page) => page.getByRole('banner');

/** The header of a signed-in visitor: "Hi, {first name}", Profile and Log out; no Log in or Sign up. */
export async function expectSignedIn(page: Page, name: string, locale: Locale = 'en'): Promise<void> {
  const tr = t(locale);
  await expect(banner(page).getByTestId('greeting')).toHaveText(tr('nav.greeting', { name: name.trim().split(/\s+/)[0] }));
  await expect(banner(page).getByTestId('greeting')).toBeVisible();
  await expect(banner(page).getByRole('link', { name: tr('nav.profile'), exact: true })).toBeVisible();
  await expect(logOutButton(page, locale)).toBeVisible();
  await expect(banner(page).getByRole('link', { name: tr('nav.login'), exact: true })).toHaveCount(0);
}

/** The header of a guest: Log in and Sign up; no greeting, Profile or Log out. */
export async function expectSignedOut(page: Page, locale: Locale = 'en'): Promise<void> {
  const tr = t(locale);
  await expect(banner(page).getByRole('link', { name: tr('nav.login'), exact: true })).toBeVisible();
  await expect(banner(page).getByRole('link', { name: tr('nav.signup'), exact: true })).toBeVisible();
  await expect(logOutButton(page, locale)).toHaveCount(0);
  await expect(banner(page).getByRole('link', { name: tr('nav.profile'), exact: true })).toHaveCount(0);
}

export const logOutButton = (page: Page, locale: Locale = 'en'): Locator =>
  banner(page).getByRole('button', { name: t(locale)('nav.logout'), exact: true });

/** Logs out with the header's button and waits for the guest header. */
export async function logOut(page: Page, locale: Locale = 'en'): Promise<void> {
  await logOutButton(page, locale).click();
  await expect(page).toHaveURL(/\/$/);
  await expectSignedOut(page, locale);
}

/** The context's session cookie, or undefined. */
export async function sessionCookie(context: BrowserContext): Promise<Cookie | undefined> {
  return (await context.cookies()).find((c) => c.name === SESSION_COOKIE);
}

// --- Continue with Google ---------------------------------------------------------------------------------

/** The name the e2e provider gives `login` (as tests/setup/oidc-provider.js `claimsFor` does). */
export function googleName(login: string): string {
  return login
    .split('@')[0]
    .split('+')[0]
    .split(/[._-]+/)
    .filter(Boolean)
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join(' ');
}

export const googleButton = (page: Page, locale: Locale = 'en'): Locator =>
  page.getByRole('main').getByRole('link', { name: t(locale)('auth.google'), exact: true });

const offline = new WeakSet<BrowserContext>();
/** The provider's development pages import a web font from Google; the journeys stay offline. */
export async function keepProviderOffline(context: BrowserContext): Promise<void> {
  if (offline.has(context)) return;
  offline.add(context);
  await context.route('https://fonts.googleapis.com/**', (route) => route.fulfill({ contentType: 'text/css', body: '' }));
}

/** Clicks "Continue with Google" and returns the popup showing the provider's sign-in form. */
export async function openGooglePopup(page: Page, locale: Locale = 'en'): Promise<Page> {
  await keepProviderOffline(page.context());
  const popupOpened = page.waitForEvent('popup');
  await googleButton(page, locale).click();
  const popup = await popupOpened;
  await expect(popup.getByRole('heading', { name: 'Sign-in' })).toBeVisible();
  return popup;
}

/**
 * The whole popup round: the provider's login form (any login, any password), its consent page, and the
 * callback page that tells the opener and closes the popup.
 */
export async function signInWithGoogle(page: Page, login: string, locale: Locale = 'en'): Promise<void> {
  const popup = await openGooglePopup(page, locale);
  await popup.getByRole('textbox', { name: 'Enter any login' }).fill(login);
  await popup.getByPlaceholder('and password').fill('any password');
  await popup.getByRole('button', { name: 'Sign-in' }).click();
  const closed = popup.waitForEvent('close');
  await popup.getByRole('button', { name: 'Continue' }).click();
  await closed;
}

// --- the kopi command -------------------------------------------------------------------------------------

const run = promisify(execFile);

/** Runs the `kopi` command (`npm run kopi -- …args`, on this Node without npm around it) on the test's shop's database; resolves with its output. */
export async function kopi(...args: string[]): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: e2eDataDir(), LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  const { stdout } = await run(process.execPath, ['cli/kopi.js', ...args], { cwd: root, env });
  return stdout.trim();
}
