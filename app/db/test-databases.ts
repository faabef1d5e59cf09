/**
 * Test helper: a fresh, migrated database per suite, on SQLite always and on PostgreSQL when
 * TEST_DATABASE_URL is set (each suite gets its own schema, dropped afterwards).
 *
 *   describe.each(testDatabases())('cart on %s', (_name, open) => {
 *     let handle: TestDatabase;
 *     beforeAll(async () => { handle = await open(); });
 *     afterAll(() => handle.close());
 *   });
 */
import { randomBytes } from 'node:crypto';
import { Kysely, PostgresDialect, type RawBuilder, sql } from 'kysely';
import pg from 'pg';
import { type DB, type DatabaseKind, migrateToLatest, openDatabase, underMigrationLock } from './database.server';
import type { Database } from './schema';

export type TestDatabase = { db: DB; kind: DatabaseKind; close: () => Promise<void> };
export type OpenTestDatabase = () => Promise<TestDatabase>;

export function testDatabases(): Array<[DatabaseKind, OpenTestDatabase]> {
  const list: Array<[DatabaseKind, OpenTestDatabase]> = [['sqlite', openSqlite]];
  if (process.env.TEST_DATABASE_URL) list.push(['postgres', openPostgres]);
  return list;
}

async function openSqlite(): Promise<TestDatabase> {
  const handle = openDatabase({ kind: 'sqlite', file: ':memory:' });
  await migrateToLatest(handle.db);
  return handle;
}

async function openPostgres(): Promise<TestDatabase> {
  const url = process.env.TEST_DATABASE_URL!;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const pool = new pg.Pool({ connectionString: url, max: 10, options: `-c search_path=${schema}` });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  await migrateToLatest(db, schema);
  return {
    db,
    kind: 'postgres',
    close: async () => {
      await dropSchema(db, schema);
      await db.destroy();
    },
  };
}

/**
 * Drops a test's schema under the migration lock: test files run in parallel, and a schema dropped while
 * another file migrates makes that migration fail (see MIGRATION_LOCK).
 */
export async function dropSchema(db: Kysely<any>, schema: string): Promise<void> {
  await changeCatalogue(db, sql`drop schema if exists ${sql.id(schema)} cascade`);
}

/**
 * Runs a statement that changes the catalogue (a table renamed for a moment, say) under the migration lock on
 * PostgreSQL, for the same reason: another file's migrator reading every schema's tables then failed on a
 * table renamed under it. SQLite has one file per test and needs no lock.
 */
export async function changeCatalogue(db: Kysely<any>, statement: RawBuilder<unknown>): Promise<void> {
  await underMigrationLock(db, (executor) => statement.execute(executor));
}
