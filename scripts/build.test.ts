// `npm start` and the test phases build only when the build is older than what it is made from (scripts/build.js
// --if-stale): a change must never start the shop on an old build, and an unchanged shop must not be built again.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { staleness } from './build.js';

let dir: string;
const write = (file: string, secondsAgo: number) => {
  const at = path.join(dir, file);
  fs.mkdirSync(path.dirname(at), { recursive: true });
  fs.writeFileSync(at, file);
  const time = new Date(Date.now() - secondsAgo * 1000);
  fs.utimesSync(at, time, time);
};

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kopi-build-'));
  write('app/root.tsx', 300);
  write('server.js', 300);
  write('package-lock.json', 300);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('scripts/build.js --if-stale', () => {
  it('builds when there is no build, or a build that never finished (no stamp)', () => {
    expect(staleness(dir)).toBe('there is no build yet');
    write('build/server/index.js', 100);
    expect(staleness(dir)).toBe('there is no build yet');
  });

  it('keeps a build newer than every source', () => {
    write('build/server/index.js', 100);
    write('build/.built', 100);
    expect(staleness(dir)).toBeNull();
  });

  it('builds again when a source, the content, the lock file or the configuration changed after it', () => {
    write('build/server/index.js', 100);
    write('build/.built', 100);
    for (const file of ['app/modules/cart/cart.server.ts', 'content/legal/en/terms.md', 'package-lock.json', 'vite.config.ts']) {
      write(file, 10);
      expect(staleness(dir)).toBe(`${file} changed since the last build`);
      write(file, 200);
    }
    expect(staleness(dir)).toBeNull();
  });

  it('ignores the tests beside the sources: they are never built', () => {
    write('build/server/index.js', 100);
    write('build/.built', 100);
    write('app/modules/cart/cart.test.ts', 10);
    write('server/fuzz.ts', 10);
    write('app/db/test-databases.ts', 10);
    expect(staleness(dir)).toBeNull();
  });
});
