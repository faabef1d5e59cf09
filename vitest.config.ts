import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '~': fileURLToPath(new URL('./app', import.meta.url)) } },
  test: {
    include: ['app/**/*.test.ts', 'app/**/*.test.tsx', 'bench/*.test.ts', 'cli/**/*.test.ts', 'server/**/*.test.ts', 'scripts/*.test.ts', 'tests/setup/*.test.ts'],
    exclude: ['tests/e2e/**', 'node_modules/**'],
    environment: 'node',
    setupFiles: ['tests/setup/console-errors.ts'],
    // The run's time and the tests' time per database, for `npm test`'s and CI's tables.
    reporters: ['default', './tests/setup/vitest-timings.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    fileParallelism: true,
    // Every core: most suites wait on a database or an HTTP answer, and Vitest's default (one core fewer)
    // is a single worker on a 2-core machine (CI). VITEST_MAX_WORKERS overrides.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS) || os.availableParallelism(),
  },
});
