import { expect, test } from './fixtures';

// Polish letters beyond Latin come from small cuts of the fonts (app/fonts), not from Latin Extended.
test('a Polish page draws its letters with the shop fonts from the Polish cuts, without Latin Extended', async ({ page }) => {
  const fonts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'font') fonts.push(new URL(request.url()).pathname);
  });
  await page.goto('/pl');
  await page.evaluate(() => document.fonts.ready);
  await expect
    .poll(() => page.evaluate(() => ['Inter', 'Fraunces'].every((family) => document.fonts.check(`16px ${family}`, 'ąćęłńśźż ĄĆĘŁŃŚŹŻ'))))
    .toBe(true);
  expect(fonts.some((font) => font.includes('inter-polish'))).toBe(true);
  expect(fonts.some((font) => font.includes('fraunces-polish'))).toBe(true);
  expect(fonts.filter((font) => font.includes('latin-ext'))).toEqual([]);
});

test('an English page fetches no Polish cut', async ({ page }) => {
  const fonts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'font') fonts.push(new URL(request.url()).pathname);
  });
  await page.goto('/');
  await page.evaluate(() => document.fonts.ready);
  expect(fonts.length).toBeGreaterThan(0);
  expect(fonts.filter((font) => font.includes('polish') || font.includes('latin-ext'))).toEqual([]);
});
