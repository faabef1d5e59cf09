/**
 * What a review and the owner's answers to it may hold. Browser-safe: the pages check the same way before
 * sending. Messages are i18n keys.
 */
import { isPlainText } from '~/lib/plain-text';
import type { Locale } from '~/modules/i18n/translate';

export const REVIEW_MAX_LENGTH = 2000;
export const REPLY_MAX_LENGTH = 1000;
/** Reviews per page on a product page. */
export const REVIEWS_PAGE_SIZE = 5;
/** Why the owner may hide a review; nothing else (a bad rating is no reason). */
export const hideReasons = ['abuse', 'personal-data', 'off-topic'] as const;
export type HideReason = (typeof hideReasons)[number];
export const isHideReason = (value: unknown): value is HideReason => hideReasons.includes(value as HideReason);

export type ReviewInput = { rating: number; body: string };
export type ReviewErrors = Partial<Record<'rating' | 'body', string>>;

const text = (value: FormDataEntryValue | null | undefined) => (typeof value === 'string' ? value.trim().replace(/\r\n?/g, '\n') : '');

/** Reads the customer's review form: 1–5 stars, text optional. */
export function parseReviewForm(form: FormData): { ok: true; data: ReviewInput } | { ok: false; errors: ReviewErrors; data: ReviewInput } {
  const raw = text(form.get('rating'));
  const rating = /^[1-5]$/.test(raw) ? Number(raw) : 0;
  const data = { rating, body: text(form.get('body')) };
  const errors: ReviewErrors = {};
  if (!rating) errors.rating = 'reviews.errors.ratingRequired';
  if (data.body.length > REVIEW_MAX_LENGTH) errors.body = 'reviews.errors.bodyTooLong';
  else if (!isPlainText(data.body)) errors.body = 'reviews.errors.bodyInvalid';
  return Object.keys(errors).length > 0 ? { ok: false, errors, data } : { ok: true, data };
}

/** "Anna Kowalska" → "Anna K."; a single name stays as it is. */
export function publicName(displayName: string): string {
  const words = displayName.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '';
  const [first, ...rest] = words;
  const last = rest.at(-1);
  return last ? `${first} ${last[0]!.toUpperCase()}.` : first!;
}

export type PublicReview = {
  id: string;
  productId: string;
  rating: number;
  body: string;
  locale: Locale;
  authorName: string;
  createdAt: string;
  updatedAt: string;
  reply: string | null;
  repliedAt: string | null;
};
export type OwnReview = PublicReview & { hiddenReason: HideReason | null };
export type OwnerReview = OwnReview & { productName: string; /** Null once the customer deleted their account. */ authorEmail: string | null; orderId: string; hiddenAt: string | null };
export type Paged<T> = { items: T[]; total: number; page: number; pages: number };

export const ownerReviewFilters = ['all', 'unanswered', 'hidden'] as const;
export type OwnerReviewFilter = (typeof ownerReviewFilters)[number];
