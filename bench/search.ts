import { performance } from 'node:perf_hooks';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { type DB, migrateToLatest, openDatabase } from '~/db/database.server';
import type { Database } from '~/db/schema';
import { createFakeCatalogue } from '../tests/fixtures/fake-catalogue';
import { listProducts } from '~/modules/catalog/index.server';
import { nullStorage } from '~/modules/storage/null-storage';
import { percentile } from './http';

const storage = nullStorage;

const queries: Array<{ q?: string; category?: 'wholeBean' | 'capsulesAndPods'; page?: number; typo?: true }> = [
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
  // Misspelt: corrected to czekolada, sumatra, mandailing, "jasmin plum" (the typed "jasmin" occurs in "jasmine").
  { q: 'czekloada', typo: true },
  { q: 'sumtra', typo: true },
  { q: 'mandeling', typo: true },
  { q: 'jasmin plumm', typo: true },
];

/** p50, p95 and max of all queries, of those spelt right and of the misspelt ones, without the first round (warm-up). */
async function measure(db: DB, rounds = 20) {
  const all: number[] = [];
  const exact: number[] = [];
  const typos: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const query of queries) {
      const started = performance.now();
      await listProducts(db, storage, { locale: 'pl', q: query.q, category: query.category, limit: 12 * (query.page ?? 1), offset: 0 });
      const ms = performance.now() - started;
      if (round === 0) continue;
      all.push(ms);
      (query.typo ? typos : exact).push(ms);
    }
  }
  const figures = (times: number[]) => ({ queries: times.length, p50: percentile(times, 50), p95: percentile(times, 95), max: Math.max(...times) });
  return [
    { searches: 'all', ...figures(all) },
    { searches: 'spelt right', ...figures(exact) },
    { searches: 'misspelt', ...figures(typos) },
  ];
}

export async function searchLatency() {
  const results = [];
  const sqlite = openDatabase({ kind: 'sqlite', file: ':memory:' });
  await migrateToLatest(sqlite.db);
  await createFakeCatalogue(sqlite.db, 10_000);
  results.push(...(await measure(sqlite.db)).map((row) => ({ database: 'sqlite', ...row })));
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
      results.push(...(await measure(db)).map((row) => ({ database: 'postgres', ...row })));
    } finally {
      await sql`drop schema ${sql.id(schema)} cascade`.execute(db);
      await db.destroy();
    }
  }
  return results;
}
