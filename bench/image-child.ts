/**
 * Runs in its own process (bench/images.ts starts it), so its peak memory is the upload's alone: checks and
 * stores one uploaded JPEG as the shop does (sniff, pixel check, EXIF rotation, WebP variants to local disk),
 * RUNS times, and prints the timings and the process's peak resident memory as JSON.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { checkImage, storeUploadedImages } from '~/modules/backoffice/index.server';
import { createLocalStorage } from '~/modules/storage/index.server';

const [input, runs = '5'] = process.argv.slice(2);
const bytes = await fs.readFile(input);
const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'kopi-bench-images-'));
const storage = createLocalStorage(dir);
const baseline = process.resourceUsage().maxRSS;
const ms: number[] = [];
for (let i = 0; i < Number(runs); i++) {
  const started = performance.now();
  const checked = await checkImage(new File([new Uint8Array(bytes)], 'camera.jpg', { type: 'image/jpeg' }));
  await storeUploadedImages(storage, `bench-${i}`, [checked]);
  ms.push(performance.now() - started);
}
await fs.rm(dir, { recursive: true, force: true });
console.log(JSON.stringify({ ms, baselineKb: baseline, peakKb: process.resourceUsage().maxRSS }));
