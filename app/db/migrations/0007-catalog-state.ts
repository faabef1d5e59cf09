/**
 * The catalogue's version, shared by every node: bumped in the transaction of every catalogue write, and
 * watched by each node so its page cache is emptied within a second of a change made on another node.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('catalog_state')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await (db as Kysely<{ catalog_state: { id: number; version: number } }>).insertInto('catalog_state').values({ id: 1, version: 0 }).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('catalog_state').ifExists().execute();
}
