/**
 * One contract for every Storage: local disk, and a real S3-compatible server on 127.0.0.1 (s3rver) reached
 * through the same @aws-sdk/client-s3 calls production makes.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoImages } from '~/demo/demo-images.server';
import { demoProducts } from '~/demo/products';
import { startS3Server, type TestS3 } from '../../../tests/setup/s3-server';
import { createLocalStorage, createS3Storage, deleteImageVariants, imageWidths, storeImageVariants, variantKey, type Storage } from './index.server';

let s3: TestS3;
let dir: string;

beforeAll(async () => {
  s3 = await startS3Server();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'kopi-contract-'));
});

afterAll(async () => {
  await s3?.close();
  await fs.rm(dir, { recursive: true, force: true });
});

const kinds: [string, () => Storage][] = [
  ['local disk', () => createLocalStorage(dir)],
  ['S3 (s3rver)', () => createS3Storage({ bucket: s3.bucket, region: s3.region, endpoint: s3.endpoint, credentials: s3.credentials })],
];

describe.each(kinds)('Storage contract: %s', (_name, make) => {
  it('is usable', async () => {
    await expect(make().check()).resolves.toBeUndefined();
  });

  it('stores, reads back, finds and deletes files in nested folders', async () => {
    const storage = make();
    const key = `products/${Math.random().toString(36).slice(2)}/note.txt`;
    expect(await storage.exists(key)).toBe(false);
    expect(await storage.get(key)).toBeNull();
    await storage.put(key, Buffer.from('kopi tubruk'), 'text/plain');
    expect(await storage.exists(key)).toBe(true);
    const file = await storage.get(key);
    expect(file).not.toBeNull();
    expect(await text(file!.body)).toBe('kopi tubruk');
    expect(file!.size).toBe(11);
    await storage.delete(key);
    expect(await storage.exists(key)).toBe(false);
    await storage.delete(key); // deleting twice is fine
  });

  it('keeps the content type of pictures', async () => {
    const storage = make();
    const picture = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#2F6B4F' } }).webp().toBuffer();
    await storage.put('products/ct/a-320.webp', picture, 'image/webp');
    const file = await storage.get('products/ct/a-320.webp');
    expect(file!.contentType).toBe('image/webp');
    expect(Buffer.compare(Buffer.from(await file!.body.toArray().then((c) => Buffer.concat(c))), picture)).toBe(0);
  });

  it('stores every WebP variant of a picture and deletes them again', async () => {
    const storage = make();
    const png = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#B5542C' } }).png().toBuffer();
    const size = await storeImageVariants(storage, 'products/variants/p1', png, { crop: false, effort: 0 });
    expect(size).toEqual({ width: 1200, height: 900 });
    for (const width of imageWidths) expect(await storage.exists(variantKey('products/variants/p1', width))).toBe(true);
    await deleteImageVariants(storage, 'products/variants/p1');
    for (const width of imageWidths) expect(await storage.exists(variantKey('products/variants/p1', width))).toBe(false);
  });

  it('refuses keys that climb out or are absolute, and touches nothing', async () => {
    const storage = make();
    for (const key of ['../secret.txt', 'products/../../secret.txt', '/etc/passwd', '', 'a//b', 'a\\..\\b']) {
      await expect(storage.put(key, Buffer.from('x'), 'text/plain')).rejects.toThrow(/Invalid storage key/);
      await expect(storage.get(key)).rejects.toThrow(/Invalid storage key/);
      await expect(storage.delete(key)).rejects.toThrow(/Invalid storage key/);
      expect(() => storage.url(key)).toThrow(/Invalid storage key/);
    }
  });

  it('links pictures at /images/… by default', () => {
    expect(make().url('products/a/b-640.webp')).toBe('/images/products/a/b-640.webp');
  });
});

describe('S3 storage', () => {
  it('links pictures at S3_PUBLIC_URL when it is set', () => {
    const storage = createS3Storage({ bucket: 'b', region: 'eu-central-1', publicUrl: 'https://cdn.example.test/kopi/' });
    expect(storage.url('products/a/b-640.webp')).toBe('https://cdn.example.test/kopi/products/a/b-640.webp');
  });

  it('takes the demo catalogue’s packshots (the seed writes to whichever storage is configured)', async () => {
    const storage = createS3Storage({ bucket: s3.bucket, region: s3.region, endpoint: s3.endpoint, credentials: s3.credentials });
    const [keyBase] = await generateDemoImages(storage, demoProducts[0], 'demo-seed');
    for (const width of imageWidths) expect(await storage.exists(variantKey(keyBase, width))).toBe(true);
  });

  it('names the bucket when it cannot be used', async () => {
    const missing = createS3Storage({ bucket: 'no-such-bucket', region: s3.region, endpoint: s3.endpoint, credentials: s3.credentials });
    await expect(missing.check()).rejects.toThrow(/"no-such-bucket" at http:\/\/127\.0\.0\.1:\d+ cannot be used: it does not exist/);
    const closed = createS3Storage({ bucket: 'kopi', region: s3.region, endpoint: 'http://127.0.0.1:9', credentials: s3.credentials });
    await expect(closed.check()).rejects.toThrow(/"kopi" at http:\/\/127\.0\.0\.1:9 cannot be used/);
  });
});
