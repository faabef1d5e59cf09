/**
 * Empty databases for the migrations' tests (no migration run yet): SQLite in memory always, and PostgreSQL in a
 * schema of its own when TEST_DATABASE_URL is set, dropped on close.
 */
import { randomBytes } from 'node:crypto';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { Migrator } from 'kysely/migration';
import { underMigrationLock } from '../database.server';
import { NodeSqliteDatabase } from '../node-sqlite.server';
import type { Database } from '../schema';
import { dropSchema } from '../test-databases';
import { migrations } from './index';

export type Empty = { db: Kysely<Database>; schema?: string; close: () => Promise<void> };

async function emptySqlite(): Promise<Empty> {
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: new NodeSqliteDatabase(':memory:') }) });
  return { db, close: () => db.destroy() };
}

async function emptyPostgres(): Promise<Empty> {
  const url = process.env.TEST_DATABASE_URL!;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, options: `-c search_path=${schema}` }) }) });
  await sql`create schema ${sql.id(schema)}`.execute(db);
  return {
    db,
    schema,
    close: async () => {
      await dropSchema(db, schema);
      await db.destroy();
    },
  };
}

/** `[kind, open]` pairs for `describe.each`. */
export function emptyDatabases(): Array<[string, () => Promise<Empty>]> {
  const kinds: Array<[string, () => Promise<Empty>]> = [['sqlite', emptySqlite]];
  if (process.env.TEST_DATABASE_URL) kinds.push(['postgres', emptyPostgres]);
  return kinds;
}

/**
 * Migrates an empty database to `target` (a migration's name, or every one), returning Kysely's error if any.
 * On PostgreSQL under MIGRATION_LOCK, as the shop does: Kysely's migrator reads every schema's catalogue, and
 * another test file dropping its schema at that moment made it fail (CI, 2 December).
 */
export async function migrateEmpty({ db, schema }: Empty, target: string | 'latest'): Promise<unknown> {
  return underMigrationLock(db, async (executor) => {
    const migrator = new Migrator({ db: executor, provider: { getMigrations: async () => migrations }, migrationTableSchema: schema });
    return (target === 'latest' ? await migrator.migrateToLatest() : await migrator.migrateTo(target)).error;
  });
}
