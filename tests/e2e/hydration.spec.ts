import { expect, test } from './fixtures';
import { waitForHydration } from './helpers';

// The page loads and paints before its browser code is fetched (app/http/deferred-hydration.server.ts), so
// nothing of the code competes with the first paint for the connection or the processor.
for (const path of ['/', '/pl', '/categories']) {
  test(`${path}: the browser code is fetched after the page has loaded and painted, then hydrates it`, async ({ page }) => {
    // A phone's processor, as Lighthouse's mobile audit assumes: the first layout and paint then often end after
    // `load`, which is where code started at `load` would compete with them (the starter's logic, in every
    // order of events, is tested in app/http/deferred-hydration.test.ts).
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
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
        firstContentfulPaint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0,
        firstScript: Math.min(...scripts.map((entry) => entry.startTime)),
        scripts: scripts.length,
      };
    });
    expect(timing.scripts).toBeGreaterThan(0);
    expect(timing.loadEventStart).toBeGreaterThan(0);
    expect(timing.firstContentfulPaint).toBeGreaterThan(0);
    expect(timing.firstScript).toBeGreaterThanOrEqual(timing.loadEventStart);
    expect(timing.firstScript).toBeGreaterThanOrEqual(timing.firstContentfulPaint);
  });
}

// Zod builds every schema when its file runs; the form schemas load with the pages that have those forms
// (vite.config.ts), so the home page's start-up does not pay for checkout, sign-in and contact checks.
test('/: the browser code it starts with carries no form schemas', async ({ page }) => {
  const scripts: Promise<string>[] = [];
  page.on('response', (response) => {
    if (/\/assets\/[^/]+\.js$/.test(new URL(response.url()).pathname)) scripts.push(response.text());
  });
  await page.goto('/');
  await waitForHydration(page);
  const bodies = await Promise.all(scripts);
  expect(bodies.length).toBeGreaterThan(0);
  // `~standard` is the Standard Schema property every zod schema carries.
  for (const body of bodies) expect(body).not.toContain('~standard');
});
