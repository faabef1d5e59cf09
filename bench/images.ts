import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { here } from './http';

export type ImageFigures = { megapixels: number; inputBytes: number; p50: number; max: number; baselineMb: number; peakMb: number };

/**
 * How long one 4000 × 3000 camera JPEG takes to become the storefront's WebP variants, and the peak memory
 * of a process doing it (measured in a process of its own: bench/image-child.ts).
 */
export async function imageFigures(runs = 5): Promise<ImageFigures> {
  const width = 4000;
  const height = 3000;
  // A photo-like picture: smooth gradients with fine noise, so it compresses like a real photo (~3 MB).
  const raw = Buffer.alloc(width * height * 3);
  let seed = 7;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      const noise = (seed >>> 27) - 16;
      const i = (y * width + x) * 3;
      raw[i] = Math.max(0, Math.min(255, 90 + ((x * 120) / width) + noise));
      raw[i + 1] = Math.max(0, Math.min(255, 60 + ((y * 90) / height) + noise));
      raw[i + 2] = Math.max(0, Math.min(255, 40 + (((x + y) * 60) / (width + height)) + noise));
    }
  }
  const jpeg = await sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality: 90 }).withMetadata({ orientation: 1 }).toBuffer();
  const file = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'kopi-bench-jpeg-')), 'camera.jpg');
  await fs.writeFile(file, jpeg);
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', here('bench', 'image-child.ts'), file, String(runs)], { cwd: here() });
  await fs.rm(path.dirname(file), { recursive: true, force: true });
  const result = JSON.parse(stdout.trim().split('\n').pop()!) as { ms: number[]; baselineKb: number; peakKb: number };
  const sorted = [...result.ms].sort((a, b) => a - b);
  return {
    megapixels: (width * height) / 1e6,
    inputBytes: jpeg.length,
    p50: sorted[Math.floor(sorted.length / 2)],
    max: sorted[sorted.length - 1],
    baselineMb: result.baselineKb / 1024,
    peakMb: result.peakKb / 1024,
  };
}
