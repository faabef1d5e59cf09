export type { OutgoingMail } from './mailer.server';
export { PERMANENT_ATTEMPTS, sendMailAgain, deliverDueMail, queueMail, queueMails, retryDelayMs, startMailWorker, type DeliverOptions, type MailWorker } from './outbox.server';
export { createMailTransport, type MailTransport } from './transport.server';
