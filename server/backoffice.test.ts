/**
 * The back office through the production build: pictures up to 8 × 10 MB reach the product forms only from
 * an admin's session (everyone else keeps the 64 kB form limit and is sent home); with S3_BUCKET set, pictures
 * go to a real S3-compatible server on 127.0.0.1 and /images/… streams them from the bucket with a year of
 * caching; a bucket that cannot be reached stops the start with a message naming it.
 */
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pino from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '~/config/env.server';
import { createS3Storage } from '~/modules/storage/index.server';
import { startS3Server, type TestS3 } from '../tests/setup/s3-server';
import { type TestShop, rawRequest, startTestShop } from './test-shop';

/** A multipart body as a browser sends it. */
async function multipart(fields: Record<string, string>, files: { name: string; bytes: Buffer }[] = []) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  for (const file of files) form.append('images', new File([new Uint8Array(file.bytes)], file.name, { type: 'image/jpeg' }));
  const request = new Request('http://kopi.invalid/', { method: 'POST', body: form });
  return { body: Buffer.from(await request.arrayBuffer()), type: request.headers.get('content-type')! };
}

/** A JPEG of noise, so it stays large once compressed. */
async function noisyJpeg(width: number, height: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 2654435761) >>> 24;
  return sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality: 100 }).toBuffer();
}

const productCount = async (shop: TestShop) => Number((await shop.db.selectFrom('products').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

describe('the back office over HTTP', () => {
  let shop: TestShop;
  let s3: TestS3;
  beforeAll(async () => {
    s3 = await startS3Server('kopi-shop');
    // The shop takes credentials from the SDK's standard chain, as in production: here, the environment.
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: s3.credentials.accessKeyId, AWS_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey });
    shop = await startTestShop(s3.env);
  });
  afterAll(async () => {
    await shop?.close();
    await s3?.close();
  });

  const post = async (target: string, cookie: string | null, fields: Record<string, string>, files: { name: string; bytes: Buffer }[] = []) => {
    const { body, type } = await multipart(fields, files);
    return rawRequest(shop.port, {
      method: 'POST',
      path: target,
      headers: { 'content-type': type, 'content-length': String(body.length), ...(cookie ? { cookie } : {}) },
      body,
    });
  };

  it('takes a large picture from an admin, and refuses the same upload from a guest or a customer before reading it', async () => {
    const big = await noisyJpeg(1800, 1400);
    expect(big.length).toBeGreaterThan(1024 * 1024);
    const before = await productCount(shop);
    const customer = await shop.customer();
    for (const cookie of [null, customer.cookie]) {
      const response = await post('/add-product', cookie, { name: 'Sneaky', price: '1' }, [{ name: 'big.jpg', bytes: big }]);
      expect(response.status).toBe(413);
    }
    // A small plain post from them is sent home, and changes nothing.
    for (const cookie of [null, customer.cookie]) {
      const response = await post('/add-product', cookie, { name: 'Sneaky', price: '1' });
      expect([response.status, response.headers.location]).toEqual([302, '/']);
      const data = await post('/add-product.data', cookie, { name: 'Sneaky', price: '1' });
      expect(data.status).toBeLessThan(500);
    }
    expect(await productCount(shop)).toBe(before);

    const admin = await shop.admin();
    const response = await post('/add-product', admin.cookie, { name: 'Big Picture Gayo', price: '18.50', netWeight: '250' }, [{ name: 'big.jpg', bytes: big }]);
    expect(response.status).toBe(200);
    expect(await productCount(shop)).toBe(before + 1);
  });

  it('refuses a sliver of a picture (100 × 20,000 px) with a translated 400, before decoding it', async () => {
    const admin = await shop.admin();
    const before = await productCount(shop);
    const sliver = await sharp({ create: { width: 100, height: 20_000, channels: 3, background: '#2f6b4f' } }).png().toBuffer();
    const response = await post('/add-product', admin.cookie, { name: 'Sliver', price: '1', netWeight: '250' }, [{ name: 'sliver.png', bytes: sliver }]);
    expect(response.status).toBe(400);
    expect(response.body).toContain('“sliver.png” is too long and narrow for a product picture');
    expect(await productCount(shop)).toBe(before);
  });

  it('refuses more than 81 MB even from an admin, before reading it', async () => {
    const admin = await shop.admin();
    const response = await rawRequest(shop.port, {
      method: 'POST',
      path: '/add-product',
      headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(90 * 1024 * 1024), cookie: admin.cookie },
      body: '--x\r\n',
    });
    expect(response.status).toBe(413);
  });

  it('stores pictures in the bucket and serves them at /images/… with a year of caching; deleted pictures answer 404', async () => {
    const admin = await shop.admin();
    const response = await post('/add-product', admin.cookie, { name: 'Bucket Bajawa', price: '13', netWeight: '250' }, [{ name: 'a.jpg', bytes: await noisyJpeg(900, 1200) }]);
    expect(response.status).toBe(200);
    const product = await shop.db
      .selectFrom('products')
      .innerJoin('product_translations', 'product_translations.product_id', 'products.id')
      .innerJoin('product_images', 'product_images.product_id', 'products.id')
      .select(['products.id', 'product_images.path'])
      .where('product_translations.name', '=', 'Bucket Bajawa')
      .executeTakeFirstOrThrow();

    // In the bucket, through the SDK's own path-style addressing.
    const direct = await fetch(`${s3.endpoint}/${s3.bucket}/${product.path}-640.webp`);
    expect(direct.status).toBe(200);

    const image = await rawRequest(shop.port, { path: `/images/${product.path}-640.webp` });
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/webp');
    expect(image.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const page = await rawRequest(shop.port, { path: `/product/${product.id}` });
    expect(page.body).toContain(`/images/${product.path}-640.webp`);

    // Only the shop's picture variants are served from the bucket, whatever else it holds.
    const bucket = createS3Storage({ bucket: s3.bucket, region: s3.region, endpoint: s3.endpoint, credentials: s3.credentials });
    await bucket.put('secret.txt', Buffer.from('not for the public'), 'text/plain');
    expect(await bucket.exists('secret.txt')).toBe(true);
    for (const missing of ['/images/products/nope-640.webp', '/images/../etc/passwd', '/images/products/%2e%2e/x', '/images/', '/images/secret.txt', `/images/${product.path}-641.webp`]) {
      expect((await rawRequest(shop.port, { path: missing })).status, missing).toBe(404);
    }

    const deleted = await rawRequest(shop.port, {
      method: 'POST',
      path: `/admin/products/${product.id}/delete`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: admin.cookie },
      body: 'redirectTo=%2Fadmin%2Fproducts',
    });
    expect(deleted.status).toBe(302);
    expect(deleted.headers.location).toMatch(/^\/admin\/products\?deleted=Bucket\+Bajawa$/);
    expect((await rawRequest(shop.port, { path: `/images/${product.path}-640.webp` })).status).toBe(404);
    expect((await fetch(`${s3.endpoint}/${s3.bucket}/${product.path}-640.webp`)).status).toBe(404);
  });

  it('links pictures at S3_PUBLIC_URL when it is set, and lets the pages load them from there', async () => {
    const cdn = await startTestShop({ ...s3.env, S3_PUBLIC_URL: 'https://cdn.kopi.test/img' });
    try {
      await cdn.db.insertInto('product_images').values({ product_id: cdn.productId, position: 0, path: 'products/x/y', width: 800, height: 1000 }).execute();
      const page = await rawRequest(cdn.port, { path: `/product/${cdn.productId}` });
      expect(page.body).toContain('https://cdn.kopi.test/img/products/x/y-640.webp');
      expect(page.headers['content-security-policy']).toContain('img-src \'self\' data: blob: https://cdn.kopi.test');
    } finally {
      await cdn.close();
    }
  });
});

describe('starting with S3_BUCKET', () => {
  it('stops with a message naming a bucket that cannot be reached', async () => {
    const s3 = await startS3Server('kopi-present');
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: s3.credentials.accessKeyId, AWS_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey });
    try {
      const { createServerApp } = (await import(pathToFileURL(path.resolve('build/server/index.js')).href)) as typeof import('./app');
      const config = loadConfig(
        { ...s3.env, S3_BUCKET: 'kopi-absent', DATA_DIR: path.join(os.tmpdir(), 'kopi-s3-start-never-made'), LOG_LEVEL: 'silent', SEED_DEMO: 'false', SESSION_SECRET: 'a-session-secret-for-the-s3-start-test' },
        { readDotEnv: false },
      );
      await expect(createServerApp({ config, logger: pino({ level: 'silent' }) })).rejects.toThrow(/The S3 bucket "kopi-absent" at http:\/\/127\.0\.0\.1:\d+ cannot be used: it does not exist/);
    } finally {
      await s3.close();
    }
  });
});
