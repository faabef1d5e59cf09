import { defineConfig, devices } from '@playwright/test';

/**
 * Browser journeys against the production build (`npm run build` first; `npm test` does it), in Debian's
 * Chromium. tests/setup/start-server.js starts the shop on a fresh data directory for every run, with a
 * local OpenID Connect provider for "Continue with Google". E2E_PORT, E2E_SMTP_PORT and E2E_OIDC_PORT move
 * a run to other ports, so two runs can share a machine.
 */
const PORT = Number(process.env.E2E_PORT ?? 3100);
const SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? 2526);
const OIDC_PORT = Number(process.env.E2E_OIDC_PORT ?? 3190);
const baseURL = `http://127.0.0.1:${PORT}`;
const ci = !!process.env.CI;
/** Journeys that read the shop's mail: each starts the SMTP catcher on SMTP_PORT, so they run one at a time. */
const MAIL_SPECS = ['**/contact.spec.ts', '**/auth-reset.spec.ts', '**/checkout-mail.spec.ts'];
/**
 * Journeys that change the catalogue (the back office): the storefront journeys count on the demo catalogue,
 * so these run after all of them, on the same server, one at a time ("first on the home grid" must hold).
 */
const CATALOGUE_SPECS = ['**/admin-*.spec.ts'];

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: PORT === 3100 ? 'test-results/playwright' : `test-results/playwright-${PORT}`,
  fullyParallel: true,
  workers: 2,
  retries: ci ? 1 : 0,
  forbidOnly: ci,
  // Generous on purpose: these limits catch a journey that hangs, they measure no speed (`npm run bench` does).
  // A shared CI machine ran the same journeys four times slower than a laptop, and 30 s journeys timed out there.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: ci ? [['list'], ['html', { open: 'never' }]] : 'list',
  use: {
    baseURL,
    ...devices['Desktop Chrome'],
    viewport: { width: 1280, height: 900 },
    locale: 'en-GB',
    timezoneId: 'Europe/Warsaw',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
        '--disable-gpu',
      ],
    },
  },
  projects: [
    { name: 'chromium', testIgnore: [...MAIL_SPECS, ...CATALOGUE_SPECS] },
    { name: 'mail', testMatch: MAIL_SPECS, workers: 1 },
    { name: 'back office', testMatch: CATALOGUE_SPECS, dependencies: ['chromium', 'mail'], workers: 1 },
  ],
  webServer: {
    command: 'node tests/setup/start-server.js',
    url: `${baseURL}/readyz`,
    // The first start seeds the demo catalogue and renders its packshots.
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    env: { E2E_PORT: String(PORT), E2E_SMTP_PORT: String(SMTP_PORT), E2E_OIDC_PORT: String(OIDC_PORT) },
  },
});
