/**
 * The catalogue's vocabulary, for search that forgives typos (app/db/search-words.server.ts): every word of
 * products.search_text (a run of 2+ letters and digits with a letter) and how many products contain it,
 * filled here from the products there are.
 *
 * SQLite: `id` is an INTEGER PRIMARY KEY (VACUUM never renumbers it), the rowid of an FTS5 trigram table over
 * the words that triggers keep in step (a word's row is only ever inserted, recounted or deleted).
 * PostgreSQL: a pg_trgm GIN index on the word; skipped, as in 0002, when pg_trgm cannot be installed.
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;

/** The words of a search text, as app/modules/catalog/search.ts splits them today (frozen here). */
const wordsOf = (text: string) =>
  new Set(text.split(/[^\p{L}\p{N}]+/u).filter((word) => /^[\p{L}\p{N}]{2,}$/u.test(word) && /\p{L}/u.test(word)));

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`create table search_words (word text primary key, product_count integer not null)`.execute(db);
    await indexPostgres(db);
  } else {
    await sql`create table search_words (id integer primary key, word text not null unique, product_count integer not null)`.execute(db);
    await sql`create virtual table search_word_trigrams using fts5(word, content='search_words', content_rowid='id', tokenize='trigram')`.execute(db);
    await sql`
      create trigger search_words_insert after insert on search_words begin
        insert into search_word_trigrams (rowid, word) values (new.id, new.word);
      end`.execute(db);
    await sql`
      create trigger search_words_delete after delete on search_words begin
        insert into search_word_trigrams (search_word_trigrams, rowid, word) values ('delete', old.id, old.word);
      end`.execute(db);
  }
  await backfill(db);
}

async function backfill(db: Kysely<unknown>): Promise<void> {
  const counts = new Map<string, number>();
  let after = '';
  for (;;) {
    const { rows } = await sql<{ id: string; search_text: string }>`
      select id, search_text from products where id > ${after} order by id limit 1000`.execute(db);
    if (rows.length === 0) break;
    after = rows[rows.length - 1].id;
    for (const row of rows) for (const word of wordsOf(row.search_text)) counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  const words = [...counts];
  for (let i = 0; i < words.length; i += 500) {
    const values = words.slice(i, i + 500).map(([word, n]) => sql`(${word}, ${n})`);
    await sql`insert into search_words (word, product_count) values ${sql.join(values)}`.execute(db);
  }
}

/** Runs `statement` inside a savepoint (migrations run in a transaction); false when it failed. */
async function attempt(db: Kysely<unknown>, statement: ReturnType<typeof sql>): Promise<boolean> {
  await sql`savepoint kopi_search_words`.execute(db);
  try {
    await statement.execute(db);
    await sql`release savepoint kopi_search_words`.execute(db);
    return true;
  } catch {
    await sql`rollback to savepoint kopi_search_words`.execute(db);
    return false;
  }
}

async function indexPostgres(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ schema: string }>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
    where e.extname = 'pg_trgm'`.execute(db);
  const schema = rows[0]?.schema;
  const created =
    schema !== undefined && (await attempt(db, sql`create index search_words_word_trgm_idx on search_words using gin (word ${sql.id(schema, 'gin_trgm_ops')})`));
  if (!created) console.warn('No pg_trgm index on search_words: typo correction will scan the catalogue’s words.');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) {
    await sql`drop trigger if exists search_words_insert`.execute(db);
    await sql`drop trigger if exists search_words_delete`.execute(db);
    await sql`drop table if exists search_word_trigrams`.execute(db);
  }
  await sql`drop table if exists search_words`.execute(db);
}
