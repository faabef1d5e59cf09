import { randomBytes } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Logger } from 'pino';
import { type DB, type Executor, databaseKind, now as nowIso } from '~/db/database.server';
import type { MailOutboxTable } from '~/db/schema';
import { maskAddresses } from '~/lib/mask-addresses';
import { newId } from '~/db/ids.server';
import type { MailAttachment, OutgoingMail } from './mailer.server';
import type { MailTransport } from './transport.server';

/**
 * Mail goes through the `mail_outbox` table: it is written in the same transaction as whatever caused it,
 * and workers deliver it afterwards, retrying with backoff until the server accepts it. Nothing is dropped.
 *
 * A worker claims a batch of due messages in one statement (PostgreSQL skips rows another node is claiming),
 * under a short lease it renews while sending, with its own claim token: only the holder renews or marks a
 * message sent. Delivery is at least once: a process that dies between the SMTP "250 OK" and marking the row
 * sent sends it again once the lease lapses, seconds later, with the same Message-ID (the row's id, fixed
 * when it was queued), so mail clients show it once. See docs/decisions/0012-mail-at-peak.md.
 */

/** How long a claim hides a message from other workers: seconds, so a crash delays a message by seconds. */
export const LEASE_MS = 15_000;
/** How often a worker renews the lease of the messages it is still sending. */
const RENEW_MS = 5_000;
const FIRST_RETRY_MS = 15_000;
const MAX_RETRY_MS = 30 * 60_000;
/**
 * The longest a send may take before it counts as failed and is retried later: the transport has its own
 * socket timeouts, but a worker must never wait for ever on one message while the rest of the queue waits.
 */
const SEND_TIMEOUT_MS = 60_000;
/** Messages in flight at once, per worker, unless configured (MAIL_CONCURRENCY). */
export const DEFAULT_CONCURRENCY = 4;

/** Queues a message for delivery. Pass a transaction to queue it together with the change that caused it. */
export async function queueMail(db: Executor, mail: OutgoingMail): Promise<string> {
  const [id] = await queueMails(db, [mail]);
  return id;
}

/**
 * Several mails queued in one statement (an order's confirmation and the shop's notice); their ids in order. A
 * mail with nobody to go to (the order of a customer whose details were removed) is not queued: it could never be
 * delivered, and would be retried for ever. Its id is ''.
 */
export async function queueMails(db: Executor, mails: readonly OutgoingMail[]): Promise<string[]> {
  const at = nowIso();
  const ids = mails.map((mail) => (mail.to.trim() === '' ? '' : newId()));
  const rows = mails.flatMap((mail, i) => (ids[i] === '' ? [] : [{ ...row(mail, at), id: ids[i]! }]));
  if (rows.length > 0) await db.insertInto('mail_outbox').values(rows).execute();
  return ids;
}

function row(mail: OutgoingMail, at: string) {
  return {
    to_address: mail.to,
    subject: mail.subject,
    text_body: mail.text,
    html_body: mail.html ?? null,
    reply_to: mail.replyTo || null,
    attachments: mail.attachments && mail.attachments.length > 0 ? JSON.stringify(mail.attachments) : null,
    status: 'queued',
    next_attempt_at: at,
    created_at: at,
  };
}

/** A row's attachments ([] for none or anything unreadable). */
function attachmentsOf(json: string | null): MailAttachment[] | undefined {
  if (!json) return undefined;
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? parsed.filter((a): a is MailAttachment => typeof a?.filename === 'string' && typeof a?.contentType === 'string' && typeof a?.base64 === 'string') : undefined;
  } catch {
    return undefined;
  }
}

/** 15 s after the first failure, then 30 s, 1 min, 2 min … at most 30 min apart. */
export function retryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS);
}

/**
 * A message's Message-ID: its outbox id, given when it was queued, at the sender's domain. Every attempt, on
 * every node, sends the same one.
 */
export function messageIdFor(id: string, from: string): string {
  const domain = /@([^\s>]+)>?\s*$/.exec(from)?.[1] ?? 'kopi.local';
  return `<${id}@${domain}>`;
}

type OutboxRow = Selectable<MailOutboxTable>;

/**
 * Claims up to `limit` due messages for one worker in a single statement: their lease moves forward and
 * carries the worker's token. On PostgreSQL rows another worker is claiming at the same moment are skipped
 * (FOR UPDATE SKIP LOCKED), so nodes share the queue without waiting on each other; SQLite runs one writer at
 * a time, so the statement alone is enough.
 */
export async function claimDueMail(db: DB, { now, limit, token }: { now: Date; limit: number; token: string }): Promise<OutboxRow[]> {
  const at = now.toISOString();
  const lease = { next_attempt_at: new Date(now.getTime() + LEASE_MS).toISOString(), claim_token: token };
  const due = (qb: typeof db) =>
    qb
      .selectFrom('mail_outbox')
      .select('id')
      .where('status', '=', 'queued')
      .where('next_attempt_at', '<=', at)
      .orderBy('next_attempt_at')
      .orderBy('id')
      .limit(limit);
  const rows =
    databaseKind(db) === 'postgres'
      ? // A materialized CTE: the locked selection is made once (an `IN (subquery)` may be re-run by the
        // planner and claim more than `limit`, some rows twice over).
        await db
          .with((cte) => cte('due').materialized(), (qb) => due(qb as typeof db).forUpdate().skipLocked())
          .updateTable('mail_outbox')
          .from('due')
          .set(lease)
          .whereRef('mail_outbox.id', '=', 'due.id')
          .where('mail_outbox.status', '=', 'queued')
          .returningAll('mail_outbox')
          .execute()
      : await db.updateTable('mail_outbox').set(lease).where('id', 'in', due(db)).where('status', '=', 'queued').returningAll().execute();
  return rows.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
}

export type DeliverOptions = { from: string; log: Logger; now?: Date; batchSize?: number; concurrency?: number; sendTimeoutMs?: number };

/**
 * Sends the queued messages that are due: one batched claim, then at most `concurrency` messages in flight,
 * each marked sent as soon as the server accepts it, the lease of the rest renewed while they wait.
 */
export async function deliverDueMail(
  db: DB,
  transport: MailTransport,
  { from, log, now = new Date(), concurrency = DEFAULT_CONCURRENCY, batchSize = concurrency * 5, sendTimeoutMs = SEND_TIMEOUT_MS }: DeliverOptions,
): Promise<{ sent: number; failed: number }> {
  const token = randomBytes(12).toString('base64url');
  const rows = await claimDueMail(db, { now, limit: batchSize, token });
  if (rows.length === 0) return { sent: 0, failed: 0 };

  // The worker's clock: the caller's `now` moved on by the time that really passed (tests pass a fixed now).
  const claimed = rows.map((row) => row.id);
  const startedAt = Date.now();
  const clock = () => new Date(now.getTime() + (Date.now() - startedAt));
  const renew = setInterval(() => {
    db.updateTable('mail_outbox')
      .set({ next_attempt_at: new Date(clock().getTime() + LEASE_MS).toISOString() })
      .where('id', 'in', claimed) // by primary key: the outbox keeps every message it ever sent
      .where('claim_token', '=', token)
      .where('status', '=', 'queued')
      .execute()
      .catch((error) => log.warn({ error: describeError(error) }, 'mail lease renewal failed'));
  }, RENEW_MS);
  renew.unref();

  let sent = 0;
  let failed = 0;
  const deliver = async (row: OutboxRow) => {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        transport.send({
          from,
          to: row.to_address,
          subject: row.subject,
          text: row.text_body,
          html: row.html_body ?? undefined,
          replyTo: row.reply_to ?? undefined,
          attachments: attachmentsOf(row.attachments),
          messageId: messageIdFor(row.id, from),
        }),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer from the mail server in ${sendTimeoutMs / 1000} s`)), sendTimeoutMs);
        }),
      ]);
    } catch (error) {
      const attempts = row.attempts + 1;
      const lastError = describeError(error);
      await db
        .updateTable('mail_outbox')
        .set({ attempts, last_error: lastError, claim_token: null, next_attempt_at: new Date(clock().getTime() + retryDelayMs(attempts)).toISOString() })
        .where('id', '=', row.id)
        .where('claim_token', '=', token)
        .execute();
      log.warn({ mailId: row.id, attempts, error: lastError }, 'mail delivery failed, will retry');
      failed++;
      return;
    } finally {
      clearTimeout(timer);
    }
    const marked = await db
      .updateTable('mail_outbox')
      .set({ status: 'sent', sent_at: nowIso(), last_error: null, claim_token: null })
      .where('id', '=', row.id)
      .where('claim_token', '=', token)
      .executeTakeFirst();
    // A lease that lapsed (a stalled process) lets another worker send it too, with the same Message-ID.
    if (Number(marked.numUpdatedRows) !== 1) log.warn({ mailId: row.id }, 'mail sent after its lease had lapsed');
    else log.info({ mailId: row.id }, 'mail sent');
    sent++;
  };

  try {
    let next = 0;
    const lanes = Array.from({ length: Math.min(concurrency, rows.length) }, async () => {
      while (next < rows.length) await deliver(rows[next++]);
    });
    await Promise.all(lanes);
  } finally {
    clearInterval(renew);
  }
  return { sent, failed };
}

/**
 * The error's code and message, short, with anything that looks like URL credentials removed and addresses masked
 * as the logs keep them: a refused recipient's message names them ("<ola@example.com>: Recipient address rejected"),
 * and this text is logged and kept in the outbox.
 */
function describeError(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown };
  const message = typeof e?.message === 'string' ? e.message : String(error);
  const code = typeof e?.code === 'string' ? `${e.code}: ` : '';
  return maskAddresses(`${code}${message}`.replace(/\/\/[^/\s@]*@/g, '//***@')).slice(0, 500);
}

export type MailWorker = {
  /** Runs a delivery pass now (or right after the running one); concurrent kicks collapse into one pass. */
  kick(): void;
  /** Stops polling and waits for a running pass to finish. */
  stop(): Promise<void>;
};

/** Delivers due mail every `intervalMs` and whenever kicked. Starts with a pass (mail queued while down). */
export function startMailWorker({
  db,
  transport,
  from,
  log,
  intervalMs = 5000,
  concurrency = DEFAULT_CONCURRENCY,
}: {
  db: DB;
  transport: MailTransport;
  from: string;
  log: Logger;
  intervalMs?: number;
  concurrency?: number;
}): MailWorker {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const schedule = () => {
    clearTimeout(timer);
    if (stopped) return;
    timer = setTimeout(kick, intervalMs);
    timer.unref();
  };

  async function loop() {
    do {
      again = false;
      try {
        const batchSize = concurrency * 5;
        const { sent, failed } = await deliverDueMail(db, transport, { from, log, concurrency, batchSize });
        if (sent + failed >= batchSize) again = true; // more may be waiting
      } catch (error) {
        log.error({ error: describeError(error) }, 'mail worker pass failed');
      }
    } while (again && !stopped);
  }

  function kick() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    clearTimeout(timer);
    running = loop().finally(() => {
      running = null;
      // A kick that landed after the loop's last check still gets its pass.
      if (again && !stopped) kick();
      else schedule();
    });
  }

  kick();
  return {
    kick,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
