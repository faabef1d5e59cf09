import { createReadStream } from 'node:fs';
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
    description: `local disk ${root}`,
    async check() {
      await fs.mkdir(root, { recursive: true });
      await fs.access(root, fs.constants.W_OK).catch(() => {
        throw new Error(`Pictures cannot be stored: ${root} is not writable`);
      });
    },
    async put(key, data) {
      const file = fileFor(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      // Write beside the target and rename, so a reader never sees half a file.
      const temp = `${file}.${process.pid}.${Date.now().toString(36)}.tmp`;
      try {
        await fs.writeFile(temp, data);
        await fs.rename(temp, file);
      } catch (error) {
        await fs.rm(temp, { force: true }).catch(() => {});
        throw error;
      }
    },
    async get(key) {
      const file = fileFor(key);
      try {
        const stat = await fs.stat(file);
        if (!stat.isFile()) return null;
        return { body: createReadStream(file), contentType: contentTypeOf(key), size: stat.size };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
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

const types: Record<string, string> = { webp: 'image/webp', png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', avif: 'image/avif', svg: 'image/svg+xml' };

/** The content type of a stored file, from its extension (keys are made by the shop). */
export function contentTypeOf(key: string): string {
  return types[key.slice(key.lastIndexOf('.') + 1).toLowerCase()] ?? 'application/octet-stream';
}
