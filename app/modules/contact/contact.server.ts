import type { Logger } from 'pino';
import { type DB, now } from '~/db/database.server';
import { newId } from '~/db/ids.server';
import type { Locale } from '~/modules/i18n/index.server';
import { LIMITS, type Limits, customerScopes, recordAttempt } from '~/modules/limits/index.server';
import { type OutgoingMail, queueMail } from '~/modules/mail/index.server';
import type { Contact } from './contact.schema';

export type SubmitContactResult = { ok: true; id: string } | { ok: false; reason: 'unavailable' | 'rate_limited' };

const languageNames: Record<Locale, string> = { en: 'English', pl: 'Polish' };

/**
 * Stores a (validated) contact message and queues the mail to the shop in one transaction, so a message is
 * either kept and on its way, or not taken at all. Messages count per sender email, per client address and
 * across the shop (LIMITS.contact): a script cannot fill the shop's inbox, from one address or many. The
 * caller kicks the mail worker afterwards.
 */
export async function submitContactMessage(
  db: DB,
  { input, locale, contactTo, ip, log, userId = null }: { input: Contact; locale: Locale; contactTo: string; ip?: string | null; log?: Logger; userId?: string | null },
  limits: Pick<Limits, 'contact'> = LIMITS,
): Promise<SubmitContactResult> {
  const rule = limits.contact;
  if ((await recordAttempt(db, 'contact', customerScopes(rule, input.email.trim().toLowerCase(), ip), rule.windowMs)).limited) return { ok: false, reason: 'rate_limited' };
  const id = newId();
  try {
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('contact_messages')
        .values({
          id,
          name: input.name,
          email: input.email,
          subject: input.subject,
          message: input.message,
          locale,
          created_at: now(),
          user_id: userId,
        })
        .execute();
      await queueMail(trx, contactMail(input, locale, contactTo));
    });
    return { ok: true, id };
  } catch (error) {
    // Only the error's kind: a database error's detail can quote the visitor's text.
    const e = error as { name?: string; code?: string };
    log?.error({ errorName: e?.name, errorCode: e?.code }, 'contact message could not be stored');
    return { ok: false, reason: 'unavailable' };
  }
}

/** The mail the shop receives: plain text, and a simple HTML version with every value escaped. */
export function contactMail(input: Contact, locale: Locale, contactTo: string): OutgoingMail {
  const subject = `[Kopi contact] ${input.subject.replace(/\s+/g, ' ')}`;
  const language = `${languageNames[locale]} (${locale})`;
  const text = [
    'A new message from the contact form.',
    '',
    `Name: ${input.name}`,
    `Email: ${input.email}`,
    `Language: ${language}`,
    `Subject: ${input.subject}`,
    '',
    input.message,
    '',
  ].join('\n');
  const row = (label: string, value: string) =>
    `<tr><th align="left" style="padding-right:1em">${label}</th><td>${escapeHtml(value)}</td></tr>`;
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif">',
    '<p>A new message from the contact form.</p>',
    '<table>',
    row('Name', input.name),
    row('Email', input.email),
    row('Language', language),
    row('Subject', input.subject),
    '</table>',
    `<p style="white-space:pre-wrap">${escapeHtml(input.message)}</p>`,
    '</body></html>',
  ].join('\n');
  return { to: contactTo, subject, text, html, replyTo: input.email };
}

const htmlEntities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => htmlEntities[c]);
