/**
 * Reviews from buyers (the Omnibus rules on reviews, in force in Poland since 1 January 2023): a customer
 * whose order with a coffee was delivered may review that coffee once (stars, optional text), edit and
 * delete it. A coffee's stars and count everywhere (cards, product page, JSON-LD, sorting) are the average
 * and count of its published reviews, stored on the product in the transaction that changes them. The owner
 * can answer in public, and hide a review only for a stated reason, which is kept and logged.
 */
import type { Selectable } from 'kysely';
import { type DB, type Executor, databaseKind, inTransaction, monotonicNow } from '~/db/database.server';
import { newId } from '~/db/ids.server';
import type { ReviewsTable } from '~/db/schema';
import { type Actor, recordActivity } from '~/modules/activity/index.server';
import { bumpStoredCatalogVersion, markCatalogChanged } from '~/modules/catalog/index.server';
import { type Locale, isLocale } from '~/modules/i18n/translate';
import { withdrawnPositionsByOrder } from '~/modules/orders/index.server';
import { type HideReason, type OwnerReviewFilter, type OwnReview, type OwnerReview, type Paged, type PublicReview, type ReviewInput, REVIEWS_PAGE_SIZE, isHideReason, publicName } from './review.schema';

export type { OwnReview, OwnerReview, OwnerReviewFilter, Paged, PublicReview };


/**
 * The newest order that makes this customer a buyer of the product: paid, delivered, not refunded in full,
 * and the product not withdrawn from (a consumer who sent it back and got the money back bought nothing to
 * review). Null when there is none.
 */
export async function reviewableOrderWith(db: Executor, userId: string, productId: string): Promise<string | null> {
  const lines = await db
    .selectFrom('orders')
    .innerJoin('order_lines', 'order_lines.order_id', 'orders.id')
    .select(['orders.id', 'orders.delivered_at', 'order_lines.position'])
    .where('orders.user_id', '=', userId)
    .where('order_lines.product_id', '=', productId)
    .where('orders.payment_status', '=', 'succeeded')
    .where('orders.shipping_status', '=', 'delivered')
    .whereRef('orders.refunded_cents', '<', 'orders.total_cents')
    .orderBy('orders.delivered_at', 'desc')
    .execute();
  if (lines.length === 0) return null;
  // A line of the product kept (not withdrawn from); the 250 g may have gone back while the 1 kg stayed.
  const withdrawn = await withdrawnPositionsByOrder(db, [...new Set(lines.map((line) => line.id))]);
  return lines.find((line) => !withdrawn.get(line.id)?.includes(line.position))?.id ?? null;
}

/** Which of these products the customer has reviewed (for My Orders' "Review" or "Edit your review"). */
export async function reviewedProductIds(db: Executor, userId: string, productIds: string[]): Promise<Set<string>> {
  if (productIds.length === 0) return new Set();
  const rows = await db.selectFrom('reviews').select('product_id').where('user_id', '=', userId).where('product_id', 'in', productIds).execute();
  return new Set(rows.map((row) => row.product_id));
}

export async function getOwnReview(db: Executor, userId: string, productId: string): Promise<OwnReview | null> {
  const row = await db.selectFrom('reviews').selectAll().where('user_id', '=', userId).where('product_id', '=', productId).executeTakeFirst();
  return row ? toOwnReview(row) : null;
}

export type SaveOutcome = { ok: true; created: boolean; review: OwnReview } | { ok: false; reason: 'not_buyer' };

/**
 * Publishes the customer's review of the product, or replaces their earlier one (one per customer and
 * coffee). Refused unless they bought it (reviewableOrderWith). A hidden review stays hidden
 * when edited: the owner's decision and its reason stand.
 */
export async function saveReview(
  db: Executor,
  author: { userId: string; displayName: string },
  productId: string,
  input: ReviewInput & { locale: Locale },
  now = new Date(),
): Promise<SaveOutcome> {
  const outcome = await inTransaction(db, async (trx): Promise<SaveOutcome> => {
    const orderId = await reviewableOrderWith(trx, author.userId, productId);
    if (!orderId) return { ok: false, reason: 'not_buyer' };
    await lockProduct(trx, productId);
    const at = now.toISOString();
    const existing = await trx.selectFrom('reviews').select('id').where('user_id', '=', author.userId).where('product_id', '=', productId).executeTakeFirst();
    const values = { rating: input.rating, body: input.body, locale: input.locale, author_name: publicName(author.displayName), updated_at: at };
    if (existing) {
      await trx.updateTable('reviews').set(values).where('id', '=', existing.id).execute();
    } else {
      // A second submission racing this one (a double click) updates instead of failing the unique key.
      await trx
        .insertInto('reviews')
        .values({ id: newId(), product_id: productId, user_id: author.userId, order_id: orderId, created_at: at, reply: null, replied_at: null, hidden_reason: null, hidden_at: null, ...values })
        .onConflict((oc) => oc.columns(['product_id', 'user_id']).doUpdateSet(values))
        .execute();
    }
    await refreshRating(trx, productId);
    const review = await getOwnReview(trx, author.userId, productId);
    return { ok: true, created: !existing, review: review! };
  });
  if (outcome.ok) markCatalogChanged();
  return outcome;
}

/** Deletes the customer's own review of the product; false when they had none. */
export async function deleteOwnReview(db: DB, userId: string, productId: string): Promise<boolean> {
  const deleted = await inTransaction(db, async (trx) => {
    await lockProduct(trx, productId);
    const result = await trx.deleteFrom('reviews').where('user_id', '=', userId).where('product_id', '=', productId).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) return false;
    await refreshRating(trx, productId);
    return true;
  });
  if (deleted) markCatalogChanged();
  return deleted;
}

/**
 * A deleted customer's reviews: kept and signed "A customer" (an empty author, shown in the reader's language), or
 * removed with every coffee's figures recounted. In the deletion's transaction.
 */
export async function forgetReviewAuthor(trx: Executor, userId: string, { remove }: { remove: boolean }): Promise<number> {
  const products = await trx.selectFrom('reviews').select('product_id').where('user_id', '=', userId).execute();
  if (products.length === 0) return 0;
  if (!remove) {
    await trx.updateTable('reviews').set({ author_name: '' }).where('user_id', '=', userId).execute();
    await bumpStoredCatalogVersion(trx);
    return products.length;
  }
  for (const { product_id } of products) await lockProduct(trx, product_id);
  await trx.deleteFrom('reviews').where('user_id', '=', userId).execute();
  for (const { product_id } of products) await refreshRating(trx, product_id);
  return products.length;
}

/** A coffee's published reviews, newest first, a page at a time. */
export async function listProductReviews(db: Executor, productId: string, page = 1): Promise<Paged<PublicReview>> {
  const published = db.selectFrom('reviews').where('product_id', '=', productId).where('hidden_at', 'is', null);
  const { count } = await published.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  const total = Number(count);
  const pages = Math.max(1, Math.ceil(total / REVIEWS_PAGE_SIZE));
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pages);
  const rows = await published
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(REVIEWS_PAGE_SIZE)
    .offset((current - 1) * REVIEWS_PAGE_SIZE)
    .execute();
  return { items: rows.map(toPublicReview), total, page: current, pages };
}

const OWNER_PAGE_SIZE = 20;

/** The back office's list: newest first, all, unanswered (published, no reply yet) or hidden. */
export async function listOwnerReviews(db: Executor, { filter = 'all', page = 1 }: { filter?: OwnerReviewFilter; page?: number } = {}): Promise<Paged<OwnerReview>> {
  const base = db
    .selectFrom('reviews')
    .innerJoin('users', 'users.id', 'reviews.user_id')
    .leftJoin('product_translations', (join) => join.onRef('product_translations.product_id', '=', 'reviews.product_id').on('product_translations.locale', '=', 'en'))
    .$if(filter === 'hidden', (qb) => qb.where('reviews.hidden_at', 'is not', null))
    .$if(filter === 'unanswered', (qb) => qb.where('reviews.hidden_at', 'is', null).where('reviews.reply', 'is', null));
  const { count } = await base.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  const total = Number(count);
  const pages = Math.max(1, Math.ceil(total / OWNER_PAGE_SIZE));
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pages);
  const rows = await base
    .selectAll('reviews')
    .select(['users.email as author_email', 'users.deleted_at as author_deleted_at', 'product_translations.name as product_name'])
    .orderBy('reviews.created_at', 'desc')
    .orderBy('reviews.id')
    .limit(OWNER_PAGE_SIZE)
    .offset((current - 1) * OWNER_PAGE_SIZE)
    .execute();
  return {
    items: rows.map((row) => ({ ...toOwnReview(row), productName: row.product_name ?? '', authorEmail: row.author_deleted_at ? null : row.author_email, orderId: row.order_id, hiddenAt: row.hidden_at })),
    total,
    page: current,
    pages,
  };
}

/** How many reviews arrived in the last `days` days (the dashboard's "new reviews"). */
export async function countRecentReviews(db: Executor, days = 7, now = new Date()): Promise<number> {
  const since = new Date(now.getTime() - days * 86_400_000).toISOString();
  const { count } = await db.selectFrom('reviews').select((eb) => eb.fn.countAll<number>().as('count')).where('created_at', '>=', since).executeTakeFirstOrThrow();
  return Number(count);
}

/** The shop's public answer to a review ('' takes it back). Logged. false when the review is gone. */
export async function replyToReview(db: DB, actor: Actor, id: string, reply: string): Promise<boolean> {
  const done = await inTransaction(db, async (trx) => {
    const review = await reviewForLog(trx, id);
    if (!review) return false;
    await trx.updateTable('reviews').set({ reply: reply || null, replied_at: reply ? monotonicNow() : null }).where('id', '=', id).execute();
    await bumpStoredCatalogVersion(trx); // every node's cached product page shows the reply (or no longer does)
    await recordActivity(trx, actor, {
      action: 'review.replied',
      subjectType: 'review',
      subjectId: id,
      subjectLabel: review.label,
      details: { productId: review.productId, reply: reply || null },
    });
    return true;
  });
  if (done) markCatalogChanged();
  return done;
}

/** Hides a review from every page for one of the allowed reasons; the reason is kept and the act logged. */
export async function hideReview(db: DB, actor: Actor, id: string, reason: HideReason): Promise<boolean> {
  return setHidden(db, actor, id, reason);
}

/** Publishes a hidden review again (logged, with the reason it had). */
export async function showReview(db: DB, actor: Actor, id: string): Promise<boolean> {
  return setHidden(db, actor, id, null);
}

async function setHidden(db: DB, actor: Actor, id: string, reason: HideReason | null): Promise<boolean> {
  const done = await inTransaction(db, async (trx) => {
    const review = await reviewForLog(trx, id);
    if (!review) return false;
    if (review.hiddenReason === reason) return true; // already so
    await lockProduct(trx, review.productId);
    await trx
      .updateTable('reviews')
      .set(reason ? { hidden_reason: reason, hidden_at: monotonicNow() } : { hidden_reason: null, hidden_at: null })
      .where('id', '=', id)
      .execute();
    await refreshRating(trx, review.productId);
    await recordActivity(trx, actor, {
      action: reason ? 'review.hidden' : 'review.shown',
      subjectType: 'review',
      subjectId: id,
      subjectLabel: review.label,
      details: { productId: review.productId, reason: reason ?? review.hiddenReason, rating: review.rating },
    });
    return true;
  });
  if (done) markCatalogChanged();
  return done;
}

/** Recomputes a coffee's stored average (to one decimal, as shown) and count from its published reviews. */
export async function refreshRating(trx: Executor, productId: string): Promise<void> {
  const { count, sum } = await trx
    .selectFrom('reviews')
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.sum<number>('rating').as('sum')])
    .where('product_id', '=', productId)
    .where('hidden_at', 'is', null)
    .executeTakeFirstOrThrow();
  const total = Number(count);
  const rating = total > 0 ? Math.round((Number(sum) / total) * 10) / 10 : 0;
  await trx.updateTable('products').set({ rating, review_count: total }).where('id', '=', productId).execute();
  await bumpStoredCatalogVersion(trx);
}

// ---------------------------------------------------------------------------------------------------

/**
 * Takes the product's row lock (PostgreSQL) before its reviews are changed and counted, so two changes to
 * one coffee's reviews at once count each other's rows and the stored figures never drift. SQLite runs one
 * writing transaction at a time anyway.
 */
async function lockProduct(trx: Executor, productId: string): Promise<void> {
  if (databaseKind(trx) === 'postgres') await trx.selectFrom('products').select('id').where('id', '=', productId).forUpdate().execute();
}

async function reviewForLog(trx: Executor, id: string) {
  const row = await trx
    .selectFrom('reviews')
    .leftJoin('product_translations', (join) => join.onRef('product_translations.product_id', '=', 'reviews.product_id').on('product_translations.locale', '=', 'en'))
    .select(['reviews.product_id', 'reviews.author_name', 'reviews.rating', 'reviews.hidden_reason', 'product_translations.name'])
    .where('reviews.id', '=', id)
    .executeTakeFirst();
  if (!row) return null;
  return {
    productId: row.product_id,
    rating: row.rating,
    hiddenReason: isHideReason(row.hidden_reason) ? row.hidden_reason : null,
    label: `${row.author_name} · ${row.name ?? ''}`,
  };
}

function toPublicReview(row: Selectable<ReviewsTable>): PublicReview {
  return {
    id: row.id,
    productId: row.product_id,
    rating: Number(row.rating),
    body: row.body,
    locale: isLocale(row.locale) ? row.locale : 'en',
    authorName: row.author_name,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    reply: row.reply,
    repliedAt: row.replied_at,
  };
}

function toOwnReview(row: Selectable<ReviewsTable>): OwnReview {
  return { ...toPublicReview(row), hiddenReason: isHideReason(row.hidden_reason) ? row.hidden_reason : null };
}

