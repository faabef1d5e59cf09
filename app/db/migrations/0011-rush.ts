/**
 * Rush-proof orders. The outbox claims messages in batches under a short lease, and each claim writes its
 * own token, so only the worker holding a message renews its lease or marks it sent. An "Add to cart" carries
 * a request key; the keys already applied are kept for a day, so a re-sent request changes the cart once.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('mail_outbox').addColumn('claim_token', 'text').execute();
  await db.schema
    .createTable('cart_requests')
    .addColumn('request_key', 'text', (c) => c.primaryKey())
    .addColumn('cart_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('cart_requests_created_idx').on('cart_requests').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('cart_requests').ifExists().execute();
  await db.schema.alterTable('mail_outbox').dropColumn('claim_token').execute();
}
