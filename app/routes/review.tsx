import { CheckCircle2, Star } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Form, Link, data, useNavigation } from 'react-router';
import { ProductImage } from '~/components/catalog/product-image';
import { ProductName } from '~/components/catalog/product-name';
import { field, readForm } from '~/http/body.server';
import { requireUser, shopperContext } from '~/http/shopper.server';
import { getProduct } from '~/modules/catalog/index.server';
import { getMessages, getT } from '~/modules/i18n/index.server';
import { useI18n, useLocalePath } from '~/modules/i18n/react';
import { deleteOwnReview, reviewableOrderWith, getOwnReview, saveReview } from '~/modules/reviews/index.server';
import { REVIEW_MAX_LENGTH, type ReviewErrors, parseReviewForm } from '~/modules/reviews/review.schema';
import type { Route } from './+types/review';
import { appContext } from '~/context';

/**
 * A buyer's review of one coffee (/review?product=…), reached from My Orders and from the "delivered" mail:
 * 1–5 stars and optional text, published at once; the same page edits and deletes it. Only a customer with
 * a delivered order of the coffee gets the form, and the action checks again (a direct POST included).
 */
type Result =
  | { status: 'published' | 'saved' | 'deleted' }
  | { status: 'invalid'; errors: ReviewErrors; values: { rating: number; body: string } }
  | { status: 'refused'; problem: string };

async function productFor(url: URL, context: Route.LoaderArgs['context']) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  const user = requireUser(shopper, url);
  const productId = url.searchParams.get('product') ?? '';
  const product = productId ? await getProduct(app.db, app.storage, productId, shopper.locale) : null;
  return { app, user, locale: shopper.locale, product };
}

export async function loader({ url, context }: Route.LoaderArgs) {
  const { app, user, locale, product } = await productFor(url, context);
  const t = getT(locale);
  const base = { meta: { title: `${t('reviews.heading')} · Kopi` }, messages: getMessages(locale, 'reviews', 'orders') };
  if (!product) return data({ ...base, product: null, canReview: false, review: null }, { status: 404 });
  const [orderId, review] = await Promise.all([reviewableOrderWith(app.db, user.id, product.id), getOwnReview(app.db, user.id, product.id)]);
  return {
    ...base,
    product: { id: product.id, name: product.name || t('product.unnamed'), image: product.image },
    canReview: orderId !== null,
    review,
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.meta.title }, { name: 'robots', content: 'noindex' }];

export async function action({ request, url, context }: Route.ActionArgs) {
  const { app, user, locale, product } = await productFor(url, context);
  const form = await readForm(request);
  if (!product) return data<Result>({ status: 'refused', problem: 'reviews.form.notFound' }, { status: 404 });
  if (field(form, 'intent') === 'delete') {
    await deleteOwnReview(app.db, user.id, product.id);
    return data<Result>({ status: 'deleted' });
  }
  const parsed = parseReviewForm(form);
  if (!parsed.ok) return data<Result>({ status: 'invalid', errors: parsed.errors, values: parsed.data }, { status: 400 });
  // Signed with the name the customer gave; never with a part of their email address.
  const named = user.displayName && user.displayName !== user.email.split('@')[0];
  const outcome = await saveReview(app.db, { userId: user.id, displayName: named ? user.displayName : getT(locale)('reviews.anonymous') }, product.id, { ...parsed.data, locale });
  if (!outcome.ok) return data<Result>({ status: 'refused', problem: 'reviews.form.notBuyer' }, { status: 403 });
  return data<Result>({ status: outcome.created ? 'published' : 'saved' });
}

export default function ReviewPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useI18n();
  const path = useLocalePath();
  const result = actionData as Result | undefined;
  const { product, review, canReview } = loaderData;
  return (
    <div className="container-page py-10 md:py-14">
      <div className="mx-auto max-w-2xl">
        <Link to={path('/profile?tab=orders')} className="text-sm font-medium text-muted hover:text-roast hover:underline">← {t('reviews.form.backToOrders')}</Link>
        {!product ? (
          <h1 className="mt-4 text-3xl font-semibold md:text-4xl">{t('reviews.form.notFound')}</h1>
        ) : (
          <>
            <div className="mt-4 flex items-center gap-5">
              <div className="h-24 w-20 shrink-0 overflow-hidden rounded-2xl bg-sand/50">
                <ProductImage image={product.image} alt="" sizes="80px" className="h-full w-full object-cover" />
              </div>
              <h1 className="text-3xl leading-tight font-semibold md:text-4xl">
                {review ? t('reviews.form.titleEdit') : t('reviews.form.title')}
                <span className="block text-2xl md:text-3xl"><ProductName name={product.name} /></span>
              </h1>
            </div>
            <Outcome result={result} productId={product.id} published={!review?.hiddenReason} />
            {!canReview ? (
              <p className="mt-8 rounded-2xl bg-paper p-6 ring-1 ring-sand" data-testid="review-refused">{t('reviews.form.notBuyer')}</p>
            ) : (
              <ReviewForm key={review?.updatedAt ?? 'new'} productId={product.id} review={review} result={result} />
            )}
          </>
        )}
      </div>
    </div>
  );
}

function Outcome({ result, productId, published }: { result: Result | undefined; productId: string; published: boolean }) {
  const { t } = useI18n();
  const path = useLocalePath();
  const ref = useRef<HTMLDivElement>(null);
  const done = result && (result.status === 'published' || result.status === 'saved' || result.status === 'deleted');
  useEffect(() => {
    if (done || result?.status === 'refused') ref.current?.focus();
  }, [result, done]);
  return (
    <div role="status" aria-live="polite" ref={ref} tabIndex={-1} className="outline-none">
      {done && (
        <p className="mt-6 flex flex-wrap items-center gap-2 rounded-2xl bg-leaf-light px-4 py-3 font-medium text-leaf-dark" data-testid="review-outcome">
          <CheckCircle2 aria-hidden="true" className="h-5 w-5" />
          {t(`reviews.form.${result.status}`)}
          {result.status !== 'deleted' && published && (
            <Link to={`${path(`/product/${productId}`)}#reviews`} className="underline underline-offset-4">{t('reviews.form.seeOnPage')}</Link>
          )}
        </p>
      )}
      {result?.status === 'refused' && <p className="mt-6 rounded-2xl bg-cherry-light px-4 py-3 text-cherry">{t(result.problem)}</p>}
    </div>
  );
}

function ReviewForm({ productId, review, result }: { productId: string; review: Route.ComponentProps['loaderData']['review']; result: Result | undefined }) {
  const { t } = useI18n();
  const path = useLocalePath();
  const busy = useNavigation().state === 'submitting';
  const invalid = result?.status === 'invalid' ? result : null;
  const [rating, setRating] = useState(invalid?.values.rating ?? review?.rating ?? 0);
  const [clientErrors, setClientErrors] = useState<ReviewErrors | null>(null);
  const errors = clientErrors ?? invalid?.errors ?? {};
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (errors.rating) formRef.current?.querySelector<HTMLElement>('input[name="rating"]')?.focus();
    else if (errors.body) formRef.current?.querySelector<HTMLElement>('[name="body"]')?.focus();
  }, [errors.rating, errors.body]);
  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    const check = parseReviewForm(new FormData(event.currentTarget));
    if (check.ok) return setClientErrors(null);
    event.preventDefault();
    setClientErrors(check.errors);
  };
  const action = path(`/review?product=${encodeURIComponent(productId)}`);
  return (
    <section className="mt-8 rounded-3xl bg-paper p-6 ring-1 ring-sand md:p-8">
      {review?.hiddenReason && (
        <p className="mb-5 rounded-2xl bg-cherry-light px-4 py-3 text-sm text-cherry" data-testid="review-hidden">
          {t('reviews.form.hidden', { reason: t(`reviews.reasons.${review.hiddenReason}`) })}
        </p>
      )}
      <p className="text-sm text-muted">{t('reviews.form.intro')}</p>
      <Form ref={formRef} method="post" action={action} noValidate className="mt-6 grid gap-6" onSubmit={onSubmit}>
        <fieldset aria-describedby={errors.rating ? 'rating-error' : undefined}>
          <legend className="field-label">{t('reviews.form.rating')}</legend>
          <div className="flex gap-1">
            {[1, 2, 3, 4, 5].map((value) => (
              <label
                key={value}
                className="flex h-12 w-12 cursor-pointer items-center justify-center rounded-full text-gold ring-leaf transition-colors hover:bg-sand/60 has-[:checked]:bg-sand/60 has-[:focus-visible]:ring-2"
              >
                <input type="radio" name="rating" value={value} className="sr-only" defaultChecked={(invalid?.values.rating ?? review?.rating) === value} onChange={() => setRating(value)} aria-invalid={errors.rating ? true : undefined} />
                <Star aria-hidden="true" className={`h-8 w-8 ${value <= rating ? 'fill-gold' : 'fill-none text-sand-dark'}`} />
                <span className="sr-only">{t('reviews.stars', { count: value })}</span>
              </label>
            ))}
          </div>
          {errors.rating && <p id="rating-error" className="field-error">{t(errors.rating)}</p>}
        </fieldset>
        <div>
          <label htmlFor="field-body" className="field-label">{t('reviews.form.body')}</label>
          <textarea
            id="field-body"
            name="body"
            rows={5}
            defaultValue={invalid?.values.body ?? review?.body ?? ''}
            maxLength={REVIEW_MAX_LENGTH}
            aria-invalid={errors.body ? true : undefined}
            aria-describedby={errors.body ? 'field-body-error field-body-hint' : 'field-body-hint'}
            className="field-input"
          />
          <p id="field-body-hint" className="mt-1.5 text-xs text-muted">{t('reviews.form.bodyHint', { max: REVIEW_MAX_LENGTH })}</p>
          {errors.body && <p id="field-body-error" className="field-error">{t(errors.body)}</p>}
        </div>
        <div>
          <button type="submit" className="btn-primary px-7 py-3" disabled={busy}>{review ? t('reviews.form.save') : t('reviews.form.publish')}</button>
        </div>
      </Form>
      {review && (
        <Form method="post" action={action} className="mt-6 border-t border-sand pt-5">
          <input type="hidden" name="intent" value="delete" />
          <button type="submit" className="btn-ghost -ml-5 text-cherry" disabled={busy}>{t('reviews.form.delete')}</button>
        </Form>
      )}
    </section>
  );
}
