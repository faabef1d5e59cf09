import { BadgeCheck, Languages, MessageSquareReply } from 'lucide-react';
import { Link } from 'react-router';
import { formatDate, formatNumber } from '~/lib/format';
import { useI18n, useLocalePath } from '~/modules/i18n/react';
import { legalPath } from '~/modules/legal/pages';
import type { Paged, PublicReview } from '~/modules/reviews/review.schema';

type ReviewsPage = Paged<PublicReview>;

/** Stars for one review (a CSS mask, like the card's), read out as "Rated 4 out of 5". */
function Stars({ rating, label, size = 'h-3.5 w-[4.375rem]' }: { rating: number; label: string; size?: string }) {
  return <span role="img" aria-label={label} className={`stars ${size}`} style={{ '--fill': `${(rating / 5) * 100}%` } as React.CSSProperties} />;
}

/**
 * A coffee's reviews on its page: the average and count (the same figures as its card and JSON-LD), the
 * link to how reviews are checked, then the published reviews, newest first, a page at a time through
 * plain links (?reviews=2), each marked "Verified purchase", dated, and marked when in the other language.
 */
export function ProductReviews({ rating, reviewCount, reviews }: { rating: number; reviewCount: number; reviews: ReviewsPage }) {
  const { t, locale } = useI18n();
  const path = useLocalePath();
  const value = formatNumber(rating, locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const pageLink = (page: number) => `?reviews=${page}#reviews`;
  return (
    <section id="reviews" aria-labelledby="reviews-heading" className="mt-14 scroll-mt-24 border-t border-sand pt-10">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h2 id="reviews-heading" className="text-2xl font-semibold md:text-3xl">{t('reviews.heading')}</h2>
          {reviewCount > 0 && (
            <p className="mt-3 flex flex-wrap items-center gap-x-3 gap-y-1">
              <span className="text-4xl font-semibold text-roast tabular-nums" aria-hidden="true">{value}</span>
              <Stars rating={rating} label={t('product.rating', { rating: value })} size="h-5 w-[6.25rem]" />
              <span className="text-sm text-muted">{t('product.reviews', { count: reviewCount })}</span>
            </p>
          )}
        </div>
        <Link to={path(legalPath('reviews'))} className="text-sm font-medium text-leaf-dark underline underline-offset-4 hover:text-roast">
          {t('reviews.howChecked')}
        </Link>
      </div>

      {reviews.items.length === 0 ? (
        <p className="mt-6 max-w-prose text-muted">{t('reviews.none')}</p>
      ) : (
        <ol className="mt-8 grid gap-5 lg:grid-cols-2" data-testid="reviews">
          {reviews.items.map((review) => (
            <li key={review.id}>
              <article className="h-full rounded-3xl bg-paper p-6 ring-1 ring-sand" data-testid="review">
                <header className="flex flex-wrap items-center gap-x-3 gap-y-2">
                  <Stars rating={review.rating} label={t('product.rating', { rating: formatNumber(review.rating, locale) })} />
                  <p className="font-semibold text-roast">{review.authorName || t('reviews.deletedAuthor')}</p>
                  <p className="inline-flex items-center gap-1 rounded-full bg-leaf-light px-2.5 py-0.5 text-xs font-medium text-leaf-dark">
                    <BadgeCheck aria-hidden="true" className="h-3.5 w-3.5" />
                    {t('reviews.verified')}
                  </p>
                </header>
                <p className="mt-1 text-xs text-muted">
                  <time dateTime={review.createdAt}>{formatDate(review.createdAt, locale)}</time>
                  {review.locale !== locale && (
                    <span className="ml-2 inline-flex items-center gap-1">
                      <Languages aria-hidden="true" className="h-3.5 w-3.5" />
                      {t(`reviews.writtenIn.${review.locale}`)}
                    </span>
                  )}
                </p>
                {review.body && (
                  <p lang={review.locale === locale ? undefined : review.locale} className="mt-4 leading-relaxed whitespace-pre-line text-roast-800">{review.body}</p>
                )}
                {review.reply && (
                  <div className="mt-4 rounded-2xl bg-cream p-4 text-sm">
                    <p className="flex items-center gap-1.5 font-semibold text-roast">
                      <MessageSquareReply aria-hidden="true" className="h-4 w-4 text-leaf" />
                      {t('reviews.reply')}
                    </p>
                    <p className="mt-1 whitespace-pre-line text-roast-800">{review.reply}</p>
                  </div>
                )}
              </article>
            </li>
          ))}
        </ol>
      )}

      {reviews.pages > 1 && (
        <nav aria-label={t('reviews.pages', { page: reviews.page, pages: reviews.pages })} className="mt-8 flex flex-wrap items-center gap-3 text-sm">
          {reviews.page > 1 && (
            <Link to={pageLink(reviews.page - 1)} preventScrollReset className="btn-outline">{t('reviews.newer')}</Link>
          )}
          <span className="text-muted">{t('reviews.pages', { page: reviews.page, pages: reviews.pages })}</span>
          {reviews.page < reviews.pages && (
            <Link to={pageLink(reviews.page + 1)} preventScrollReset className="btn-outline">{t('reviews.older')}</Link>
          )}
        </nav>
      )}
    </section>
  );
}
