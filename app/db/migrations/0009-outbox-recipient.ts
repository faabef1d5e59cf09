/** An order's timeline lists the mails sent to its customer: found by recipient, not by reading the whole outbox. */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('mail_outbox_to_idx').on('mail_outbox').columns(['to_address', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('mail_outbox_to_idx').ifExists().execute();
}
