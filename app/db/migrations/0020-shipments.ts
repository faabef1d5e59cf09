/**
 * InPost shipments made from the back office through ShipX (docs/decisions/0021): the shipment's id at InPost
 * and its parcel size, and when creating one began — the claim that keeps two clicks, two admins or two nodes
 * from paying InPost for two parcels.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('shipment_id', 'text').execute();
  await db.schema.alterTable('orders').addColumn('shipment_size', 'text').execute();
  await db.schema.alterTable('orders').addColumn('shipment_started_at', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['shipment_id', 'shipment_size', 'shipment_started_at']) await db.schema.alterTable('orders').dropColumn(column).execute();
}
