/**
 * What each node does now and then for payments (docs/decisions/0020): stock held for payments that were
 * abandoned is let go once its time is up, payments a bank answered after the shopper left settle their orders, batches past their days to sell leave the pages, and an order paid after its coffee was gone, whose refund the
 * provider did not take at once, is refunded again. Both are safe on every node at once.
 */
import { bumpStoredCatalogVersion, markCatalogChanged } from '~/modules/catalog/index.server';
import { refundUnservedOrders } from '~/modules/fulfilment/index.server';
import { refreshAgingStock, releaseExpiredReservations } from '~/modules/stock/index.server';
import { notifyRestocked } from '~/modules/alerts/index.server';
import { recordSaleMoments, releaseExpiredCodeUses } from '~/modules/promotions/index.server';
import { type PaymentServices, issueRequestedInvoices, settleDuePayments, sweepReplacedPayments } from './checkout.server';
import { correctRefundedInvoices } from '~/modules/invoices/index.server';

export const SWEEP_INTERVAL_MS = 30_000;

export async function sweepPayments(services: PaymentServices, now = new Date()): Promise<{ released: boolean; refunded: number; notified: number; settled: number }> {
  // Banks that answered while nobody waited (a closed tab): those payments settle their orders first, before
  // their holds could be let go below.
  // Payments of replaced orders the provider was not reached about are cancelled (one paid first is refunded).
  const settled = (await settleDuePayments(services, now)) + (await sweepReplacedPayments(services));
  const released = await releaseExpiredReservations(services.db, now, services.reservationMinutes);
  // Codes held for orders that were never paid get their uses back.
  await releaseExpiredCodeUses(services.db, now);
  // A batch past its days to sell stops counting without anyone changing anything.
  const aged = await refreshAgingStock(services.db, now);
  if (released || aged) {
    await bumpStoredCatalogVersion(services.db);
    markCatalogChanged();
  }
  // Sales that started or ended since: their moments join the price history (pages follow by the clock).
  // Their products' "from" prices (the price sort) follow, and every node's pages with them.
  if ((await recordSaleMoments(services.db, now)) > 0) {
    await bumpStoredCatalogVersion(services.db);
    markCatalogChanged();
  }
  const refunded = await refundUnservedOrders(services);
  // Invoices asked for at checkout that could not be issued with their payment, and refunds' corrections.
  const invoiced = await issueRequestedInvoices(services);
  const corrected = await correctRefundedInvoices(services.db, { log: services.log });
  const notified = services.publicUrl ? await notifyRestocked(services.db, { publicUrl: services.publicUrl, log: services.log }) : 0;
  if (refunded > 0 || notified > 0 || invoiced > 0 || corrected > 0) services.kickMail();
  return { released, refunded, notified, settled };
}
