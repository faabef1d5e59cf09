/** Search forgives typos: a misspelt word finds the coffees it meant, and the page says what it searched for. */
import { productName, textMatches } from '../fixtures/catalogue';
import { t } from '../fixtures/i18n';
import { expect, test } from './fixtures';
import { gridNames, waitForHydration } from './helpers';

const en = t('en');
const pl = t('pl');

test('a misspelt origin finds its coffees and says what was searched for', async ({ page }) => {
  const expected = textMatches('mandheling').map((p) => productName(p, 'en'));
  expect(expected.length).toBeGreaterThan(1);
  await page.goto('/');
  await waitForHydration(page);

  const box = page.getByRole('search').getByRole('searchbox', { name: en('home.search.label') });
  await box.fill('mandeling');
  await box.press('Enter');
  await expect(page).toHaveURL(/[?&]q=mandeling/);
  await expect(page.getByText(en('home.results.corrected', { q: 'mandheling' }))).toBeVisible();
  await expect(page.getByText(en('home.results.for', { q: 'mandeling' }))).toHaveCount(0);
  await expect.poll(() => gridNames(page)).toEqual(expected);
  // The box keeps what the shopper typed.
  await expect(box).toHaveValue('mandeling');

  // A word spelt right is searched as typed.
  await box.fill('mandheling');
  await box.press('Enter');
  await expect(page.getByText(en('home.results.for', { q: 'mandheling' }))).toBeVisible();
  await expect.poll(() => gridNames(page)).toEqual(expected);
});

test.describe('in Polish', () => {
  test.use({ language: 'pl' });

  test('czekloada finds the chocolate coffees', async ({ page }) => {
    const expected = textMatches('czekolada').map((p) => productName(p, 'pl'));
    expect(expected.length).toBeGreaterThan(1);
    await page.goto('/');
    await waitForHydration(page);

    const box = page.getByRole('search').getByRole('searchbox', { name: pl('home.search.label') });
    await box.fill('czekloada');
    await box.press('Enter');
    await expect(page).toHaveURL(/\/pl\/?\?q=czekloada/);
    await expect(page.getByText(pl('home.results.corrected', { q: 'czekolada' }))).toBeVisible();
    await expect.poll(() => gridNames(page)).toEqual(expected);
    await expect(box).toHaveValue('czekloada');
  });

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false });

    test('the plain search form corrects too', async ({ page }) => {
      await page.goto('/');
      const box = page.getByRole('searchbox', { name: pl('home.search.label') });
      await box.fill('sumtra');
      await page.getByRole('search').getByRole('button', { name: pl('home.search.submit') }).click();
      await expect(page).toHaveURL(/\?q=sumtra/);
      await expect(page.getByText(pl('home.results.corrected', { q: 'sumatra' }))).toBeVisible();
      expect(await gridNames(page)).toEqual(textMatches('sumatra').map((p) => productName(p, 'pl')).slice(0, 12));
    });
  });
});

for (const language of ['en', 'pl'] as const) {
  for (const width of [390, 1280]) {
    test(`a search lands on its results: the line saying what was searched is focused and in view (${language}, ${width} px)`, async ({ page }) => {
      const tr = t(language);
      await page.setViewportSize({ width, height: 844 });
      await page.goto(language === 'en' ? '/' : '/pl');
      await waitForHydration(page);
      const box = page.getByRole('search').getByRole('searchbox', { name: tr('home.search.label') });
      await box.fill('sumatra');
      await box.press('Enter');
      await expect(page).toHaveURL(/[?&]q=sumatra#results$/);
      const note = page.getByTestId('search-results-note');
      await expect(note).toBeFocused();
      await expect(note).toBeInViewport();
      await expect(page.getByRole('heading', { level: 1 })).not.toBeFocused();
    });
  }
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });
  test('the search form lands on the results (its address ends in #results)', async ({ page }) => {
    await page.goto('/');
    const box = page.getByRole('search').getByRole('searchbox', { name: en('home.search.label') });
    await box.fill('sumatra');
    await box.press('Enter');
    await expect(page).toHaveURL(/[?&]q=sumatra#results$/);
    await expect(page.getByTestId('search-results-note')).toBeInViewport();
  });
});
