/**
 * axe (WCAG 2.1 A and AA) on the account pages in both languages: /auth in its three modes (with their
 * messages), the new-password page, and /profile. Reset requests here (30 per address an hour): 2, for an
 * address without an account (no mail).
 */
import type { Page } from '@playwright/test';
import { type Locale, t } from '../fixtures/i18n';
import { expect, test } from './fixtures';
import { waitForHydration } from './helpers';
import { authField, newAccount, signUp, submitButton } from './accounts';

type State = { name: string; reach: (page: Page, locale: Locale) => Promise<void> };

const visit = (path: string) => async (page: Page) => {
  await page.goto(path);
};

const authStates: State[] = [
  {
    name: 'login with errors',
    reach: async (page, locale) => {
      await visit('/auth?redirectTo=%2Fcart')(page);
      await waitForHydration(page);
      await submitButton(page, 'login', locale).click();
      await expect(authField(page, 'email', locale)).toHaveAttribute('aria-invalid', 'true');
    },
  },
  { name: 'login with the Google message', reach: visit('/auth?error=cancelled') },
  {
    name: 'sign-up with errors',
    reach: async (page, locale) => {
      await visit('/auth?mode=signup')(page);
      await waitForHydration(page);
      await authField(page, 'email', locale).fill('not-an-email');
      await submitButton(page, 'signup', locale).click();
      await expect(authField(page, 'email', locale)).toHaveAttribute('aria-invalid', 'true');
    },
  },
  { name: 'reset', reach: visit('/auth?mode=reset') },
  {
    name: 'reset sent',
    reach: async (page, locale) => {
      await authField(page, 'email', locale).fill(`nobody.${locale}.${Date.now()}@example.test`);
      await submitButton(page, 'reset', locale).click();
      await expect(page.getByRole('status')).toHaveText(t(locale)('auth.resetSent'));
    },
  },
  { name: 'new password, invalid link', reach: visit('/auth/reset?token=x') },
];

// Motion off: nothing fades while axe measures contrast.
test.use({ reducedMotion: 'reduce' });

for (const locale of ['en', 'pl'] as Locale[]) {
  test.describe(`in ${locale}`, () => {
    test.use({ language: locale });

    test('auth', async ({ page, expectNoSeriousA11yViolations }) => {
      test.slow(); // an axe scan per state of the page: about 30 s on 2 cores
      for (const state of authStates) {
        await test.step(state.name, async () => {
          await state.reach(page, locale);
          await expect(page.locator('html')).toHaveAttribute('lang', locale);
          await waitForHydration(page);
          await expectNoSeriousA11yViolations(page, { label: `${state.name} (${locale})` });
        });
      }
    });

    test('profile', async ({ page, expectNoSeriousA11yViolations }, testInfo) => {
      const tr = t(locale);
      await signUp(page, newAccount(testInfo, `ola.a11y.${locale}`, 'Ola'));
      await page.goto('/profile');
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      await waitForHydration(page);
      await expectNoSeriousA11yViolations(page, { label: `profile (${locale})` });

      await test.step('with errors and the billing address', async () => {
        await page.getByRole('checkbox', { name: tr('profile.fields.sameAsShipping') }).uncheck();
        await page.getByRole('main').getByRole('button', { name: tr('profile.save') }).click();
        await expect(page.getByText(tr('profile.errors.billingAddressRequired'))).toBeVisible();
        await expectNoSeriousA11yViolations(page, { label: `profile with errors (${locale})` });
      });
    });
  });
}
