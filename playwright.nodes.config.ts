import { defineConfig, devices } from '@playwright/test';
import { chromiumLaunchOptions } from './tests/setup/chromium';

/**
 * Kopi on several machines: two app nodes on one PostgreSQL database and one S3 bucket behind Debian's nginx
 * (tests/setup/start-nodes.ts), driven in Chromium. `npm run test:nodes`; needs the production build,
 * PostgreSQL (NODES_DATABASE_URL or TEST_DATABASE_URL) and nginx. CI runs it after `npm test`.
 */
const PORT = Number(process.env.NODES_PORT ?? 3400);

export default defineConfig({
  testDir: 'tests/nodes',
  outputDir: 'test-results/playwright-nodes',
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 5_000 },
  reporter: [['list'], ['./tests/setup/playwright-timings.ts', { name: 'Playwright, two nodes' }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    ...devices['Desktop Chrome'],
    viewport: { width: 1280, height: 900 },
    locale: 'en-GB',
    timezoneId: 'Europe/Warsaw',
    trace: process.env.E2E_TRACE ? 'retain-on-failure' : 'off',
    screenshot: 'only-on-failure',
    launchOptions: chromiumLaunchOptions,
  },
  webServer: {
    command: 'node --import tsx tests/setup/start-nodes.ts',
    url: `http://127.0.0.1:${PORT}/readyz`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    env: { NODES_PORT: String(PORT) },
  },
});
