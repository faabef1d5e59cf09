/**
 * Empty databases for the migrations' tests (no migration run yet): SQLite in memory always, and PostgreSQL in a
 * schema of its own when TEST_DATABASE_URL is set, dropped on close.
 */
import { randomBytes } from 'node:crypto';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { NodeSqliteDatabase } from '../node-sqlite.server';
import type { Database } from '../schema';
import { dropSchema } from '../test-databases';

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
