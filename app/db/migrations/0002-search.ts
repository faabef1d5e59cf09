/**
 * An index that serves substring search over products.search_text (see app/db/search.server.ts).
 *
 * SQLite: a contentless FTS5 table with the trigram tokenizer, kept in step with `products` by triggers.
 * Its rowids come from `product_search_rows` (an INTEGER PRIMARY KEY, so VACUUM never renumbers them),
 * which maps them to product ids.
 *
 * PostgreSQL: a pg_trgm GIN index, which LIKE '%term%' uses. pg_trgm is a trusted extension, but if it
 * cannot be installed the index is skipped and search still works (by scanning).
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) return upPostgres(db);

  await sql`create table product_search_rows (rowid integer primary key, product_id text not null unique)`.execute(db);
  await sql`create virtual table product_search using fts5(search_text, content='', contentless_delete=1, tokenize='trigram')`.execute(
    db,
  );
  await sql`
    create trigger products_search_insert after insert on products begin
      insert into product_search_rows (product_id) values (new.id);
      insert into product_search (rowid, search_text) values (last_insert_rowid(), new.search_text);
    end`.execute(db);
  await sql`
    create trigger products_search_update after update of search_text on products begin
      delete from product_search where rowid = (select rowid from product_search_rows where product_id = old.id);
      insert into product_search (rowid, search_text)
        select rowid, new.search_text from product_search_rows where product_id = new.id;
    end`.execute(db);
  await sql`
    create trigger products_search_delete after delete on products begin
      delete from product_search where rowid = (select rowid from product_search_rows where product_id = old.id);
      delete from product_search_rows where product_id = old.id;
    end`.execute(db);
  await sql`insert into product_search_rows (product_id) select id from products`.execute(db);
  await sql`
    insert into product_search (rowid, search_text)
    select r.rowid, p.search_text from product_search_rows r join products p on p.id = r.product_id`.execute(db);
}

/** Runs `statement` inside a savepoint (migrations run in a transaction); false when it failed. */
async function attempt(db: Kysely<unknown>, statement: ReturnType<typeof sql>): Promise<boolean> {
  await sql`savepoint kopi_search`.execute(db);
  try {
    await statement.execute(db);
    await sql`release savepoint kopi_search`.execute(db);
    return true;
  } catch {
    await sql`rollback to savepoint kopi_search`.execute(db);
    return false;
  }
}

async function upPostgres(db: Kysely<unknown>): Promise<void> {
  // Prefer the public schema, so the extension does not live (and die) with one application schema.
  (await attempt(db, sql`create extension if not exists pg_trgm with schema public`)) ||
    (await attempt(db, sql`create extension if not exists pg_trgm`));
  const { rows } = await sql<{ schema: string }>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
    where e.extname = 'pg_trgm'`.execute(db);
  const schema = rows[0]?.schema;
  if (!schema) {
    console.warn('pg_trgm is not available: product search will scan instead of using an index.');
    return;
  }
  const created = await attempt(
    db,
    sql`create index products_search_text_trgm_idx on products using gin (search_text ${sql.id(schema, 'gin_trgm_ops')})`,
  );
  if (!created) console.warn('Could not create the pg_trgm index: product search will scan instead of using an index.');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop index if exists products_search_text_trgm_idx`.execute(db);
    return;
  }
  for (const trigger of ['products_search_insert', 'products_search_update', 'products_search_delete']) {
    await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db);
  }
  await sql`drop table if exists product_search`.execute(db);
  await sql`drop table if exists product_search_rows`.execute(db);
}
