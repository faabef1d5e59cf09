/**
 * Migrations 0012 and 0013 on a shop that started with the demo catalogue before them: its coffees get
 * their Polish place names and their net weights; what the owner added is left alone.
 */
import { Kysely, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import { describe, expect, it } from 'vitest';
import { NodeSqliteDatabase } from '../node-sqlite.server';
import { migrations } from './index';

describe('the demo catalogue of an older shop', () => {
  it('gets Polish origins and regions and net weights; the owner’s own products stay as they were', async () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new NodeSqliteDatabase(':memory:') }) });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('0011-rush')).error).toBeUndefined();

    const now = new Date().toISOString();
    const product = (id: string, origin: string, region: string) => ({
      id, category: 'wholeBean', price_cents: 1590, rating: 0, review_count: 0, origin, region, search_text: '', created_at: now, updated_at: now,
    });
    await db.insertInto('products').values([product('demo', 'Java', 'Ijen Plateau, East Java'), product('own', 'Java', 'Our own garden')]).execute();
    await db
      .insertInto('product_translations')
      .values([
        { product_id: 'demo', locale: 'en', name: 'Java Ijen Plateau', description: '', tasting_notes: '' },
        { product_id: 'demo', locale: 'pl', name: 'Jawa, płaskowyż Ijen', description: '', tasting_notes: '' },
        { product_id: 'own', locale: 'en', name: 'Our Java', description: '', tasting_notes: '' },
        { product_id: 'own', locale: 'pl', name: 'Nasza Jawa', description: '', tasting_notes: '' },
      ])
      .execute();

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const rows = await db
      .selectFrom('products')
      .innerJoin('product_translations as pl', (join) => join.onRef('pl.product_id', '=', 'products.id').on('pl.locale', '=', 'pl'))
      .select(['products.id', 'products.net_weight_grams', 'pl.origin', 'pl.region'])
      .orderBy('products.id')
      .execute();
    expect(rows).toEqual([
      { id: 'demo', net_weight_grams: 250, origin: 'Jawa', region: 'Płaskowyż Ijen, Jawa Wschodnia' },
      // Its origin is a demo word too ("Java"), so it reads "Jawa" in Polish; its own region is untouched.
      { id: 'own', net_weight_grams: null, origin: 'Jawa', region: null },
    ]);
    await db.destroy();
  });
});
