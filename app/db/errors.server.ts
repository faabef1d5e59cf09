/** Error checks that differ between the databases (node:sqlite and pg report them differently). */

// SQLite's extended result codes (https://sqlite.org/rescode.html), as node:sqlite reports them in `errcode`.
const SQLITE_CONSTRAINT_UNIQUE = 2067;
const SQLITE_CONSTRAINT_PRIMARYKEY = 1555;
// PostgreSQL's SQLSTATE for unique_violation.
const PG_UNIQUE_VIOLATION = '23505';

/** A unique (or primary key) constraint refused the write, on SQLite or PostgreSQL. */
export function isUniqueViolation(error: unknown): boolean {
  const { errcode, code } = (error ?? {}) as { errcode?: unknown; code?: unknown };
  return errcode === SQLITE_CONSTRAINT_UNIQUE || errcode === SQLITE_CONSTRAINT_PRIMARYKEY || code === PG_UNIQUE_VIOLATION;
}
