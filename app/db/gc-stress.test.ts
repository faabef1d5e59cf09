import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

// Garbage collection while prepared statements are alive must never take the process down (with
// better-sqlite3 12 on Node 24 it aborted: `Assertion failed: (env) != nullptr`). In a child process, so
// that an abort fails this test instead of killing the test runner; on whichever Node runs the suite.
test('the SQLite driver survives forced garbage collection with live statements', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kopi-gc-'));
  try {
    const script = fileURLToPath(new URL('./fixtures/gc-stress.ts', import.meta.url));
    const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', script, path.join(dir, 'gc.db')], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.stderr).toBe('');
    expect(run.signal).toBeNull();
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`gc-stress ok on Node ${process.version}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 150_000);
