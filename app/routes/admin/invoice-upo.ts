import { appContext } from '~/context';
import { requireAdmin, shopperContext } from '~/http/shopper.server';
import { getT } from '~/modules/i18n/index.server';
import { invoiceUpo } from '~/modules/invoices/register.server';
import type { Route } from './+types/invoice-upo';

/** `GET /admin/invoices/{id}/upo`: the official receipt (UPO) KSeF gave when it accepted the invoice, as it sent it. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  requireAdmin(shopper);
  const file = /^[A-Za-z0-9_-]{1,64}$/.test(params.id) ? await invoiceUpo(app.db, params.id) : null;
  if (!file) return new Response(`${getT(shopper.locale)('invoices.notFound')}\n`, { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  return new Response(file.upo, {
    headers: {
      'Content-Type': 'application/xml; charset=utf-8',
      'Content-Disposition': `attachment; filename="UPO-${file.number.replace(/\//g, '-')}.xml"`,
      'Cache-Control': 'private, no-store',
    },
  });
}
