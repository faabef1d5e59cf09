import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

/** The font files a page fetches, once its fonts are ready. */
async function fontsFetched(page: Page, path: string): Promise<string[]> {
  const fonts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'font') fonts.push(new URL(request.url()).pathname);
  });
  await page.goto(path);
  await page.evaluate(() => document.fonts.ready);
  return fonts;
}

// Polish letters beyond Latin come from small cuts of the fonts (app/fonts), not from Latin Extended.
test('a Polish page draws its letters with the shop fonts from the Polish cuts, without Latin Extended', async ({ page }) => {
  const fonts = await fontsFetched(page, '/pl');
  await expect
    .poll(() => page.evaluate(() => ['Inter', 'Fraunces'].every((family) => document.fonts.check(`16px ${family}`, 'ąćęłńśźż ĄĆĘŁŃŚŹŻ'))))
    .toBe(true);
  expect(fonts.some((font) => font.includes('inter-polish'))).toBe(true);
  expect(fonts.some((font) => font.includes('fraunces-polish'))).toBe(true);
  expect(fonts.filter((font) => font.includes('latin-ext'))).toEqual([]);
});

test('an English page fetches no Polish cut', async ({ page }) => {
  const fonts = await fontsFetched(page, '/');
  expect(fonts.length).toBeGreaterThan(0);
  expect(fonts.filter((font) => font.includes('polish') || font.includes('latin-ext'))).toEqual([]);
});
