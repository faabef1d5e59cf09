export { contactMail, submitContactMessage, type SubmitContactResult } from './contact.server';
