import { type Locale, t } from '../fixtures/i18n';
import { expect, test } from './fixtures';
import { openAbout } from './helpers';

for (const locale of ['en', 'pl'] as Locale[]) {
  test.describe(`in ${locale}`, () => {
    test.use({ language: locale });
    const tr = t(locale);

    test('the story, the map of origins and the values', async ({ page, consoleErrors }) => {
      await openAbout(page, consoleErrors);
      await expect(page).toHaveTitle(`${tr('about.title')} · Kopi`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(tr('about.heading'));
      await expect(page.getByText(tr('about.lead'))).toBeVisible();
      for (const p of ['p1', 'p2', 'p3']) await expect(page.getByText(tr(`about.story.${p}`))).toBeVisible();
      await expect(page.getByText(tr('about.quote.text'))).toBeVisible();

      const map = page.getByRole('region', { name: tr('about.map.heading') });
      await expect(map.getByRole('img', { name: tr('about.map.title') })).toBeVisible();
      for (const origin of ['gayo', 'toraja', 'wamena']) await expect(map.getByText(tr(`about.origins.${origin}`)).first()).toBeAttached();

      const values = page.getByRole('heading', { level: 3 });
      await expect(values).toHaveText(['direct', 'fresh', 'honest'].map((v) => tr(`about.values.${v}.title`)));
      await expect(page.getByRole('navigation', { name: tr('nav.main') }).getByRole('link', { name: tr('nav.about') })).toHaveAttribute('aria-current', 'page');
    });
  });
}
