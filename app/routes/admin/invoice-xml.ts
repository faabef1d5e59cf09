import { appContext } from '~/context';
import { requireAdmin, shopperContext } from '~/http/shopper.server';
import { getT } from '~/modules/i18n/index.server';
import { invoiceXml } from '~/modules/invoices/index.server';
import type { Route } from './+types/invoice-xml';

/** `GET /admin/invoices/{id}/xml`: an invoice's KSeF FA(3) XML as issued, to send through KSeF's own tools. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  requireAdmin(shopper);
  const file = await invoiceXml(app.db, params.id);
  if (!file) return new Response(`${getT(shopper.locale)('invoices.notFound')}\n`, { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  return new Response(file.xml, {
    headers: {
      'Content-Type': 'application/xml; charset=utf-8',
      'Content-Disposition': `attachment; filename="${file.number.replace(/\//g, '-')}.xml"`,
      'Cache-Control': 'private, no-store',
    },
  });
}
