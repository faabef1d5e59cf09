/** Sending invoices to KSeF (docs/decisions/0034): the module's public server API. */
export { KsefError, createKsefApi, type KsefApi } from './api.server';
export { createKsefContext, type KsefContext } from './context.server';
export { offlineDeadline, nextBusinessDay } from './deadline';
export { type KsefPolicy, ksefPolicy, recordKsefPolicy } from './policy.server';
export { invoiceVerificationUrl, qrLabel } from './qr';
export {
  type AcceptedInvoice,
  queueKsefSubmission,
  releaseWaitingSubmission,
  resendKsefSubmission,
  sendDueInvoices,
} from './submissions.server';
export { startKsefWorker, type KsefWorker } from './worker.server';
