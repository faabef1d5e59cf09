/**
 * A session knows whether its sign-in confirmed who the customer is (docs/decisions/0029): a sign-in at the
 * provider asked for again (`prompt=login`, `max_age=0`, its `auth_time` checked), as deleting an account that
 * has no password needs. An ordinary "Continue with Google", which may pass straight through the browser's
 * Google session, does not count, however recent.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  /** When the sign-in that started this session confirmed who the customer is; null for an ordinary one. */
  await db.schema.alterTable('sessions').addColumn('confirmed_at', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('confirmed_at').execute();
}
