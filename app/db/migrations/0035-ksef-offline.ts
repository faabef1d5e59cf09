/**
 * Invoices handed to their buyer offline, before KSeF numbered them (docs/decisions/0034, KOD II): with the owner's
 * offline KSeF certificate, one KSeF has not accepted by `offline_after` is mailed at once with both QR codes.
 * `handed_over_at` records that it was (once: nodes race for it), `handed_over_hash` the SHA-256 (Base64) of the file
 * the buyer's codes name, `certificate_url` the KOD II its PDF carries; such an invoice is offline in law and goes to
 * KSeF with offlineMode whatever the day (a corrected file after a refusal as KSeF's technical correction of it).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('ksef_submissions').addColumn('offline_after', 'text').execute();
  await db.schema.alterTable('ksef_submissions').addColumn('handed_over_at', 'text').execute();
  await db.schema.alterTable('ksef_submissions').addColumn('handed_over_hash', 'text').execute();
  await db.schema.alterTable('ksef_submissions').addColumn('certificate_url', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['certificate_url', 'handed_over_hash', 'handed_over_at', 'offline_after']) await db.schema.alterTable('ksef_submissions').dropColumn(column).execute();
}
