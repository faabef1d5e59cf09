#!/usr/bin/env node
// `npm test`: every test, in this order, stopping at the first that fails: the Node version, Chromium, the
// typecheck, the production build, Vitest (SQLite, and PostgreSQL too when TEST_DATABASE_URL is set) and the
// Playwright journeys against that build. Each step is timed; the times are printed at the end (and recorded for
// CI's table, see tests/setup/timings.js).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { requireSupportedNode } from './check-node.js';
import { minutes, recordTiming } from '../tests/setup/timings.js';

requireSupportedNode('The tests');

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const steps = [
  ['Chromium', [process.execPath, 'scripts/ensure-chromium.js']],
  ['typecheck', ['npm', 'run', '--silent', 'typecheck']],
  ['build', [process.execPath, 'scripts/build.js']],
  ['Vitest', [bin('vitest'), 'run']],
  ['Playwright', [bin('playwright'), 'test']],
];

const times = [];
for (const [name, ...commands] of steps) {
  const started = performance.now();
  for (const [command, ...args] of commands) {
    const { status, signal } = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
    if (status !== 0) {
      console.error(`\nnpm test: ${name} failed${signal ? ` (${signal})` : ''}.`);
      process.exit(status ?? 1);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  times.push([name, seconds]);
  // Vitest and Playwright record their own times, with their details.
  if (name !== 'Vitest' && name !== 'Playwright') recordTiming(name, seconds);
}
const total = times.reduce((sum, [, seconds]) => sum + seconds, 0);
console.log(`\nnpm test passed in ${minutes(total)}: ${times.map(([name, seconds]) => `${name} ${minutes(seconds)}`).join(', ')}`);
