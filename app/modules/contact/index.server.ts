export { contactMail, submitContactMessage, type SubmitContactResult } from './contact.server';
export { INBOX_PAGE_SIZE, countUnreadMessages, deleteMessage, listMessages, markMessage, type InboxMessage, type InboxOutcome } from './inbox.server';
