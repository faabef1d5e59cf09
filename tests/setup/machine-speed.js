#!/usr/bin/env node
// How fast this machine is today, as a yardstick for CI's times: SHA-256 over 1 MiB buffers on every core at once
// for 3 s, in MiB/s for the whole machine. The suite is CPU-bound, so a day at half this rate takes about twice
// as long (docs/decisions/0030). Printed, and recorded in CI's table (tests/setup/timings.js).
import { createHash } from 'node:crypto';
import os from 'node:os';
import { Worker, isMainThread, parentPort } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';

const SECONDS = 3;

if (isMainThread) {
  const { recordTiming } = await import('./timings.js');
  const cores = os.availableParallelism();
  const started = performance.now();
  const counts = await Promise.all(
    Array.from({ length: cores }, () => new Promise((resolve, reject) => new Worker(fileURLToPath(import.meta.url)).once('message', resolve).once('error', reject))),
  );
  const rate = counts.reduce((sum, n) => sum + n, 0) / SECONDS;
  const detail = `${cores} cores, SHA-256 at ${Math.round(rate)} MiB/s on all of them`;
  console.log(`Machine speed: ${detail}`);
  recordTiming('machine speed (the yardstick)', (performance.now() - started) / 1000, detail);
} else {
  const buffer = Buffer.alloc(1 << 20, 7);
  const until = performance.now() + SECONDS * 1000;
  let n = 0;
  while (performance.now() < until) {
    createHash('sha256').update(buffer).digest();
    n++;
  }
  parentPort.postMessage(n);
}
