/**
 * Who sends invoices to KSeF, written by every node at start from its configuration and read by issuing in its
 * own transaction (docs/decisions/0034). `accounting`: the owner's accounting software sends them; the shop
 * offers the XML and takes the number typed in, and sends nothing (so no invoice is sent twice).
 */
import type { Executor } from '~/db/database.server';

export type KsefPolicy = { sends: boolean; consumerInvoices: boolean };

const ID = 'shop';

export async function recordKsefPolicy(db: Executor, config: { sender: 'kopi' | 'accounting'; consumerInvoices: boolean }): Promise<void> {
  const at = new Date().toISOString();
  const values = { sender: config.sender, consumer_invoices: config.consumerInvoices ? 1 : 0, updated_at: at };
  await db
    .insertInto('ksef_settings')
    .values({ id: ID, ...values, sending_since: config.sender === 'kopi' ? at : null })
    .onConflict((oc) => oc.column('id').doUpdateSet(values))
    .execute();
  // The first start that sends: invoices issued before it are left to whoever sent them until then.
  if (config.sender === 'kopi') await db.updateTable('ksef_settings').set({ sending_since: at }).where('id', '=', ID).where('sending_since', 'is', null).execute();
}

export async function ksefPolicy(db: Executor): Promise<KsefPolicy> {
  const row = await db.selectFrom('ksef_settings').select(['sender', 'consumer_invoices']).where('id', '=', ID).executeTakeFirst();
  return { sends: row?.sender === 'kopi', consumerInvoices: Number(row?.consumer_invoices ?? 0) === 1 };
}
