/**
 * How an order was paid (card, BLIK, Przelewy24), recorded when it is paid, so a refund names where the money goes
 * back ("to the card you paid with" is wrong for BLIK). Null when the provider did not say (a Stripe payment whose
 * method is not known): the texts then name no method.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('paid_with', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').dropColumn('paid_with').execute();
}
