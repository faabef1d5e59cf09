import { describe, expect, it } from 'vitest';
import { newId } from './ids.server';

describe('newId', () => {
  it('gives distinct 128-bit URL-safe ids, across refills of its pool', () => {
    const ids = Array.from({ length: 1000 }, newId); // 16,000 bytes: the 4 kB pool is refilled three times
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(Buffer.from(id, 'base64url')).toHaveLength(16);
    }
    // Consecutive ids share no bytes (each is its own slice of the pool).
    const [a, b] = [Buffer.from(ids[0], 'base64url'), Buffer.from(ids[1], 'base64url')];
    expect(a.equals(b)).toBe(false);
  });
});
