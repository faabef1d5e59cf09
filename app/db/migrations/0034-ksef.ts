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
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('ksef_submissions')
    .addColumn('invoice_id', 'text', (c) => c.primaryKey())
    /**
     * queued (to send) | unsure (sent, no answer yet: asked about before any resend) | sent (KSeF has it, the status
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
}
