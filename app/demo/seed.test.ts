/**
 * Nodes started at the same moment on one fresh PostgreSQL database: each migrates and seeds, as
 * `createServerApp` does, and together they make one schema and one demo catalogue.
 */
import { randomBytes } from 'node:crypto';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { demoProducts } from '~/demo/products';
import { nullStorage } from '~/modules/storage/null-storage';
import { type DB, migrateToLatest } from '~/db/database.server';
import type { Database } from '~/db/schema';
import { dropSchema } from '~/db/test-databases';
import { seedDemoCatalogue } from './seed.server';

const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('starting several nodes at once on PostgreSQL', () => {
  it('migrates once and seeds the demo catalogue once', async () => {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    // Four nodes, each with its own pool, as four processes would have.
    const nodes: DB[] = Array.from({ length: 4 }, () => new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 4, options: `-c search_path=${schema}` }) }) }));
    try {
      const few = demoProducts.slice(0, 3);
      const seeded = await Promise.all(
        nodes.map(async (db) => {
          await migrateToLatest(db, schema);
          return seedDemoCatalogue(db, nullStorage, { info: () => {} }, few);
        }),
      );
      expect(seeded.filter((n) => n > 0)).toEqual([few.length]);
      const products = await sql<{ n: number }>`select count(*)::int as n from products`.execute(nodes[0]);
      expect(products.rows[0].n).toBe(few.length);
      const applied = await sql<{ n: number }>`select count(*)::int as n from ${sql.id(schema, 'kysely_migration')}`.execute(nodes[0]);
      expect(applied.rows[0].n).toBeGreaterThan(0);
    } finally {
      await dropSchema(nodes[0], schema);
      await Promise.all(nodes.map((db) => db.destroy()));
      await admin.end();
    }
  });
});
