import { defineConfig, devices } from '@playwright/test';

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
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 5_000 },
  reporter: 'list',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    ...devices['Desktop Chrome'],
    viewport: { width: 1280, height: 900 },
    locale: 'en-GB',
    timezoneId: 'Europe/Warsaw',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic', '--disable-gpu'],
    },
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
