/**
 * The shop's legal pages as a shopper reaches them: from the footer of any page, from the cookie banner and
 * from sign-up, in the page's language, by keyboard as well as by mouse.
 */
import { t } from '../fixtures/i18n';
import { expect, test } from './fixtures';
import { waitForHydration } from './helpers';

const pl = t('pl');

test('the footer leads to every legal page, in Polish on Polish pages', async ({ page }) => {
  await page.goto('/pl/about');
  await waitForHydration(page);
  const footer = page.getByRole('contentinfo');
  for (const [slug, title] of [
    ['shipping-returns', 'Dostawa i zwroty'],
    ['terms', 'Regulamin sklepu'],
    ['seller', 'Sprzedawca'],
  ] as const) {
    await footer.getByRole('link', { name: pl(`legal.pages.${slug}`), exact: true }).click();
    await expect(page).toHaveURL(`/pl/legal/${slug}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  }
  await expect(page.getByRole('heading', { name: 'Wzór formularza odstąpienia od umowy' })).toHaveCount(0);
  await page.getByRole('navigation', { name: pl('legal.heading') }).first().getByRole('link', { name: pl('legal.pages.shipping-returns') }).click();
  await expect(page.getByRole('heading', { name: 'Wzór formularza odstąpienia od umowy' })).toBeVisible();
});

test.describe('on a first visit', () => {
  test.use({ cookieConsent: null });

  test('the cookie banner links to the cookie policy, and the link works by keyboard', async ({ page }) => {
    await page.goto('/');
    await waitForHydration(page);
    const banner = page.getByRole('region', { name: t('en')('cookies.label') });
    await expect(banner).toBeVisible();
    const link = banner.getByRole('link', { name: t('en')('legal.sentences.cookies.cookies') });
    await link.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL('/legal/cookies');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Cookie policy');
    await expect(page.getByRole('main').getByText('kopi_session')).toBeVisible();
  });
});

test('sign-up says that creating an account accepts the terms, and links to them', async ({ page }) => {
  await page.goto('/auth?mode=signup');
  const terms = page.getByRole('main').getByRole('link', { name: t('en')('legal.sentences.signUp.terms') });
  await expect(terms).toHaveAttribute('href', '/legal/terms');
});
