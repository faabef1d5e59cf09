import { BadgeCheck, EyeOff, Eye, MessageSquareReply, MessagesSquare } from 'lucide-react';
import { Form, Link, data, useNavigation } from 'react-router';
import { Pagination } from '~/components/admin/pagination';
import { appContext } from '~/context';
import { field, readForm } from '~/http/body.server';
import { requireAdmin, shopperContext } from '~/http/shopper.server';
import { isPlainText } from '~/lib/plain-text';
import { formatDate, formatDateTime } from '~/lib/format';
import { getT } from '~/modules/i18n/index.server';
import { useI18n } from '~/modules/i18n/react';
import { orderLabel } from '~/modules/orders/orders.types';
import { hideReview, listOwnerReviews, replyToReview, showReview } from '~/modules/reviews/index.server';
import { REPLY_MAX_LENGTH, type OwnerReview, type OwnerReviewFilter, hideReasons, isHideReason, ownerReviewFilters } from '~/modules/reviews/review.schema';
import type { Route } from './+types/reviews';

/**
 * The owner's reviews: newest first (all, not answered, hidden); a public reply; hiding only with one of
 * the reasons the rules allow, kept on the review and in the activity log; publishing again.
 */
const NEW_DAYS = 7;

export async function loader({ url, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  requireAdmin(shopper);
  const show = url.searchParams.get('show');
  const filter: OwnerReviewFilter = ownerReviewFilters.find((f) => f === show) ?? 'all';
  const pageParam = Number(url.searchParams.get('page'));
  const page = Number.isInteger(pageParam) && pageParam >= 1 && pageParam <= 10_000 ? pageParam : 1;
  const list = await listOwnerReviews(app.db, { filter, page });
  return { title: getT(shopper.locale)('admin.meta.reviewsTitle'), filter, list, newSince: new Date(Date.now() - NEW_DAYS * 86_400_000).toISOString() };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${loaderData?.title} · Kopi` }, { name: 'robots', content: 'noindex' }];

type Result = { ok: true; done: 'replied' | 'hidden' | 'shown' } | { ok: false; error: 'not_found' | 'reason' | 'reply' | 'failed'; id?: string };

export async function action({ request, context }: Route.ActionArgs) {
  const app = context.get(appContext);
  const user = requireAdmin(context.get(shopperContext));
  const form = await readForm(request);
  const intent = field(form, 'intent');
  const id = field(form, 'id');
  try {
    if (intent === 'reply') {
      const reply = field(form, 'reply').trim().replace(/\r\n?/g, '\n');
      if (reply.length > REPLY_MAX_LENGTH || !isPlainText(reply)) return data<Result>({ ok: false, error: 'reply', id }, { status: 400 });
      if (!(await replyToReview(app.db, user, id, reply))) return data<Result>({ ok: false, error: 'not_found' }, { status: 404 });
      return data<Result>({ ok: true, done: 'replied' });
    }
    if (intent === 'hide') {
      const reason = field(form, 'reason');
      if (!isHideReason(reason)) return data<Result>({ ok: false, error: 'reason', id }, { status: 400 });
      if (!(await hideReview(app.db, user, id, reason))) return data<Result>({ ok: false, error: 'not_found' }, { status: 404 });
      return data<Result>({ ok: true, done: 'hidden' });
    }
    if (intent === 'show') {
      if (!(await showReview(app.db, user, id))) return data<Result>({ ok: false, error: 'not_found' }, { status: 404 });
      return data<Result>({ ok: true, done: 'shown' });
    }
    return data<Result>({ ok: false, error: 'failed' }, { status: 400 });
  } catch (error) {
    app.log.error({ err: error }, 'changing a review failed');
    return data<Result>({ ok: false, error: 'failed' }, { status: 503 });
  }
}

export default function AdminReviewsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useI18n();
  const { filter, list, newSince } = loaderData;
  const result = actionData as Result | undefined;
  const tab = (active: boolean) => `rounded-full px-4 py-1.5 text-sm font-semibold ${active ? 'bg-roast text-cream' : 'text-roast-600 ring-1 ring-sand hover:bg-roast/5'}`;
  return (
    <div>
      <h1 className="text-3xl font-semibold md:text-4xl">{t('reviews.admin.heading')}</h1>
      <p className="mt-2 max-w-3xl text-muted">{t('reviews.admin.intro')}</p>

      <nav aria-label={t('reviews.admin.filter')} className="mt-6 flex flex-wrap gap-2">
        {ownerReviewFilters.map((f) => (
          <Link key={f} to={f === 'all' ? '/admin/reviews' : `/admin/reviews?show=${f}`} className={tab(filter === f)} aria-current={filter === f ? 'page' : undefined}>
            {t(`reviews.admin.filters.${f}`)}
          </Link>
        ))}
      </nav>

      <div aria-live="polite" className="mt-4">
        {result?.ok && <p role="status" className="rounded-2xl bg-leaf-light px-5 py-3 text-sm font-medium text-leaf-dark ring-1 ring-leaf/20">{t(`reviews.admin.done.${result.done}`)}</p>}
        {result && !result.ok && <p role="alert" className="rounded-2xl bg-cherry-light px-5 py-3 text-sm font-medium text-cherry ring-1 ring-cherry/20">{t(`reviews.admin.errors.${result.error}`)}</p>}
      </div>

      <p className="mt-4 text-sm text-muted" data-testid="reviews-count">{t('reviews.admin.count', { count: list.total })}</p>

      {list.items.length === 0 ? (
        <div className="mt-4 grid justify-items-center gap-3 rounded-3xl bg-paper p-10 text-center text-muted ring-1 ring-sand">
          <MessagesSquare aria-hidden="true" className="h-8 w-8 text-leaf" />
          <p>{t('reviews.admin.empty')}</p>
        </div>
      ) : (
        <ul className="mt-4 grid gap-4">
          {list.items.map((review) => (
            <li key={review.id}>
              <OwnerReviewCard review={review} isNew={review.createdAt >= newSince} error={result && !result.ok && result.id === review.id ? result.error : undefined} />
            </li>
          ))}
        </ul>
      )}
      <Pagination page={list.page} pages={list.pages} />
    </div>
  );
}

function OwnerReviewCard({ review, isNew, error }: { review: OwnerReview; isNew: boolean; error?: string }) {
  const { t, locale } = useI18n();
  const busy = useNavigation().state === 'submitting';
  const hidden = review.hiddenReason !== null;
  const headingId = `review-${review.id}`;
  return (
    <article aria-labelledby={headingId} className={`rounded-3xl bg-paper p-6 ring-1 ${hidden ? 'ring-sand opacity-90' : isNew ? 'ring-leaf/40' : 'ring-sand'}`} data-testid="owner-review">
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={headingId} className="font-sans text-lg font-semibold break-words">
            <Link to={`/product/${review.productId}#reviews`} className="hover:underline">{review.productName || t('product.unnamed')}</Link>
          </h2>
          <p className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-muted">
            <span role="img" aria-label={t('product.rating', { rating: String(review.rating) })} className="stars h-3.5 w-[4.375rem]" style={{ '--fill': `${review.rating * 20}%` } as React.CSSProperties} />
            <span className="font-medium text-roast">{review.authorName || t('reviews.deletedAuthor')}</span>
            {review.authorEmail ? (
              <span className="break-all">· <a href={`mailto:${review.authorEmail}`} className="text-leaf underline underline-offset-4">{review.authorEmail}</a></span>
            ) : (
              <span>· {t('admin.customers.deletedCustomer')}</span>
            )}
            <span>· <Link to={`/admin/orders/${review.orderId}`} className="text-leaf underline underline-offset-4">{t('reviews.admin.order', { label: orderLabel(review.orderId) })}</Link></span>
            <span>· {t(`admin.orders.languages.${review.locale}`)}</span>
          </p>
        </div>
        <div className="flex items-center gap-3 text-sm sm:block sm:text-right">
          <time dateTime={review.createdAt} className="block text-muted">{formatDateTime(review.createdAt, locale)}</time>
          {hidden ? (
            <span className="inline-flex items-center gap-1 rounded-full bg-cherry-light px-3 py-0.5 text-xs font-semibold text-cherry sm:mt-1" data-testid="review-hidden-badge">
              <EyeOff aria-hidden="true" className="h-3.5 w-3.5" />
              {t('reviews.admin.hiddenBadge', { reason: t(`reviews.reasons.${review.hiddenReason}`) })}
            </span>
          ) : (
            isNew && <span className="inline-block rounded-full bg-leaf-light px-3 py-0.5 text-xs font-semibold text-leaf-dark sm:mt-1">{t('reviews.admin.new')}</span>
          )}
        </div>
      </header>
      {review.body ? (
        <p className="mt-4 text-sm leading-relaxed whitespace-pre-wrap break-words text-roast-800" lang={review.locale}>{review.body}</p>
      ) : (
        <p className="mt-4 inline-flex items-center gap-1 text-sm text-muted"><BadgeCheck aria-hidden="true" className="h-4 w-4 text-leaf" />{t('reviews.verified')}</p>
      )}
      {hidden && review.hiddenAt && <p className="mt-3 text-xs text-muted">{t('reviews.admin.hiddenOn', { date: formatDate(review.hiddenAt, locale) })}</p>}

      <div className="mt-5 grid gap-4 border-t border-sand pt-5 lg:grid-cols-[1fr_auto] lg:items-start">
        <Form method="post" className="grid gap-2">
          <input type="hidden" name="intent" value="reply" />
          <input type="hidden" name="id" value={review.id} />
          <label htmlFor={`reply-${review.id}`} className="field-label flex items-center gap-1.5">
            <MessageSquareReply aria-hidden="true" className="h-4 w-4 text-leaf" />
            {t('reviews.admin.reply')}
          </label>
          <textarea
            id={`reply-${review.id}`}
            name="reply"
            rows={2}
            maxLength={REPLY_MAX_LENGTH}
            defaultValue={review.reply ?? ''}
            aria-describedby={`reply-${review.id}-hint${error === 'reply' ? ` reply-${review.id}-error` : ''}`}
            aria-invalid={error === 'reply' ? true : undefined}
            className="field-input text-sm"
          />
          <p id={`reply-${review.id}-hint`} className="text-xs text-muted">{t('reviews.admin.replyHint')}</p>
          {error === 'reply' && <p id={`reply-${review.id}-error`} className="field-error">{t('reviews.admin.errors.reply')}</p>}
          <div>
            <button type="submit" className="btn-outline px-4 py-2 text-sm" disabled={busy}>{t('reviews.admin.saveReply')}</button>
          </div>
        </Form>

        {hidden ? (
          <Form method="post" className="lg:pt-7">
            <input type="hidden" name="intent" value="show" />
            <input type="hidden" name="id" value={review.id} />
            <button type="submit" className="btn-outline px-4 py-2 text-sm" disabled={busy}>
              <Eye aria-hidden="true" className="h-4 w-4" />
              {t('reviews.admin.show')}
            </button>
          </Form>
        ) : (
          <details className="lg:pt-7" open={error === 'reason' ? true : undefined}>
            <summary className="inline-flex cursor-pointer items-center gap-1.5 rounded-full px-3 py-2 text-sm font-semibold text-cherry hover:underline">
              <EyeOff aria-hidden="true" className="h-4 w-4" />
              {t('reviews.admin.hide')}
            </summary>
            <Form method="post" noValidate className="mt-2 grid gap-2">
              <input type="hidden" name="intent" value="hide" />
              <input type="hidden" name="id" value={review.id} />
              <label htmlFor={`reason-${review.id}`} className="field-label">{t('reviews.admin.reason')}</label>
              <select
                id={`reason-${review.id}`}
                name="reason"
                required
                defaultValue=""
                aria-invalid={error === 'reason' ? true : undefined}
                aria-describedby={error === 'reason' ? `reason-${review.id}-error` : undefined}
                className="field-input py-2 text-sm"
              >
                <option value="" disabled>{t('reviews.admin.chooseReason')}</option>
                {hideReasons.map((reason) => (
                  <option key={reason} value={reason}>{t(`reviews.reasons.${reason}`)}</option>
                ))}
              </select>
              {error === 'reason' && <p id={`reason-${review.id}-error`} className="field-error">{t('reviews.admin.errors.reason')}</p>}
              <div>
                <button type="submit" className="btn bg-cherry px-4 py-2 text-sm text-white hover:bg-cherry/90" disabled={busy}>{t('reviews.admin.confirmHide')}</button>
              </div>
            </Form>
          </details>
        )}
      </div>
    </article>
  );
}
