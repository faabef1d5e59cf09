/**
 * Reviews from buyers (the Omnibus rules on reviews): one per customer and coffee, written only by a
 * customer with a delivered order of it. `products.rating` and `review_count` become the average and count
 * of a coffee's published reviews, kept by app/modules/reviews in the transaction that changes them; the
 * figures stored until now had no review behind them, so they start again at zero.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('reviews')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('product_id', 'text', (c) => c.notNull().references('products.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id'))
    .addColumn('rating', 'integer', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('author_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('reply', 'text')
    .addColumn('replied_at', 'text')
    .addColumn('hidden_reason', 'text')
    .addColumn('hidden_at', 'text')
    .addUniqueConstraint('reviews_product_user_key', ['product_id', 'user_id'])
    .execute();
  await db.schema.createIndex('reviews_product_created_idx').on('reviews').columns(['product_id', 'created_at']).execute();
  await db.schema.createIndex('reviews_created_idx').on('reviews').column('created_at').execute();
  await db.updateTable('products' as never).set({ rating: 0, review_count: 0 } as never).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('reviews').ifExists().execute();
}
