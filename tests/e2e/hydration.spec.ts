import { expect, test } from './fixtures';
import { waitForHydration } from './helpers';

// The page paints and loads before its browser code is fetched (app/http/deferred-hydration.server.ts).
for (const path of ['/', '/pl', '/categories']) {
  test(`${path}: the browser code is fetched after the page has loaded, then hydrates it`, async ({ page }) => {
    const response = await page.goto(path);
    expect(await response?.text()).not.toContain('modulepreload');
    await waitForHydration(page);
    const timing = await page.evaluate(() => {
      const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const scripts = performance
        .getEntriesByType('resource')
        .filter((entry) => new URL(entry.name).pathname.startsWith('/assets/') && entry.name.endsWith('.js'));
      return {
        loadEventStart: navigation.loadEventStart,
        firstScript: Math.min(...scripts.map((entry) => entry.startTime)),
        scripts: scripts.length,
      };
    });
    expect(timing.scripts).toBeGreaterThan(0);
    expect(timing.loadEventStart).toBeGreaterThan(0);
    expect(timing.firstScript).toBeGreaterThanOrEqual(timing.loadEventStart);
  });
}
