import { randomBytes } from 'node:crypto';

// Ids are cut from a pool of random bytes refilled 4 kB at a time: the same generator, without asking it for
// 16 bytes at a time (a checkout makes a dozen ids).
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let offset = 0;

/** Random URL-safe id (128 bits). */
export function newId(): string {
  if (offset + 16 > pool.length) {
    pool = randomBytes(POOL_BYTES);
    offset = 0;
  }
  offset += 16;
  return pool.toString('base64url', offset - 16, offset);
}
