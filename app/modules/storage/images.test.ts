import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '~/config/env.server';
import {
  createLocalStorage,
  createStorage,
  deleteImageVariants,
  imageWidths,
  productImage,
  storeImageVariants,
} from '~/modules/storage/index.server';

let dir: string;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'kopi-storage-'));
});

afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** A landscape test picture, so the 4:5 crop is exercised too. */
function landscapePng(): Promise<Buffer> {
  return sharp({ create: { width: 900, height: 600, channels: 3, background: '#2F6B4F' } })
    .png()
    .toBuffer();
}

describe('local storage', () => {
  it('stores, finds, serves and deletes files in nested folders', async () => {
    const storage = createLocalStorage(dir);
    expect(await storage.exists('products/a/b.txt')).toBe(false);
    await storage.put('products/a/b.txt', Buffer.from('kopi'), 'text/plain');
    expect(await storage.exists('products/a/b.txt')).toBe(true);
    expect(await fs.readFile(path.join(dir, 'products/a/b.txt'), 'utf8')).toBe('kopi');
    expect(storage.url('products/a/b.txt')).toBe('/images/products/a/b.txt');
    await storage.delete('products/a/b.txt');
    expect(await storage.exists('products/a/b.txt')).toBe(false);
    await storage.delete('products/a/b.txt'); // deleting twice is fine
  });

  it('uses the given URL prefix', () => {
    expect(createLocalStorage(dir, '/media/').url('x/y.webp')).toBe('/media/x/y.webp');
  });

  it('rejects keys that climb out of the folder or are absolute', async () => {
    const storage = createLocalStorage(path.join(dir, 'uploads'));
    for (const key of ['../secret.txt', 'products/../../secret.txt', '/etc/passwd', '', 'a//b', 'a\\..\\b']) {
      await expect(storage.put(key, Buffer.from('x'), 'text/plain')).rejects.toThrow(/Invalid storage key/);
      await expect(storage.exists(key)).rejects.toThrow(/Invalid storage key/);
      await expect(storage.delete(key)).rejects.toThrow(/Invalid storage key/);
      expect(() => storage.url(key)).toThrow(/Invalid storage key/);
    }
    await expect(fs.access(path.join(dir, 'secret.txt'))).rejects.toThrow();
  });

  it('createStorage keeps uploads in DATA_DIR/uploads', async () => {
    const config = loadConfig({ DATA_DIR: dir } as NodeJS.ProcessEnv, { readDotEnv: false });
    const storage = createStorage(config);
    await storage.put('products/p/x.txt', Buffer.from('1'), 'text/plain');
    expect(await fs.readFile(path.join(dir, 'uploads/products/p/x.txt'), 'utf8')).toBe('1');
  });
});

describe('image variants', () => {
  it('stores a 4:5 WebP at every width', async () => {
    const storage = createLocalStorage(dir);
    await storeImageVariants(storage, 'products/p1/photo', await landscapePng());
    for (const width of imageWidths) {
      const key = `products/p1/photo-${width}.webp`;
      expect(await storage.exists(key)).toBe(true);
      const meta = await sharp(path.join(dir, key)).metadata();
      expect(meta.format).toBe('webp');
      expect(meta.width).toBe(width);
      expect(meta.height).toBe((width * 5) / 4);
    }
  });

  it('describes the variants for <img srcSet>', () => {
    const storage = createLocalStorage(dir);
    expect(productImage(storage, 'products/p1/photo')).toEqual({
      src: '/images/products/p1/photo-640.webp',
      srcSet:
        '/images/products/p1/photo-320.webp 320w, /images/products/p1/photo-640.webp 640w, /images/products/p1/photo-1200.webp 1200w',
      width: 1200,
      height: 1500,
    });
  });

  it('deletes every variant', async () => {
    const storage = createLocalStorage(dir);
    await storeImageVariants(storage, 'products/p2/photo', await landscapePng());
    await deleteImageVariants(storage, 'products/p2/photo');
    for (const width of imageWidths) expect(await storage.exists(`products/p2/photo-${width}.webp`)).toBe(false);
  });

  it('rejects input that is not an image', async () => {
    const storage = createLocalStorage(dir);
    await expect(storeImageVariants(storage, 'products/p3/photo', Buffer.from('not an image'))).rejects.toThrow();
    expect(await storage.exists('products/p3/photo-640.webp')).toBe(false);
  });
});
