/**
 * Migration 0033 on a shop that has run for a while: the złoty free-delivery thresholds the rate proposed
 * (212,99 zł for 50 €) become round ones (200 zł); one the owner typed stays.
 */
import { Migrator } from 'kysely/migration';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../database.server';
import { migrations } from './index';

describe('złoty thresholds on a shop that has them already', () => {
  it('rounds the proposed ones and keeps the owner’s', async () => {
    const { db, close } = openDatabase({ kind: 'sqlite', file: ':memory:' });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const any = db as any;
    const migrator = new Migrator({ db: any, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('0032-paid-with')).error).toBeUndefined();
    const methods = await any.selectFrom('delivery_methods').select(['id', 'free_over_cents', 'free_over_pln']).where('free_over_cents', 'is not', null).execute();
    expect(methods.length).toBeGreaterThan(0);
    // The seeded shop's: 50 € proposed as 212,99 zł by migration 0022.
    const proposed = methods.find((m: { free_over_cents: number }) => Number(m.free_over_cents) === 5000);
    expect(Number(proposed.free_over_pln)).toBe(21_299);
    const typed = methods.find((m: { id: string }) => m.id !== proposed.id) ?? null;
    if (typed) await any.updateTable('delivery_methods').set({ free_over_pln: 19_900 }).where('id', '=', typed.id).execute();

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const after = await any.selectFrom('delivery_methods').select(['id', 'free_over_pln']).execute();
    expect(Number(after.find((m: { id: string }) => m.id === proposed.id).free_over_pln)).toBe(20_000);
    if (typed) expect(Number(after.find((m: { id: string }) => m.id === typed.id).free_over_pln)).toBe(19_900);
    await close();
  });
});
