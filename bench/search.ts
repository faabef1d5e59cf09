import { performance } from 'node:perf_hooks';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { type DB, migrateToLatest, openDatabase } from '~/db/database.server';
import type { Database } from '~/db/schema';
import { createFakeCatalogue } from '~/modules/catalog/fake-catalogue.server';
import { listProducts } from '~/modules/catalog/index.server';
import { nullStorage } from '~/modules/storage/null-storage';
import { percentile } from './http';

const storage = nullStorage;

const queries: Array<{ q?: string; category?: 'wholeBean' | 'capsulesAndPods'; page?: number }> = [
  { q: 'chocolate' },
  { q: 'czekolada' },
  { q: 'czekolade' },
  { q: 'kapsułki' },
  { q: 'capsules' },
  { q: 'sumatra washed' },
  { q: 'jasmine', category: 'wholeBean' },
  { q: 'zz' },
  { q: 'nothing-matches-this' },
  { q: 'gayo', page: 3 },
  { category: 'capsulesAndPods' },
  { q: 'TORAJA' },
];

async function measure(db: DB, rounds = 20) {
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const query of queries) {
      const started = performance.now();
      await listProducts(db, storage, { locale: 'pl', q: query.q, category: query.category, limit: 12 * (query.page ?? 1), offset: 0 });
      times.push(performance.now() - started);
    }
  }
  const warm = times.slice(queries.length);
  return { queries: warm.length, p50: percentile(warm, 50), p95: percentile(warm, 95), max: Math.max(...warm) };
}

export async function searchLatency() {
  const results = [];
  const sqlite = openDatabase({ kind: 'sqlite', file: ':memory:' });
  await migrateToLatest(sqlite.db);
  await createFakeCatalogue(sqlite.db, 10_000);
  results.push({ database: 'sqlite', ...(await measure(sqlite.db)) });
  await sqlite.close();

  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (url) {
    const schema = `bench_${Date.now()}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, options: `-c search_path=${schema}` }) }) });
    try {
      await migrateToLatest(db, schema);
      await createFakeCatalogue(db, 10_000);
      results.push({ database: 'postgres', ...(await measure(db)) });
    } finally {
      await sql`drop schema ${sql.id(schema)} cascade`.execute(db);
      await db.destroy();
    }
  }
  return results;
}
