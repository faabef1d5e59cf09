import { redirect } from 'react-router';
import { appContext } from '~/context';
import { requireAdmin, shopperContext } from '~/http/shopper.server';
import { getT } from '~/modules/i18n/index.server';
import { orderLabel } from '~/modules/orders/index.server';
import { shipmentLabel } from '~/modules/fulfilment/index.server';
import type { Route } from './+types/order-label';

/**
 * `GET /admin/orders/:id/label`: the order's InPost label (A6 PDF), fetched from ShipX as it is printed. When
 * InPost cannot give it, back to the order's page, which says so; for an order whose customer was removed, 410.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  requireAdmin(shopper);
  const label = await shipmentLabel(app, params.id);
  if (label.ok) {
    return new Response(label.value, {
      headers: {
        'Content-Type': 'application/pdf',
        'Content-Disposition': `attachment; filename="kopi-${orderLabel(params.id)}-inpost.pdf"`,
        'Cache-Control': 'no-store',
      },
    });
  }
  if (label.reason === 'not_found' || label.reason === 'not_configured') {
    return new Response(`${getT(shopper.locale)('admin.orders.errors.not_found')}\n`, { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  }
  // The customer's details were removed: the label (their name, address, phone) is gone for good.
  if (label.reason === 'anonymised') {
    return new Response(`${getT(shopper.locale)('admin.orders.errors.label_removed')}\n`, { status: 410, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  }
  app.log.warn({ order: params.id, reason: label.reason, message: label.reason === 'refused' ? label.message : undefined }, 'an InPost label could not be fetched');
  return redirect(`/admin/orders/${encodeURIComponent(params.id)}?label=unavailable`);
}
