import fs from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect, type Transaction, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import type { Config } from '~/config/env.server';
import { migrations } from './migrations';
import { NodeSqliteDatabase } from './node-sqlite.server';
import type { Database } from './schema';

export type { Database } from './schema';
export type DB = Kysely<Database>;
/** A database or a transaction: services take this so a use case can run several of them in one transaction. */
export type Executor = Kysely<Database> | Transaction<Database>;
export type DatabaseKind = 'sqlite' | 'postgres';

export type DatabaseHandle = {
  db: DB;
  kind: DatabaseKind;
  close: () => Promise<void>;
  /** SQLite: transactions begin immediate while `on` (the shop's start; see NodeSqliteDatabase). */
  startingUp?: (on: boolean) => void;
};

// PostgreSQL returns bigint (count(*)) as a string by default; our counts fit in a JS number.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

/** `busyTimeoutMs`: how long SQLite waits for another process's write (the `kopi` command waits out a first start's seeding). */
export function openDatabase(database: Config['database'], { busyTimeoutMs = 5000 }: { busyTimeoutMs?: number } = {}): DatabaseHandle {
  if (database.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: database.url, max: 10 });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: 'postgres', close: () => db.destroy() };
  }
  if (database.file !== ':memory:') fs.mkdirSync(path.dirname(database.file), { recursive: true });
  const sqlite = new NodeSqliteDatabase(database.file);
  sqlite.exec('pragma journal_mode = WAL; pragma synchronous = NORMAL; pragma foreign_keys = ON');
  sqlite.exec(`pragma busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, kind: 'sqlite', close: () => db.destroy(), startingUp: (on) => void (sqlite.beginImmediate = on) };
}

/** Applies pending migrations. `schema` keeps Kysely's bookkeeping tables in one PostgreSQL schema (tests). */
export async function migrateToLatest(db: DB, schema?: string): Promise<void> {
  // Kysely locks the migrations themselves, but creates its bookkeeping table before that lock; nodes
  // starting together on a fresh database take turns from the very start instead.
  await underMigrationLock(db, (executor) => migrate(executor, schema));
}

/**
 * Runs `work` on one connection holding MIGRATION_LOCK on PostgreSQL (migrations, and whatever changes the
 * catalogue while others may migrate); on SQLite, as it is.
 */
export async function underMigrationLock<T>(db: Kysely<any>, work: (executor: Kysely<any>) => Promise<T>): Promise<T> {
  if (databaseKind(db) !== 'postgres') return work(db);
  return db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK})`.execute(connection);
    try {
      return await work(connection);
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK})`.execute(connection);
    }
  });
}

/**
 * The PostgreSQL advisory lock migrations run under. Kysely's migrator reads the catalogue of every schema
 * (has_schema_privilege over pg_namespace), which fails when another schema is dropped at that moment: whoever
 * drops a schema while others may migrate (the tests' own schemas) takes this lock first.
 */
export const MIGRATION_LOCK = 7_401_926_000;

async function migrate(db: DB, schema?: string): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, migrationTableSchema: schema });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error });
  }
}

/** The database's kind, for the few queries that differ (kept in db/ helpers). */
export function databaseKind(db: Executor): DatabaseKind {
  return db.getExecutor().adapter.constructor.name.startsWith('Postgres') ? 'postgres' : 'sqlite';
}

export const now = () => new Date().toISOString();

let lastTimestamp = 0;
/** An ISO timestamp that strictly increases within this process, so rows written in a burst keep their order. */
export function monotonicNow(): string {
  lastTimestamp = Math.max(Date.now(), lastTimestamp + 1);
  return new Date(lastTimestamp).toISOString();
}

/** Runs `work` in a transaction, joining the caller's when `db` already is one. */
export async function inTransaction<T>(db: Executor, work: (trx: Executor) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}
