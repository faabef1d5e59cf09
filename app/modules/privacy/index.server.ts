/** Customers' control of their data (docs/decisions/0029): the module's public server API. */
export { DELETE_REAUTH_MS, deleteAccount, eraseGuest, hasOpenOrders, type DeleteAccountOutcome, type EraseGuestOutcome } from './deletion.server';
export { countCustomerData, exportCustomerData, exportFileName, type CustomerData } from './export.server';
export { findCustomers, type CustomerMatch } from './customers.server';
export { RETENTION_JOB, applyRetention, claimDay, runDailyRetention, type RetentionReport } from './retention.server';
export { DEFAULT_RETENTION } from './periods';
export { customerDataRequest, ownerDataRequest, type DataRequestOutcome } from './requests.server';
export { analyticsAllowed, consentsOf, latestConsent, recordConsent, type Consent, type ConsentInput } from './consent.server';
