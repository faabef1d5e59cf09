import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import type { Config } from '~/config/env.server';
import type { OutgoingMail } from './mailer.server';

export type MailTransport = {
  /** Sends one message; `messageId` (the outbox's, fixed when queued) keeps a re-sent message recognisable. */
  send(mail: OutgoingMail & { from: string; messageId?: string }): Promise<void>;
  /** Where mail goes, without credentials, for the start-up log line. */
  describe: string;
  close(): void;
};

const TIMEOUT_MS = 10_000;
const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/**
 * SMTP when `SMTP_URL` is set, otherwise one RFC 822 `.eml` file per message in `DATA_DIR/mail`
 * (open it in any mail client) and a log line saying where it is.
 */
export function createMailTransport(config: Pick<Config, 'smtpUrl' | 'dataDir'> & { mailConcurrency?: number }, log: Logger): MailTransport {
  return config.smtpUrl ? smtpTransport(config.smtpUrl, config.mailConcurrency ?? 1) : fileTransport(path.join(config.dataDir, 'mail'), log);
}

/**
 * Pooled: up to `connections` SMTP connections stay open and carry one message after another (a fresh
 * connection per message costs a TCP and SMTP handshake, ten times the message itself on a local server).
 */
function smtpTransport(url: string, connections: number): MailTransport {
  const parsed = new URL(url);
  // A plain smtp:// server on this machine (a test server, Mailpit) may advertise STARTTLS with a certificate
  // nobody can verify; skip TLS there. Remote smtp:// servers keep nodemailer's opportunistic STARTTLS, so
  // credentials never cross the network in clear text. Query parameters in the URL (?ignoreTLS=…) still win.
  const ignoreTLS = parsed.protocol === 'smtp:' && LOOPBACK.has(parsed.hostname);
  const transporter = nodemailer.createTransport({
    url,
    ignoreTLS,
    pool: true,
    maxConnections: connections,
    maxMessages: 500,
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
    dnsTimeout: TIMEOUT_MS,
    logger: false,
  });
  return {
    describe: `SMTP ${parsed.protocol}//${parsed.host}`,
    async send(mail) {
      await transporter.sendMail(toMessage(mail));
    },
    close: () => transporter.close(),
  };
}

function fileTransport(dir: string, log: Logger): MailTransport {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  return {
    describe: `files in ${dir}`,
    async send(mail) {
      const info = await transporter.sendMail(toMessage(mail));
      await fs.mkdir(dir, { recursive: true });
      const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`);
      await fs.writeFile(file, info.message as Buffer);
      log.info({ file, to: mail.to, subject: mail.subject }, 'mail written to file (SMTP_URL is not set)');
    },
    close: () => transporter.close(),
  };
}

const toMessage = (mail: OutgoingMail & { from: string; messageId?: string }) => ({
  from: mail.from,
  to: mail.to,
  subject: mail.subject,
  text: mail.text,
  html: mail.html,
  replyTo: mail.replyTo,
  messageId: mail.messageId,
  attachments: mail.attachments?.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.base64, encoding: 'base64' as const })),
});
