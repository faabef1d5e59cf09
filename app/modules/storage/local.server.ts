import fs from 'node:fs/promises';
import path from 'node:path';
import type { Storage } from '~/modules/storage/storage.server';

/** Keys are relative, slash-separated paths such as "products/abc/gayo-0-640.webp". */
export function assertSafeKey(key: string): void {
  if (
    !key ||
    key.startsWith('/') ||
    key.includes('\\') ||
    key.includes('\0') ||
    key.split('/').some((segment) => segment === '..' || segment === '.' || segment === '')
  ) {
    throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
  }
}

/** Stores files on local disk under `dir`; the server serves them at `urlPrefix`. */
export function createLocalStorage(dir: string, urlPrefix = '/images'): Storage {
  const root = path.resolve(dir);
  const prefix = urlPrefix.replace(/\/+$/, '');

  function fileFor(key: string): string {
    assertSafeKey(key);
    const file = path.resolve(root, key);
    if (!file.startsWith(root + path.sep)) throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
    return file;
  }

  return {
    async put(key, data) {
      const file = fileFor(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      // Write beside the target and rename, so a reader never sees half a file.
      const temp = `${file}.${process.pid}.${Date.now().toString(36)}.tmp`;
      await fs.writeFile(temp, data);
      await fs.rename(temp, file);
    },
    async exists(key) {
      try {
        return (await fs.stat(fileFor(key))).isFile();
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw error;
      }
    },
    async delete(key) {
      await fs.rm(fileFor(key), { force: true });
    },
    url(key) {
      assertSafeKey(key);
      return `${prefix}/${key}`;
    },
  };
}
