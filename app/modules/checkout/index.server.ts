/** The checkout's public server API: cart → order → payment → mail, each use case in one transaction. */
export {
  cartFingerprint,
  confirmOrderPayment,
  handlePaymentEvent,
  issueRequestedInvoices,
  payWithCard,
  paymentServices,
  reviewCheckout,
  settleDuePayments,
  settlePayment,
  startAsyncPayment,
  startPayment,
  type CheckoutReview,
  type DeliveryRequest,
  type ConfirmOrderPaymentResult,
  type MarkOrderPaidResult,
  type OrderMailSettings,
  type PayWithCardResult,
  type PaymentEventOutcome,
  type PaymentServices,
  type StartAsyncResult,
  type StartPaymentResult,
} from './checkout.server';
export * from './checkout.schema';
export { deliveryStep, lockerSearchAllowed, type DeliveryStep } from './delivery-step.server';
export { SWEEP_INTERVAL_MS, sweepPayments } from './sweep.server';
