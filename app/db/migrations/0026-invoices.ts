/**
 * Invoices (docs/decisions/0028): numbered per series and year without gaps, each a snapshot that never changes —
 * seller, buyer, lines with net, rate, VAT and gross, totals, the payment — with its PDF kept as issued; a
 * correcting invoice is a document of its own series pointing at the one it corrects. An order keeps the buyer's
 * details when they ask for an invoice at checkout; a mail may carry attachments (an invoice's PDF).
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('invoice_counters')
    /** FV (invoices) | KOR (corrections) */
    .addColumn('series', 'text', (c) => c.notNull())
    .addColumn('year', 'integer', (c) => c.notNull())
    /** The last number given in this series and year. */
    .addColumn('last', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('invoice_counters_pk', ['series', 'year'])
    .execute();
  await db.schema
    .createTable('invoices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    /** "FV/2026/00042" */
    .addColumn('number', 'text', (c) => c.notNull().unique())
    .addColumn('series', 'text', (c) => c.notNull())
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('order_id', 'text', (c) => c.notNull())
    /** invoice | correction */
    .addColumn('kind', 'text', (c) => c.notNull())
    /** A correction's invoice. */
    .addColumn('corrects_id', 'text')
    /** The refund a correction records. */
    .addColumn('refund_id', 'text')
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('issued_at', 'text', (c) => c.notNull())
    /** The day of the supply (the payment's day for goods paid before delivery), YYYY-MM-DD. */
    .addColumn('sale_date', 'text', (c) => c.notNull())
    /** JSON snapshots: who sells and who buys, the lines, the totals per rate, the payment. */
    .addColumn('seller', 'text', (c) => c.notNull())
    .addColumn('buyer', 'text', (c) => c.notNull())
    .addColumn('lines', 'text', (c) => c.notNull())
    .addColumn('totals', 'text', (c) => c.notNull())
    .addColumn('payment', 'text', (c) => c.notNull())
    .addColumn('gross_cents', 'integer', (c) => c.notNull())
    .addColumn('vat_cents', 'integer', (c) => c.notNull())
    /** The PDF as issued (base64), written once. */
    .addColumn('pdf', 'text')
    /** KSeF: the FA(3) XML as issued (buyers with a Polish NIP) and, once sent, KSeF's number. */
    .addColumn('ksef_xml', 'text')
    .addColumn('ksef_number', 'text')
    /** The admin who issued it; null when the shop did (at checkout) or the customer asked. */
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('invoices_series_seq_idx').on('invoices').columns(['series', 'year', 'seq']).unique().execute();
  // One invoice per order (corrections are as many as its refunds, one per refund).
  await db.schema.createIndex('invoices_order_idx').on('invoices').column('order_id').unique().where(sql<boolean>`kind = 'invoice'`).execute();
  await db.schema.createIndex('invoices_refund_idx').on('invoices').column('refund_id').unique().where('refund_id', 'is not', null).execute();
  await db.schema.createIndex('invoices_issued_idx').on('invoices').column('issued_at').execute();

  /** JSON: the buyer's details given at checkout with a request for an invoice (null: none asked for). */
  await db.schema.alterTable('orders').addColumn('invoice_buyer', 'text').execute();
  /** JSON [{ filename, contentType, base64 }]. */
  await db.schema.alterTable('mail_outbox').addColumn('attachments', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail_outbox').dropColumn('attachments').execute();
  await db.schema.alterTable('orders').dropColumn('invoice_buyer').execute();
  await db.schema.dropTable('invoices').execute();
  await db.schema.dropTable('invoice_counters').execute();
}
