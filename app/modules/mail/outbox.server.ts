import type { Logger } from 'pino';
import { type DB, type Executor, now as nowIso } from '~/db/database.server';
import { newId } from '~/db/ids.server';
import type { OutgoingMail } from './mailer.server';
import type { MailTransport } from './transport.server';

/**
 * Mail goes through the `mail_outbox` table: it is written in the same transaction as whatever caused it,
 * and a worker delivers it afterwards, retrying with backoff until the server accepts it. Nothing is dropped.
 * Delivery is at-least-once: a process that dies between the SMTP "250 OK" and marking the row sent will
 * send that message again after its lease runs out.
 */

/** How long a claimed message stays invisible to other workers; well above the worst SMTP round trip. */
const LEASE_MS = 5 * 60_000;
const FIRST_RETRY_MS = 15_000;
const MAX_RETRY_MS = 30 * 60_000;
const BATCH_SIZE = 20;

/** Queues a message for delivery. Pass a transaction to queue it together with the change that caused it. */
export async function queueMail(db: Executor, mail: OutgoingMail): Promise<string> {
  const id = newId();
  const at = nowIso();
  await db
    .insertInto('mail_outbox')
    .values({
      id,
      to_address: mail.to,
      subject: mail.subject,
      text_body: mail.text,
      html_body: mail.html ?? null,
      reply_to: mail.replyTo ?? null,
      status: 'queued',
      next_attempt_at: at,
      created_at: at,
    })
    .execute();
  return id;
}

/** 15 s after the first failure, then 30 s, 1 min, 2 min … at most 30 min apart. */
export function retryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS);
}

export type DeliverOptions = { from: string; log: Logger; now?: Date; batchSize?: number };

/**
 * Sends the queued messages that are due. Each one is claimed first with a conditional update that moves
 * `next_attempt_at` forward by a lease; only the caller whose update changed the row sends it, so several
 * processes (or overlapping runs) never send the same message twice.
 */
export async function deliverDueMail(
  db: DB,
  transport: MailTransport,
  { from, log, now = new Date(), batchSize = BATCH_SIZE }: DeliverOptions,
): Promise<{ sent: number; failed: number }> {
  const at = now.toISOString();
  const due = await db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('status', '=', 'queued')
    .where('next_attempt_at', '<=', at)
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(batchSize)
    .execute();

  let sent = 0;
  let failed = 0;
  for (const row of due) {
    const leaseUntil = new Date(now.getTime() + LEASE_MS).toISOString();
    const claim = await db
      .updateTable('mail_outbox')
      .set({ next_attempt_at: leaseUntil })
      .where('id', '=', row.id)
      .where('status', '=', 'queued')
      .where('next_attempt_at', '=', row.next_attempt_at)
      .executeTakeFirst();
    if (Number(claim.numUpdatedRows) !== 1) continue; // another worker has it

    try {
      await transport.send({
        from,
        to: row.to_address,
        subject: row.subject,
        text: row.text_body,
        html: row.html_body ?? undefined,
        replyTo: row.reply_to ?? undefined,
      });
    } catch (error) {
      const attempts = row.attempts + 1;
      const lastError = describeError(error);
      await db
        .updateTable('mail_outbox')
        .set({
          attempts,
          last_error: lastError,
          next_attempt_at: new Date(now.getTime() + retryDelayMs(attempts)).toISOString(),
        })
        .where('id', '=', row.id)
        .execute();
      log.warn({ mailId: row.id, attempts, error: lastError }, 'mail delivery failed, will retry');
      failed++;
      continue;
    }
    await db
      .updateTable('mail_outbox')
      .set({ status: 'sent', sent_at: nowIso(), last_error: null })
      .where('id', '=', row.id)
      .execute();
    log.info({ mailId: row.id }, 'mail sent');
    sent++;
  }
  return { sent, failed };
}

/** The error's code and message, short, with anything that looks like URL credentials removed. */
function describeError(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown };
  const message = typeof e?.message === 'string' ? e.message : String(error);
  const code = typeof e?.code === 'string' ? `${e.code}: ` : '';
  return `${code}${message}`.replace(/\/\/[^/\s@]*@/g, '//***@').slice(0, 500);
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
}: {
  db: DB;
  transport: MailTransport;
  from: string;
  log: Logger;
  intervalMs?: number;
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
        const { sent, failed } = await deliverDueMail(db, transport, { from, log, batchSize: BATCH_SIZE });
        if (sent + failed >= BATCH_SIZE) again = true; // more may be waiting
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
