import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoImages } from '~/demo/demo-images.server';
import { escapeXml, packshotSvg } from '~/demo/packshot.server';
import { demoProducts, type DemoProduct } from '~/demo/products';
import { createLocalStorage } from '~/modules/storage/index.server';

let dir: string;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'kopi-demo-images-'));
});

afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

function product(key: string): DemoProduct {
  const found = demoProducts.find((p) => p.key === key);
  if (!found) throw new Error(`no demo product ${key}`);
  return found;
}

describe('generateDemoImages', () => {
  it('renders every view of a product as 4:5 WebP variants and returns the key bases in order', async () => {
    const storage = createLocalStorage(dir);
    const gayo = product('gayo-wine-natural');
    expect(gayo.imageCount).toBe(3);

    const keys = await generateDemoImages(storage, gayo, 'p1');
    expect(keys).toEqual([0, 1, 2].map((view) => `products/p1/gayo-wine-natural-${view}`));
    for (const key of keys) {
      for (const width of [320, 640, 1200]) {
        const meta = await sharp(path.join(dir, `${key}-${width}.webp`)).metadata();
        expect(meta.format).toBe('webp');
        expect([meta.width, meta.height]).toEqual([width, (width * 5) / 4]);
      }
    }
    // A drawing, not an empty canvas: the large variant carries real detail.
    const { size } = await fs.stat(path.join(dir, `${keys[0]}-1200.webp`));
    expect(size).toBeGreaterThan(15_000);
  });

  it('does not draw again what is already stored', async () => {
    const storage = createLocalStorage(dir);
    const gayo = product('gayo-wine-natural');
    const file = path.join(dir, 'products/p1/gayo-wine-natural-0-640.webp');
    const before = (await fs.stat(file)).mtimeMs;
    await generateDemoImages(storage, gayo, 'p1');
    expect((await fs.stat(file)).mtimeMs).toBe(before);
  });

  it('returns nothing for a product without pictures', async () => {
    const storage = createLocalStorage(dir);
    const bare = { ...demoProducts[0]!, imageCount: 0 as const };
    expect(await generateDemoImages(storage, bare, 'p2')).toEqual([]);
  });
});

describe('packshotSvg', () => {
  it('draws every view of every category as well-formed SVG', async () => {
    const categories = ['wholeBean', 'groundCoffee', 'dripCoffeeBags', 'capsulesAndPods'] as const;
    for (const category of categories) {
      const p = demoProducts.find((d) => d.category === category && d.imageCount > 0)!;
      for (const view of [0, 1, 2] as const) {
        const svg = packshotSvg(p, view);
        expect(svg).toMatch(/^<svg [^>]*viewBox="0 0 1200 1500"/);
        expect(svg).not.toMatch(/href="(https?:|data:)/);
        const meta = await sharp(Buffer.from(svg)).metadata();
        expect([meta.width, meta.height]).toEqual([1200, 1500]);
      }
    }
  });

  it('escapes text taken from the product', () => {
    const tricky = { ...product('toraja-sapan'), region: 'Sapan & <Toraja>' };
    expect(packshotSvg(tricky, 0)).toContain('Sapan &amp; &lt;Toraja&gt;');
    expect(escapeXml(`"'`)).toBe('&quot;&apos;');
  });
});

describe('demo catalogue', () => {
  it('has the agreed shape', () => {
    expect(demoProducts.length).toBeGreaterThanOrEqual(26);
    expect(new Set(demoProducts.map((p) => p.key)).size).toBe(demoProducts.length);
    expect(new Set(demoProducts.map((p) => p.daysAgo)).size).toBe(demoProducts.length);
    expect(demoProducts.filter((p) => p.imageCount === 0), 'every demo coffee has its packshot').toEqual([]);
    for (const p of demoProducts) {
      expect(p.altitudeMin).toBeLessThan(p.altitudeMax);
      expect(Number.isInteger(p.priceCents)).toBe(true);
      for (const locale of [p.en, p.pl]) {
        expect(locale.notes.length).toBeGreaterThanOrEqual(2);
        expect(locale.notes.length).toBeLessThanOrEqual(3);
        // Notes are stored comma-separated.
        for (const note of locale.notes) expect(note).not.toContain(',');
      }
    }
  });
});
