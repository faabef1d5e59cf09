import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from './commands';

describe('kopi command', () => {
  let dir: string;
  const saved = { ...process.env };
  let lines: string[];
  const out = { log: (l: string) => lines.push(l), error: (l: string) => lines.push(l) };

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kopi-cli-'));
    process.env.DATA_DIR = dir;
    delete process.env.DATABASE_URL;
    lines = [];
  });
  afterEach(() => {
    process.env = { ...saved };
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('migrates, seeds an empty catalogue once, and refuses unknown commands', async () => {
    expect(await run(['migrate'], out)).toBe(0);
    expect(lines.at(-1)).toMatch(/up to date/);
    expect(await run(['seed'], out)).toBe(0);
    expect(lines.at(-1)).toMatch(/Added \d+ demo products/);
    expect(await run(['seed'], out)).toBe(0);
    expect(lines.at(-1)).toMatch(/already has \d+ products/);
    expect(await run(['frobnicate'], out)).toBe(1);
    expect(lines.at(-1)).toMatch(/Unknown command/);
  }, 60_000);
});
