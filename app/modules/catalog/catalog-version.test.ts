/**
 * The catalogue version every node watches: catalogue writes bump the stored version in their transaction,
 * and a node watching it hears of a change another node made (here: another connection) within a second.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { createProduct, deleteProduct, onCatalogChange, storedCatalogVersion, updateProduct, watchCatalogVersion } from './index.server';

const input = { category: 'wholeBean' as const, priceCents: 1250, translations: { en: { name: 'Gayo' } } };

describe.each(testDatabases())('the stored catalogue version on %s', (_kind, open) => {
  let handle: TestDatabase;
  beforeAll(async () => {
    handle = await open();
  });
  afterAll(() => handle.close());

  it('moves with every catalogue write, in the write’s transaction', async () => {
    const v0 = await storedCatalogVersion(handle.db);
    const id = await createProduct(handle.db, input);
    const v1 = await storedCatalogVersion(handle.db);
    expect(v1).toBeGreaterThan(v0);
    await updateProduct(handle.db, id, { ...input, priceCents: 1399 });
    const v2 = await storedCatalogVersion(handle.db);
    expect(v2).toBeGreaterThan(v1);
    await deleteProduct(handle.db, id);
    expect(await storedCatalogVersion(handle.db)).toBeGreaterThan(v2);
    // A write that rolls back leaves it where it was.
    const before = await storedCatalogVersion(handle.db);
    await expect(handle.db.transaction().execute(async (trx) => {
      await createProduct(trx, input);
      throw new Error('rolled back');
    })).rejects.toThrow('rolled back');
    expect(await storedCatalogVersion(handle.db)).toBe(before);
  });

  it('tells a watching node of a change made elsewhere within a second', async () => {
    const heard: number[] = [];
    const unsubscribe = onCatalogChange((version) => heard.push(version));
    const stop = watchCatalogVersion(handle.db, { intervalMs: 100 });
    try {
      await new Promise((r) => setTimeout(r, 250)); // the watcher has read the version once
      expect(heard).toEqual([]);
      // Another node's write: only the stored version moves (nothing in this process is told).
      await sql`update catalog_state set version = version + 1 where id = 1`.execute(handle.db);
      const started = Date.now();
      while (heard.length === 0 && Date.now() - started < 1000) await new Promise((r) => setTimeout(r, 20));
      expect(heard.length).toBe(1);
    } finally {
      stop();
      unsubscribe();
    }
  });
});
