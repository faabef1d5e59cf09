import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import type { Config } from '~/config/env.server';
import type { OutgoingMail } from './mailer.server';
import type { ThreadAnswer } from './smtp-thread';

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
 * The SMTP thread's file: beside this module in the source (Node runs it as TypeScript); in the build an entry of
 * its own at the server bundle's top (build/server/, see vite.config.ts), this module in the bundle or in one of
 * its chunks (build/server/assets/).
 */
function threadFile(): URL {
  if (import.meta.url.endsWith('.ts')) return new URL('./smtp-thread.ts', import.meta.url);
  const beside = new URL('./smtp-thread.js', import.meta.url);
  return existsSync(beside) ? beside : new URL('../smtp-thread.js', import.meta.url);
}

/**
 * Pooled: up to `connections` SMTP connections stay open and carry one message after another (a fresh
 * connection per message costs a TCP and SMTP handshake, ten times the message itself on a local server).
 *
 * The SMTP conversation runs on a thread of its own. On the shop's event loop each of its four or five round
 * trips per message waited behind whatever requests were being served: a busy node on SQLite delivered about as
 * fast as its checkouts queued mail, and after a restart the backlog took a minute to clear. On the thread the
 * round trips are answered at once, and the shop's loop sees one message per mail: its outcome
 * (docs/decisions/0032-mail-after-a-crash.md).
 */
function smtpTransport(url: string, connections: number): MailTransport {
  const parsed = new URL(url);
  // A plain smtp:// server on this machine (a test server, Mailpit) may advertise STARTTLS with a certificate
  // nobody can verify; skip TLS there. Remote smtp:// servers keep nodemailer's opportunistic STARTTLS, so
  // credentials never cross the network in clear text. Query parameters in the URL (?ignoreTLS=…) still win.
  const ignoreTLS = parsed.protocol === 'smtp:' && LOOPBACK.has(parsed.hostname);
  const options = {
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
  };
  let thread: SmtpThread | null = null;
  return {
    describe: `SMTP ${parsed.protocol}//${parsed.host}`,
    send(mail) {
      // A thread that stopped (it should not) is replaced by the next message; the ones it held have failed.
      if (!thread || thread.stopped) thread = startThread(options);
      return thread.send(toMessage(mail));
    },
    close() {
      thread?.close();
      thread = null;
    },
  };
}

type SmtpThread = { send(message: ReturnType<typeof toMessage>): Promise<void>; close(): void; stopped: boolean };

function startThread(options: object): SmtpThread {
  const worker = new Worker(threadFile(), { workerData: options });
  const pending = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  let next = 0;
  // The thread keeps the process alive only while it holds messages (a command that sends one and ends).
  worker.unref();
  const settle = (id: number) => {
    const waiting = pending.get(id);
    pending.delete(id);
    if (pending.size === 0) worker.unref();
    return waiting;
  };
  const failAll = (error: Error) => {
    for (const id of [...pending.keys()]) settle(id)?.reject(error);
  };
  const self: SmtpThread = {
    stopped: false,
    send(message) {
      return new Promise<void>((resolve, reject) => {
        const id = ++next;
        if (pending.size === 0) worker.ref();
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, message });
      });
    },
    close() {
      self.stopped = true;
      worker.postMessage('close');
    },
  };
  worker.on('message', (answer: ThreadAnswer) => {
    const waiting = settle(answer.id);
    if (!answer.error) waiting?.resolve();
    else waiting?.reject(Object.assign(new Error(answer.error.message), { code: answer.error.code, responseCode: answer.error.responseCode }));
  });
  worker.on('error', (error) => {
    self.stopped = true;
    failAll(error);
  });
  worker.on('exit', () => {
    self.stopped = true;
    failAll(new Error('the mail thread stopped before the server answered'));
  });
  return self;
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
