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
 * A worker claims a due message only when one of its lanes is free to send it (PostgreSQL skips rows another
 * node is claiming), under a short lease it renews every second while sending, with its own claim token: only the
 * holder renews or marks a message sent. So a process that dies holds back only the messages it was sending, for
 * at most the lease, and a worker wakes when a lease lapses. Delivery is at least once: a process that dies
 * between the SMTP "250 OK" and marking the row sent sends it again once the lease lapses, with the same
 * Message-ID (the row's id, fixed when it was queued), so mail clients show it once. A message the mail server
 * refuses for good (a 5xx answer) is parked after a few attempts, for the owner to see and send again. See
 * docs/decisions/0012-mail-at-peak.md and 0032.
 */

/** How long a claim hides a message from other workers: a crash delays a message by at most this. */
export const LEASE_MS = 3_000;
/** How often a worker renews the lease of the messages it is still sending (a live worker's never lapses). */
const RENEW_MS = 1_000;
/** Attempts the mail server refused for good (5xx) before the message is parked (`failed`). */
export const PERMANENT_ATTEMPTS = 3;
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
  // The worker's clock: the caller's `now` moved on by the time that really passed (tests pass a fixed now).
  const startedAt = Date.now();
  const clock = () => new Date(now.getTime() + (Date.now() - startedAt));
  /** The messages being sent now: only theirs is renewed (the rest are not claimed yet). */
  const sending = new Set<string>();
  const renew = setInterval(() => {
    if (sending.size === 0) return;
    db.updateTable('mail_outbox')
      .set({ next_attempt_at: new Date(clock().getTime() + LEASE_MS).toISOString() })
      .where('id', 'in', [...sending]) // by primary key: the outbox keeps every message it ever sent
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
      // Refused for good (a 5xx answer: no such mailbox, rejected) a few times over: parked for the owner.
      const refused = permanentlyRefused(error) ? row.refusals + 1 : row.refusals;
      const parked = refused >= PERMANENT_ATTEMPTS;
      await db
        .updateTable('mail_outbox')
        .set({ attempts, refusals: refused, last_error: lastError, claim_token: null, ...(parked ? { status: 'failed' } : {}), next_attempt_at: new Date(clock().getTime() + retryDelayMs(attempts)).toISOString() })
        .where('id', '=', row.id)
        .where('claim_token', '=', token)
        .execute();
      if (parked) log.error({ mailId: row.id, attempts, error: lastError }, 'the mail server refused this mail for good: it is parked until the owner sends it again');
      else log.warn({ mailId: row.id, attempts, error: lastError }, 'mail delivery failed, will retry');
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
    // Each lane claims the next due message when it is free to send it, up to `batchSize` in the pass.
    let claims = 0;
    const lanes = Array.from({ length: concurrency }, async () => {
      while (claims < batchSize) {
        claims++;
        const [row] = await claimDueMail(db, { now: clock(), limit: 1, token });
        if (!row) return;
        sending.add(row.id);
        try {
          await deliver(row);
        } finally {
          sending.delete(row.id);
        }
      }
    });
    await Promise.all(lanes);
  } finally {
    clearInterval(renew);
  }
  return { sent, failed };
}

/** An SMTP answer that will not change on a retry: 5xx (a mailbox that does not exist, a message rejected). */
function permanentlyRefused(error: unknown): boolean {
  const code = Number((error as { responseCode?: unknown })?.responseCode);
  return Number.isInteger(code) && code >= 500 && code < 600;
}

/** When the next queued message is due (a retry, a lapsed lease), or null when none is queued. */
export async function nextDueAt(db: DB): Promise<Date | null> {
  const row = await db.selectFrom('mail_outbox').select((eb) => eb.fn.min('next_attempt_at').as('at')).where('status', '=', 'queued').executeTakeFirst();
  return row?.at ? new Date(String(row.at)) : null;
}

/**
 * The owner sends a parked mail again (or one still retrying, now): queued, due at once, its refusals forgotten.
 * False when there is no such mail or it was sent.
 */
export async function sendMailAgain(db: Executor, id: string): Promise<boolean> {
  const updated = await db
    .updateTable('mail_outbox')
    .set({ status: 'queued', refusals: 0, claim_token: null, next_attempt_at: nowIso() })
    .where('id', '=', id)
    .where('status', 'in', ['failed', 'queued'])
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
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

  // Polls every `intervalMs`, and sooner when a queued message falls due before then (a lapsed lease of a worker
  // that died, a retry): it goes out then, not at the next poll.
  const schedule = async () => {
    clearTimeout(timer);
    if (stopped) return;
    const due = await nextDueAt(db).catch(() => null);
    const wait = due ? Math.min(intervalMs, Math.max(20, due.getTime() - Date.now() + 20)) : intervalMs;
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(kick, wait);
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
      else void schedule();
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
