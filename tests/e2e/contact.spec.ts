import type { Page } from '@playwright/test';
import { t } from '../fixtures/i18n';
import { type MailCatcher, startMailCatcher } from '../fixtures/smtp';
import { expect, failedLoad, test } from './fixtures';
import { waitForHydration } from './helpers';
import { newAccount, signUp } from './accounts';

const en = t('en');
const pl = t('pl');
const CONTACT_TO = 'shop@kopi.test';

// One SMTP server on a fixed port for the whole file: run its tests one after another in one worker.
test.describe.configure({ mode: 'serial' });

let mail: MailCatcher;
test.beforeAll(async () => {
  mail = await startMailCatcher();
});
test.afterAll(async () => {
  await mail?.close();
});

const field = (page: Page, label: string) => page.getByRole('main').getByLabel(label, { exact: true });

async function fillContactForm(page: Page, locale: 'en' | 'pl', values: { name: string; email: string; subject: string; message: string }) {
  const tr = t(locale);
  await field(page, tr('contact.form.name')).fill(values.name);
  await field(page, tr('contact.form.email')).fill(values.email);
  await field(page, tr('contact.form.subject')).fill(values.subject);
  await field(page, tr('contact.form.message')).fill(values.message);
}

test('required fields and a valid email are checked, with the errors tied to their fields', async ({ page }) => {
  await page.goto('/contact');
  await waitForHydration(page);
  await page.getByRole('button', { name: en('contact.form.send') }).click();

  for (const [name, error] of [
    ['name', 'nameRequired'],
    ['email', 'emailRequired'],
    ['subject', 'subjectRequired'],
    ['message', 'messageRequired'],
  ] as const) {
    const input = field(page, en(`contact.form.${name}`));
    await expect(input).toHaveAttribute('aria-invalid', 'true');
    await expect(input).toHaveAccessibleDescription(en(`contact.errors.${error}`));
  }
  await expect(field(page, en('contact.form.name')), 'the first invalid field gets focus').toBeFocused();

  await fillContactForm(page, 'en', { name: 'Ada', email: 'not-an-email', subject: 'Hello', message: 'Hi' });
  await page.getByRole('button', { name: en('contact.form.send') }).click();
  await expect(field(page, en('contact.form.email'))).toHaveAccessibleDescription(en('contact.errors.emailInvalid'));
  await expect(field(page, en('contact.form.email'))).toBeFocused();
  await expect(field(page, en('contact.form.name'))).not.toHaveAttribute('aria-invalid', 'true');
  expect(mail.messages.filter((m) => m.text.includes('not-an-email'))).toHaveLength(0);
});

test('on a phone, a signed-in customer finds their name and email filled in, and is taken to the confirmation', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 390, height: 780 });
  const account = newAccount(testInfo, 'zofia.contact', 'Zofia Wójcik');
  await signUp(page, account);
  await page.goto('/pl/contact');
  await waitForHydration(page);
  await expect(field(page, pl('contact.form.name'))).toHaveValue('Zofia Wójcik');
  await expect(field(page, pl('contact.form.email'))).toHaveValue(account.email);
  await field(page, pl('contact.form.subject')).fill('Palenie na zamówienie');
  await field(page, pl('contact.form.message')).fill(`Czy palicie 5 kg na raz? (${testInfo.testId})`);
  await page.getByRole('button', { name: pl('contact.form.send') }).click();
  const confirmation = page.getByTestId('contact-success');
  await expect(confirmation).toHaveText(pl('contact.success'));
  await expect(confirmation).toBeFocused();
  await expect(confirmation).toBeInViewport({ ratio: 1 });
  // Ready for another message: who they are stays, what they wrote is gone.
  await expect(field(page, pl('contact.form.email'))).toHaveValue(account.email);
  await expect(field(page, pl('contact.form.subject'))).toHaveValue('');
  await mail.waitFor((m) => m.text.includes(testInfo.testId));
});

test('a message is sent: thank-you text, the form clears, and the shop receives the mail over SMTP', async ({ page }) => {
  const stamp = `${Date.now()}`;
  const values = {
    name: 'Zofia Kowalska',
    email: `zofia.${stamp}@example.com`,
    subject: `Wholesale for our café ${stamp}`,
    message: `Hello! Do you sell 5 kg bags of the Gayo natural?\nThanks, Zofia (${stamp})`,
  };
  await page.goto('/contact');
  await waitForHydration(page);
  await fillContactForm(page, 'en', values);
  await page.getByRole('button', { name: en('contact.form.send') }).click();

  await expect(page.getByRole('status').filter({ hasText: en('contact.success') })).toBeVisible();
  await expect(page.getByText(en('contact.success'), { exact: true })).toBeVisible();
  for (const label of ['name', 'email', 'subject', 'message']) await expect(field(page, en(`contact.form.${label}`))).toHaveValue('');

  const received = await mail.waitFor((m) => m.subject.includes(stamp));
  expect(received.envelope.to).toEqual([CONTACT_TO]);
  expect(received.envelope.from).toBe('hello@kopi.test');
  expect(received.to).toContain(CONTACT_TO);
  expect(received.subject).toBe(`[Kopi contact] ${values.subject}`);
  expect(received.replyTo).toContain(values.email);
  expect(received.text).toContain(values.message);
  expect(received.text).toContain(`Name: ${values.name}`);
  expect(received.html).toContain('Zofia Kowalska');
});

test.describe('in Polish, without JavaScript', () => {
  test.use({ javaScriptEnabled: false, language: 'pl' });

  test('the form posts, shows the thank-you text and the mail arrives', async ({ page, consoleErrors }) => {
    consoleErrors.allow(failedLoad(400)); // the invalid post is answered with 400
    const stamp = `${Date.now()}`;
    await page.goto('/contact');
    await page.getByRole('button', { name: pl('contact.form.send') }).click();
    await expect(field(page, pl('contact.form.email')), 'server-side validation').toHaveAccessibleDescription(pl('contact.errors.emailRequired'));

    await fillContactForm(page, 'pl', {
      name: 'Łukasz Żółć',
      email: `lukasz.${stamp}@example.pl`,
      subject: `Pytanie o kawę ${stamp}`,
      message: `Dzień dobry, czy wysyłacie do Gdańska? ${stamp}`,
    });
    await page.getByRole('button', { name: pl('contact.form.send') }).click();
    await expect(page.getByText(pl('contact.success'), { exact: true })).toBeVisible();
    await expect(field(page, pl('contact.form.name'))).toHaveValue('');

    const received = await mail.waitFor((m) => m.subject.includes(stamp));
    expect(received.subject).toBe(`[Kopi contact] Pytanie o kawę ${stamp}`);
    expect(received.text).toContain(`Dzień dobry, czy wysyłacie do Gdańska? ${stamp}`);
    expect(received.text).toContain('Name: Łukasz Żółć');
    expect(received.text).toContain('Language: Polish (pl)');
  });
});
