/**
 * Mail the server refuses for good is parked (docs/decisions/0032): each message counts the attempts its mail
 * server refused with a permanent (5xx) answer; after a few it stops being retried (status `failed`) and the owner
 * sees it, with "Send again".
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail_outbox').addColumn('refusals', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail_outbox').dropColumn('refusals').execute();
}
