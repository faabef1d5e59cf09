/** The checkout's public server API: cart → order → payment → mail, each use case in one transaction. */
export {
  cartFingerprint,
  confirmOrderPayment,
  handleStripeEvent,
  markOrderPaid,
  payWithTestCard,
  reviewCheckout,
  startPayment,
  type CheckoutReview,
  type ConfirmOrderPaymentResult,
  type MarkOrderPaidResult,
  type OrderMailSettings,
  type PayWithTestCardResult,
  type StartPaymentResult,
  type StripeEventOutcome,
} from './checkout.server';
export * from './checkout.schema';
