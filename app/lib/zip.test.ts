import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { zipFiles } from './zip.server';

describe('a stored ZIP', () => {
  it('is read back by Python’s zipfile with every file and its bytes (CRC checked)', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'kopi-zip-'));
    const file = path.join(dir, 'batch.zip');
    writeFileSync(file, zipFiles([{ name: 'FV-2026-00001.xml', content: '<a>ż</a>' }, { name: 'KOR-2026-00001.xml', content: '<b/>' }]));
    const listing = execFileSync('python3', ['-c', `import zipfile,sys\nz=zipfile.ZipFile(sys.argv[1])\nassert z.testzip() is None\nfor n in z.namelist(): print(n, z.read(n).decode())`, file]).toString();
    expect(listing).toBe('FV-2026-00001.xml <a>ż</a>\nKOR-2026-00001.xml <b/>\n');
    expect(readFileSync(file).subarray(0, 4).toString('hex')).toBe('504b0304');
  });
});
