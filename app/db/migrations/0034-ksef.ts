/**
 * Invoices sent to KSeF by the shop itself (docs/decisions/0034). `ksef_contexts` holds, for one KSeF address and
 * seller NIP, what every node shares: the access and refresh tokens (sealed with a key derived from the KSeF token,
 * so the database alone does not reveal them), the open interactive session and its key (sealed the same way), a
 * lease so that one node authenticates or opens a session at a time, the time KSeF asked everyone to wait until,
 * and KSeF's words when it refused the token. `ksef_submissions` is the queue: one row per invoice to send, written
 * in the issuing transaction, claimed under a lease like the mail outbox, and carrying what KSeF answered.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  /**
   * Who sends invoices to KSeF, as the nodes' configuration says (KSEF_SENDER, KSEF_CONSUMER_INVOICES), written at
   * start: issuing reads it in its transaction, so every path that issues an invoice or a correction queues it.
   */
  await db.schema
    .createTable('ksef_settings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    /** kopi | accounting */
    .addColumn('sender', 'text', (c) => c.notNull())
    .addColumn('consumer_invoices', 'integer', (c) => c.notNull().defaultTo(0))
    /** When the shop began sending (invoices issued before are the accounting software's). */
    .addColumn('sending_since', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('ksef_contexts')
    /** `{API base URL} {NIP}` */
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('access_token', 'text')
    .addColumn('access_valid_until', 'text')
    .addColumn('refresh_token', 'text')
    .addColumn('refresh_valid_until', 'text')
    .addColumn('session_reference', 'text')
    /** The session's AES key and IV, sealed (JSON). */
    .addColumn('session_key', 'text')
    .addColumn('session_valid_until', 'text')
    .addColumn('lease_token', 'text')
    .addColumn('lease_until', 'text')
    /** KSeF asked to wait (429 Retry-After, maintenance) until then: no node calls it before. */
    .addColumn('paused_until', 'text')
    /** KSeF's words when it refused the token (cleared by the next authentication that succeeds). */
    .addColumn('problem', 'text')
    .addColumn('problem_at', 'text')
    /** Which KSeF token the problem is about (a fingerprint): a new token is tried at once, a refused one every 10 minutes. */
    .addColumn('problem_token', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('ksef_submissions')
    .addColumn('invoice_id', 'text', (c) => c.primaryKey())
    /**
     * waiting (a correction whose invoice KSeF has not accepted yet: it is sent once it can name that invoice's
     * KSeF number) | queued (to send) | unsure (sent, no answer yet: asked about before any resend) | sent (KSeF has it, the status
     * is polled) | accepted | refused
     */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('claim_token', 'text')
    /** SHA-256 of the invoice's XML, Base64, as KSeF lists it. */
    .addColumn('invoice_hash', 'text', (c) => c.notNull())
    .addColumn('session_reference', 'text')
    .addColumn('invoice_reference', 'text')
    .addColumn('sent_at', 'text')
    /** Issued on a day before the one it reached KSeF (offline24): sent with offlineMode, due by `deadline`. */
    .addColumn('offline', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('deadline', 'text', (c) => c.notNull())
    .addColumn('ksef_number', 'text')
    .addColumn('accepted_at', 'text')
    .addColumn('upo', 'text')
    /** KOD I (kody-qr.md), fixed when accepted: the invoice's PDF carries it as a QR code with the KSeF number. */
    .addColumn('verification_url', 'text')
    /** KSeF's status code and its own words, for a refusal (or the last failure to reach it). */
    .addColumn('error_code', 'integer')
    .addColumn('error_text', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ksef_submissions_due_idx').on('ksef_submissions').columns(['status', 'next_attempt_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('ksef_submissions').ifExists().execute();
  await db.schema.dropTable('ksef_contexts').ifExists().execute();
  await db.schema.dropTable('ksef_settings').ifExists().execute();
}
