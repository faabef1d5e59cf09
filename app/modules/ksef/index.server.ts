/** Sending invoices to KSeF (docs/decisions/0034): the module's public server API. */
export { KsefError, createKsefApi, type KsefApi } from './api.server';
export { type OfflineCertificate, certificateValidAt } from './certificate.server';
export { createKsefContext, type KsefContext } from './context.server';
export { offlineDeadline, nextBusinessDay } from './deadline';
export { type KsefPolicy, ksefPolicy, recordKsefPolicy } from './policy.server';
export { CERTIFICATE_QR_LABEL, invoiceVerificationUrl, qrLabel } from './qr';
export {
  type AcceptedInvoice,
  type HandedOverInvoice,
  HANDOVER_AFTER_MS,
  handOverOffline,
  queueKsefSubmission,
  releaseWaitingSubmission,
  resendKsefSubmission,
  sendDueInvoices,
} from './submissions.server';
export { startKsefWorker, type KsefWorker } from './worker.server';
