/**
 * The back office: the size of every stored picture (pictures keep their own proportions; cards crop them),
 * and the activity log of what admins did (who, what, when, and the details such as old → new price).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('product_images').addColumn('width', 'integer').execute();
  await db.schema.alterTable('product_images').addColumn('height', 'integer').execute();

  await db.schema
    .createTable('activity_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('actor_id', 'text')
    .addColumn('actor_email', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('subject_type', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text')
    .addColumn('subject_label', 'text', (c) => c.notNull())
    .addColumn('details', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('activity_log_created_idx').on('activity_log').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('activity_log_subject_idx').on('activity_log').columns(['subject_type', 'subject_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('activity_log').ifExists().execute();
  await db.schema.alterTable('product_images').dropColumn('height').execute();
  await db.schema.alterTable('product_images').dropColumn('width').execute();
}
