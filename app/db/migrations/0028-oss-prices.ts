/**
 * Prices under OSS (docs/decisions/0027): the owner chooses whether gross prices stay the same everywhere (the
 * default, as before) or follow the buyer's country's VAT — the same net price, that country's rate on top. An
 * order says whether its prices were worked out that way.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  /** 1: under OSS, a consumer elsewhere in the EU pays the net price plus their country's VAT. */
  await db.schema.alterTable('tax_settings').addColumn('prices_follow_rate', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  /** 1 when the order's unit prices were converted from Polish VAT to its tax country's. */
  await db.schema.alterTable('orders').addColumn('prices_follow_rate', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').dropColumn('prices_follow_rate').execute();
  await db.schema.alterTable('tax_settings').dropColumn('prices_follow_rate').execute();
}
