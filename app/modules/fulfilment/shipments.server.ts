/**
 * InPost shipments from the back office (docs/decisions/0021): for a paid order going to a locker, or by courier
 * within Poland, the owner picks the parcel size and Kopi asks ShipX for the shipment, waits for InPost to
 * confirm it with a tracking number, and moves the order to shipped — with the customer's mail and its
 * tracking link — exactly as if the owner had typed the number. The label is fetched from ShipX when printed.
 *
 * One shipment per order: creating one first claims the order (a conditional update), so two clicks, two admins
 * or two nodes never pay InPost twice; a refusal releases the claim and changes nothing.
 */
import { type Executor, inTransaction } from '~/db/database.server';
import type { Actor } from '~/modules/activity/index.server';
import { recordActivity } from '~/modules/activity/index.server';
import { getDeliveryTable, parcelGrams } from '~/modules/delivery/index.server';
import { type OrderDelivery, findOrderRecord, getOrderRecordLines, orderLabel } from '~/modules/orders/index.server';
import { moveOrder } from './fulfilment.server';
import { type ParcelSize, isParcelSize } from './carriers';
import { type Shipx, type ShipxAnswer, cancelledStatuses, isConfirmed, splitStreet } from './shipx.server';

export type ShipmentServices = { db: Executor; shipx: Shipx | null; publicUrl?: string; log?: { warn(obj: object, msg: string): void } };

export type ShipmentOutcome =
  | { ok: true; shipped: boolean }
  | { ok: false; reason: 'not_found' | 'not_allowed' | 'not_configured' | 'in_progress' | 'invalid_size' | 'unreachable' | 'cancelled' }
  /** InPost may have made the shipment without saying so: the order stays claimed (see CLAIM_MS) and unchanged. */
  | { ok: false; reason: 'uncertain' }
  | { ok: false; reason: 'refused'; message: string };

/** A claim older than this is a request that died midway: the owner may try again. */
const CLAIM_MS = 2 * 60_000;
/** How long creating a shipment waits for InPost's confirmation before the owner is told to check again. */
const CONFIRM_TRIES = 8;
const CONFIRM_EVERY_MS = 250;
const idPattern = /^[A-Za-z0-9_-]{1,64}$/;

/** How ShipX can carry an order: to its locker, or by InPost's courier within Poland; null for pickup and abroad. */
export function shipmentService(delivery: OrderDelivery | null): 'locker' | 'courier' | null {
  if (delivery?.kind === 'locker' && delivery.point) return 'locker';
  if (delivery?.kind === 'courier' && delivery.country === 'PL') return 'courier';
  return null;
}

/** The locker size a parcel of this weight usually needs (a 1 kg bag of beans is about 8 cm thick). */
export const suggestedSize = (grams: number): ParcelSize => (grams <= 2_000 ? 'small' : grams <= 6_000 ? 'medium' : 'large');

/** The order's parcel weight by delivery's rule: the ordered variants' net weights and the packaging. */
export async function orderParcelGrams(db: Executor, lines: ReadonlyArray<{ netWeightGrams: number | null; quantity: number }>): Promise<number> {
  return parcelGrams(await getDeliveryTable(db), lines.reduce((sum, line) => sum + (line.netWeightGrams ?? 0) * line.quantity, 0));
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function createShipment(services: ShipmentServices, actor: Actor, id: string, size: string, clock: () => Date = () => new Date()): Promise<ShipmentOutcome> {
  const { db, shipx } = services;
  if (!shipx) return { ok: false, reason: 'not_configured' };
  if (!isParcelSize(size)) return { ok: false, reason: 'invalid_size' };
  if (!idPattern.test(id)) return { ok: false, reason: 'not_found' };
  const order = await findOrderRecord(db, id);
  if (!order || order.paymentStatus !== 'succeeded') return { ok: false, reason: 'not_found' };
  const service = shipmentService(order.delivery);
  if (!service) return { ok: false, reason: 'not_allowed' };

  const startedAt = clock().toISOString();
  const claimed = await db
    .updateTable('orders')
    .set({ shipment_started_at: startedAt })
    .where('id', '=', id)
    .where('payment_status', '=', 'succeeded')
    .where('shipping_status', '=', 'processing')
    .where('stock_short_at', 'is', null)
    .where('replaced_at', 'is', null)
    .where('shipment_id', 'is', null)
    .where((eb) => eb.or([eb('shipment_started_at', 'is', null), eb('shipment_started_at', '<', new Date(clock().getTime() - CLAIM_MS).toISOString())]))
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) {
    const now = await db.selectFrom('orders').select(['shipping_status', 'shipment_id', 'stock_short_at', 'replaced_at']).where('id', '=', id).executeTakeFirst();
    return { ok: false, reason: now?.shipping_status === 'processing' && !now.shipment_id && !now.stock_short_at && !now.replaced_at ? 'in_progress' : 'not_allowed' };
  }

  const weightGrams = await orderParcelGrams(db, await getOrderRecordLines(db, id));
  const receiver = { name: order.shipping.fullName, email: order.userEmail, phone: order.delivery!.phone };
  const reference = orderLabel(id);
  const created = await shipx.create(
    service === 'locker'
      ? { service, reference, receiver, size, weightGrams, targetPoint: order.delivery!.point! }
      : { service, reference, receiver, size, weightGrams, address: { ...splitStreet(order.shipping.address), city: order.shipping.city, postCode: order.shipping.zipCode } },
  );
  if (!created.ok) {
    // A refusal, or a request that never left: nothing exists at InPost, the owner may try again at once. No
    // clear answer: a shipment may exist, so the claim stays until CLAIM_MS is over (the owner looks first).
    if (created.reason !== 'uncertain') {
      await db.updateTable('orders').set({ shipment_started_at: null }).where('id', '=', id).where('shipment_started_at', '=', startedAt).where('shipment_id', 'is', null).execute();
    }
    return created;
  }
  await inTransaction(db, async (trx) => {
    await trx.updateTable('orders').set({ shipment_id: created.value.id, shipment_size: size }).where('id', '=', id).execute();
    await recordActivity(trx, actor, {
      action: 'order.shipment',
      subjectType: 'order',
      subjectId: id,
      subjectLabel: reference,
      details: { shipmentId: created.value.id, size, service },
    });
  });
  const confirmed = await confirmShipment(services, actor, id, CONFIRM_TRIES);
  // It exists at InPost whatever its confirmation said: the page offers to check again.
  return !confirmed.ok && (confirmed.reason === 'unreachable' || confirmed.reason === 'uncertain') ? { ok: true, shipped: false } : confirmed;
}

/**
 * Asks InPost whether the order's shipment is confirmed (up to `tries` times): once it is, the order moves to
 * shipped with InPost's tracking number. A shipment InPost cancelled frees the order for a new one.
 */
export async function confirmShipment(services: ShipmentServices, actor: Actor, id: string, tries = 1): Promise<ShipmentOutcome> {
  const { db, shipx } = services;
  if (!shipx) return { ok: false, reason: 'not_configured' };
  if (!idPattern.test(id)) return { ok: false, reason: 'not_found' };
  const row = await db.selectFrom('orders').select(['shipment_id', 'shipping_status', 'payment_status']).where('id', '=', id).executeTakeFirst();
  if (!row || row.payment_status !== 'succeeded') return { ok: false, reason: 'not_found' };
  if (!row.shipment_id || row.shipping_status === 'cancelled') return { ok: false, reason: 'not_allowed' };
  if (row.shipping_status !== 'processing') return { ok: true, shipped: true };
  for (let i = 0; i < tries; i++) {
    if (i > 0) await wait(CONFIRM_EVERY_MS);
    const answer = await shipx.get(row.shipment_id);
    if (!answer.ok) return answer.reason === 'refused' ? answer : { ok: false, reason: 'unreachable' };
    if (cancelledStatuses.has(answer.value.status)) {
      await db.updateTable('orders').set({ shipment_id: null, shipment_size: null, shipment_started_at: null }).where('id', '=', id).where('shipment_id', '=', row.shipment_id).execute();
      return { ok: false, reason: 'cancelled' };
    }
    if (isConfirmed(answer.value)) {
      const moved = await moveOrder({ db, publicUrl: services.publicUrl }, actor, id, { to: 'shipped', carrier: 'inpost', trackingNumber: answer.value.trackingNumber! });
      // Moved meanwhile (another admin's click, or a number typed by hand): the order is shipped either way.
      return moved.ok || moved.from === 'shipped' ? { ok: true, shipped: true } : { ok: false, reason: 'not_allowed' };
    }
  }
  return { ok: true, shipped: false };
}

/**
 * The shipment's A6 label as a PDF, from ShipX (InPost keeps it; Kopi fetches it whenever it is printed). Not for
 * an order whose customer was removed (deleted, or past retention; docs/decisions/0029): the label carries their
 * name, address and phone, which Kopi no longer holds and must not fetch back. Its shipment id stays (what was sent).
 */
export async function shipmentLabel(
  services: Pick<ShipmentServices, 'db' | 'shipx'>,
  id: string,
): Promise<ShipxAnswer<ArrayBuffer> | { ok: false; reason: 'not_found' | 'not_configured' | 'anonymised' }> {
  if (!services.shipx) return { ok: false, reason: 'not_configured' };
  if (!idPattern.test(id)) return { ok: false, reason: 'not_found' };
  const row = await services.db.selectFrom('orders').select(['shipment_id', 'anonymised_at']).where('id', '=', id).where('payment_status', '=', 'succeeded').executeTakeFirst();
  if (!row?.shipment_id) return { ok: false, reason: 'not_found' };
  if (row.anonymised_at !== null) return { ok: false, reason: 'anonymised' };
  return services.shipx.label(row.shipment_id);
}
