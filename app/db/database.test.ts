import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKind } from './database.server';
import { type TestDatabase, testDatabases } from './test-databases';

describe.each(testDatabases())('database on %s', (kind, open) => {
  let handle: TestDatabase;
  beforeAll(async () => {
    handle = await open();
  });
  afterAll(() => handle.close());

  it('migrates every table and reports its kind', async () => {
    const tables = (await handle.db.introspection.getTables()).map((t) => t.name);
    expect(tables).toEqual(expect.arrayContaining(['products', 'product_translations', 'carts', 'cart_lines', 'mail_outbox']));
    expect(databaseKind(handle.db)).toBe(kind);
  });
});
