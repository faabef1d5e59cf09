import { defineConfig, devices } from '@playwright/test';
import { chromiumLaunchOptions } from './tests/setup/chromium';

/**
 * Browser journeys against the production build (`npm run build` first; `npm test` does it), in Debian's
 * Chromium. tests/setup/start-server.js starts a shop on a fresh data directory for every run, with a local
 * OpenID Connect provider for "Continue with Google", its mail catcher's port and its stand-ins beside it
 * (tests/setup/ports.js). Four shops: the storefront's journeys count on the demo catalogue as it is, and the back
 * office's change it, the shop's settings and its orders, so they run one at a time on shops of their own, beside the
 * storefront's from the start: the catalogue and the settings on one, the orders (invoices, shipping, customers'
 * data) on the other; and a shop that sends its invoices to KSeF (its stand-in) for the KSeF journeys, the others'
 * shops leaving that to the owner's accounting software. E2E_PORT moves a run to other ports (the back office's
 * shops are at E2E_PORT + 500 and + 600, KSeF's at + 900), so two runs can share a machine.
 */
const PORT = Number(process.env.E2E_PORT ?? 3100);
const CATALOGUE_PORT = PORT + 500;
const ORDERS_PORT = PORT + 600;
const KSEF_PORT = PORT + 900;
const shopAt = (port: number) => `http://127.0.0.1:${port}`;
const ci = !!process.env.CI;
/** Journeys that read the shop's mail: each starts the shop's mail catcher on its port, so they run one at a time. */
const MAIL_SPECS = ['**/contact.spec.ts', '**/auth-reset.spec.ts', '**/checkout-mail.spec.ts'];
/**
 * The back office's journeys, one at a time on a shop of their own ("first on the home grid" must hold, and a
 * journey's prices must not move under it); some read its mail too. Those that change the catalogue, the prices and
 * the shop's settings, and those that work on orders, each on its own shop, side by side.
 */
const CATALOGUE_SPECS = ['currencies', 'delivery', 'products', 'promotions', 'stock', 'tax'].map((name) => `**/admin-${name}.spec.ts`);
// Every other admin-*.spec.ts is an orders journey (guest checkout, invoices, the dashboard, orders, customers' data,
// reviews, shipments, withdrawals), so no new back-office file is left out of both.
const BACK_OFFICE_SPECS = '**/admin-*.spec.ts';
/** A shop for the journeys, started by tests/setup/start-server.js on `port`. */
const shop = (port: number, env: Record<string, string> = {}) => ({
  command: 'node tests/setup/start-server.js',
  url: `${shopAt(port)}/readyz`,
  // The first start seeds the demo catalogue and renders its packshots.
  timeout: 120_000,
  reuseExistingServer: false,
  stdout: 'pipe' as const,
  stderr: 'pipe' as const,
  env: { E2E_PORT: String(port), ...env },
});
/** The KSeF journeys: on a shop that sends its invoices to KSeF's stand-in (KSEF_SENDER=kopi). */
const KSEF_SPECS = '**/ksef.spec.ts';

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: PORT === 3100 ? 'test-results/playwright' : `test-results/playwright-${PORT}`,
  fullyParallel: true,
  // Two storefront journeys and one on each back-office shop at a time: on 2 cores a journey often waits (for the
  // shop, a redirect, the mail), and the others keep both cores busy through those waits.
  workers: 4,
  // No retries: a journey that flakes is mended (its wait, its data or the shop), never run again until it passes.
  retries: 0,
  forbidOnly: ci,
  // Generous on purpose: these limits catch a journey that hangs, they measure no speed (`npm run bench` does).
  // A shared CI machine ran the same journeys four times slower than a laptop, and 30 s journeys timed out there.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // The list, each project's time and the slowest files (tests/setup/playwright-timings.ts); CI keeps the HTML report.
  reporter: [['list'], ['./tests/setup/playwright-timings.ts'], ...(ci ? ([['html', { open: 'never' }]] as const) : [])],
  use: {
    baseURL: shopAt(PORT),
    ...devices['Desktop Chrome'],
    viewport: { width: 1280, height: 900 },
    locale: 'en-GB',
    timezoneId: 'Europe/Warsaw',
    // A trace records every frame and a DOM snapshot per action: about a sixth more time for every journey
    // (measured on the back-office journeys: 155 s with it, 135 s without). E2E_TRACE=1 turns it on to look into
    // a failure; a failing journey always keeps its screenshot.
    trace: process.env.E2E_TRACE ? 'retain-on-failure' : 'off',
    screenshot: 'only-on-failure',
    launchOptions: chromiumLaunchOptions,
  },
  projects: [
    { name: 'chromium', testIgnore: [...MAIL_SPECS, BACK_OFFICE_SPECS, KSEF_SPECS], workers: 2 },
    { name: 'mail', testMatch: MAIL_SPECS, workers: 1 },
    { name: 'back office', testMatch: CATALOGUE_SPECS, workers: 1, use: { baseURL: shopAt(CATALOGUE_PORT) } },
    { name: 'orders', testMatch: BACK_OFFICE_SPECS, testIgnore: CATALOGUE_SPECS, workers: 1, use: { baseURL: shopAt(ORDERS_PORT) } },
    { name: 'ksef', testMatch: KSEF_SPECS, workers: 1, use: { baseURL: shopAt(KSEF_PORT) } },
  ],
  webServer: [shop(PORT), shop(CATALOGUE_PORT), shop(ORDERS_PORT), shop(KSEF_PORT, { E2E_KSEF: 'kopi' })],
});
