import { type Locale, t } from '../fixtures/i18n';
import { expect, failedLoad, test } from './fixtures';
import { waitForHydration } from './helpers';

for (const locale of ['en', 'pl'] as Locale[]) {
  test.describe(`in ${locale}`, () => {
    test.use({ language: locale });
    const tr = t(locale);

    test('an unknown URL shows the localized 404 page with status 404', async ({ page, consoleErrors }) => {
      consoleErrors.allow(failedLoad(404));
      const response = await page.goto('/no-such-page/at-all?x=1');
      expect(response?.status()).toBe(404);
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(tr('errors.notFoundTitle'));
      await expect(page.getByText(tr('errors.notFoundText'))).toBeVisible();
      await expect(page.getByText(tr('errors.status', { status: '404' }))).toBeVisible();
      await expect(page).toHaveTitle(`${tr('errors.notFoundTitle')} · Kopi`);
      await waitForHydration(page);

      // The layout still works on the error page: back to the shop by client navigation.
      await page.getByRole('main').getByRole('link', { name: tr('errors.backHome') }).click();
      await expect(page).toHaveURL(locale === 'pl' ? /\/pl$/ : /\/$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(tr('home.hero.heading'));
    });
  });
}

test('POST to a page without an action answers 405 with the localized message', async ({ page }) => {
  const response = await page.request.post('/', { form: { anything: '1' } });
  expect(response.status()).toBe(405);
  const body = decodeEntities(await response.text());
  expect(body).toContain(t('en')('errors.methodNotAllowedTitle'));
  expect(body).toContain(t('en')('errors.methodNotAllowedText'));
});

test('the product 404 and the page 404 are not cached for cookie-less visitors as 200s', async ({ request }) => {
  for (const path of ['/no-such-page', '/product/NoSuchProduct0000']) {
    for (let i = 0; i < 2; i++) expect((await request.get(path)).status(), `${path}, visit ${i + 1}`).toBe(404);
  }
});

function decodeEntities(html: string) {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  return html.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (entity, code: string) =>
    code[0] === '#'
      ? String.fromCodePoint(code[1].toLowerCase() === 'x' ? parseInt(code.slice(2), 16) : Number(code.slice(1)))
      : (named[code] ?? entity),
  );
}
