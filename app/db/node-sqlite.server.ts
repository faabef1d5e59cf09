/**
 * Node's built-in SQLite (`node:sqlite`) behind the small interface Kysely's SqliteDialect expects
 * (better-sqlite3's `prepare` → `reader` / `all` / `run` / `iterate`). No native module to build, and
 * none that can abort the process from a garbage-collected statement (docs/decisions/0005).
 */
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

type Parameters = ReadonlyArray<unknown>;
type Prepared = { statement: StatementSync; reader: boolean };

/** Kysely compiles the same few hundred query shapes over and over: keep their prepared statements. */
const STATEMENT_CACHE_SIZE = 500;

export class NodeSqliteDatabase implements SqliteDatabase {
  readonly native: DatabaseSync;
  readonly #cache = new Map<string, Prepared>();
  /**
   * While the shop starts (migrations, the demo seed): transactions take the write lock when they begin. In WAL
   * mode a transaction that read and then finds another process (the `kopi` command) wrote meanwhile fails at once
   * with SQLITE_BUSY_SNAPSHOT, which no busy timeout waits out — at start that stopped the shop. Not while serving:
   * a lock held from the first statement would keep the command waiting behind a busy shop.
   */
  beginImmediate = false;

  constructor(file: string) {
    this.native = new DatabaseSync(file);
  }

  /** Runs statements that return nothing (pragmas, DDL). */
  exec(sql: string): void {
    this.native.exec(sql);
  }

  prepare(sql: string): SqliteStatement {
    const { statement, reader } = this.#prepared(sql === 'begin' && this.beginImmediate ? 'begin immediate' : sql);
    return {
      reader,
      all: (parameters: Parameters) => statement.all(...(parameters as never[])),
      run: (parameters: Parameters) => statement.run(...(parameters as never[])),
      // An iterator keeps its statement busy, so it gets one of its own rather than the cached one.
      iterate: (parameters: Parameters) => this.native.prepare(sql).iterate(...(parameters as never[])),
    };
  }

  close(): void {
    this.#cache.clear();
    if (this.native.isOpen) this.native.close();
  }

  #prepared(sql: string): Prepared {
    const cached = this.#cache.get(sql);
    if (cached) {
      // Least recently used goes first: re-inserting moves this one to the end.
      this.#cache.delete(sql);
      this.#cache.set(sql, cached);
      return cached;
    }
    const statement = this.native.prepare(sql);
    const prepared = { statement, reader: statement.columns().length > 0 };
    this.#cache.set(sql, prepared);
    if (this.#cache.size > STATEMENT_CACHE_SIZE) this.#cache.delete(this.#cache.keys().next().value!);
    return prepared;
  }
}
