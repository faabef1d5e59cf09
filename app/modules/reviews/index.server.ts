/** The reviews module's public server API. */
export {
  countRecentReviews,
  deleteOwnReview,
  forgetReviewAuthor,
  reviewableOrderWith,
  getOwnReview,
  hideReview,
  listOwnerReviews,
  listProductReviews,
  replyToReview,
  reviewedProductIds,
  saveReview,
  showReview,
  type OwnReview,
  type OwnerReview,
  type OwnerReviewFilter,
  type PublicReview,
} from './reviews.server';
