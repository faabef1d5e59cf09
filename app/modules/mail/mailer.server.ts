/** A message as the shop writes it; the mail module queues it in mail_outbox and delivers it. */
export type OutgoingMail = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
  /** Files sent with it (an invoice's PDF), their content in base64. */
  attachments?: MailAttachment[];
};

export type MailAttachment = { filename: string; contentType: string; base64: string };
