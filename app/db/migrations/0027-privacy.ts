/**
 * Customers' control of their data (docs/decisions/0029): an account can be deleted (its row stays as an empty
 * tombstone so the orders and reviews the law or the customer keep still point somewhere, with nothing about
 * the person left in it), an order can lose everything about its customer that the law does not need
 * (`anonymised_at`), an invoice past its retention can be purged, a cookie-banner choice is recorded with its
 * time and the banner's version, and a daily job runs on one node a day (`job_runs`).
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('deleted_at', 'text').execute();
  await db.schema.alterTable('orders').addColumn('anonymised_at', 'text').execute();
  /** deletion (the customer's account or their request) | retention (its period ended) */
  await db.schema.alterTable('orders').addColumn('anonymised_by', 'text').execute();
  await db.schema.alterTable('invoices').addColumn('purged_at', 'text').execute();
  // A message or a back-in-stock request made while signed in belongs to that account (its export and deletion);
  // the email alone proves nothing, as sign-up does not confirm addresses.
  await db.schema.alterTable('contact_messages').addColumn('user_id', 'text').execute();
  await db.schema.alterTable('stock_alerts').addColumn('user_id', 'text').execute();
  await db.schema.createIndex('contact_messages_user_idx').on('contact_messages').column('user_id').execute();
  await db.schema.createIndex('stock_alerts_user_idx').on('stock_alerts').column('user_id').execute();
  await db.schema
    .createTable('consents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    /** The browser's analytics id; null for a first "decline" (no id exists without consent). */
    .addColumn('visitor_id', 'text')
    /** The signed-in customer who chose, if any. */
    .addColumn('user_id', 'text')
    /** 1 accepted statistics, 0 declined or withdrew. */
    .addColumn('analytics', 'integer', (c) => c.notNull())
    /** The banner's version the choice was made on (its text). */
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('consents_visitor_idx').on('consents').columns(['visitor_id', 'created_at']).execute();
  await db.schema.createIndex('consents_user_idx').on('consents').column('user_id').execute();
  await db.schema.createIndex('consents_created_idx').on('consents').column('created_at').execute();
  await db.schema
    .createTable('job_runs')
    /** retention */
    .addColumn('name', 'text', (c) => c.primaryKey())
    /** The last day (YYYY-MM-DD, UTC) a node claimed; a node claims a day by moving it, once. */
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('finished_at', 'text')
    /** JSON: what the last run did. */
    .addColumn('result', 'text')
    .execute();
  // What the retention job looks through, by age.
  await db.schema.createIndex('analytics_events_created_idx').on('analytics_events').column('created_at').execute();
  await db.schema.createIndex('analytics_events_user_idx').on('analytics_events').column('user_id').execute();
  // Finding what is kept under an address (the owner's export and erasure, a deletion's mail), in any case.
  await db.schema.createIndex('contact_messages_email_lower_idx').on('contact_messages').expression(sql`lower(email)`).execute();
  await db.schema.createIndex('orders_email_lower_idx').on('orders').expression(sql`lower(user_email)`).execute();
  await db.schema.createIndex('mail_outbox_to_lower_idx').on('mail_outbox').expression(sql`lower(to_address)`).execute();
  await db.schema.createIndex('mail_outbox_reply_lower_idx').on('mail_outbox').expression(sql`lower(reply_to)`).execute();
  await db.schema.createIndex('stock_alerts_email_lower_idx').on('stock_alerts').expression(sql`lower(email)`).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of ['stock_alerts_email_lower_idx', 'mail_outbox_reply_lower_idx', 'mail_outbox_to_lower_idx', 'orders_email_lower_idx', 'contact_messages_email_lower_idx', 'analytics_events_user_idx', 'analytics_events_created_idx']) {
    await db.schema.dropIndex(index).ifExists().execute();
  }
  await db.schema.dropTable('job_runs').execute();
  await db.schema.dropTable('consents').execute();
  await db.schema.dropIndex('stock_alerts_user_idx').execute();
  await db.schema.dropIndex('contact_messages_user_idx').execute();
  await db.schema.alterTable('stock_alerts').dropColumn('user_id').execute();
  await db.schema.alterTable('contact_messages').dropColumn('user_id').execute();
  await db.schema.alterTable('invoices').dropColumn('purged_at').execute();
  await db.schema.alterTable('orders').dropColumn('anonymised_by').execute();
  await db.schema.alterTable('orders').dropColumn('anonymised_at').execute();
  await db.schema.alterTable('users').dropColumn('deleted_at').execute();
}
