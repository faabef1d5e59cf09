import { appContext } from '~/context';
import { requireUser, shopperContext } from '~/http/shopper.server';
import { getT } from '~/modules/i18n/index.server';
import { invoiceFileName, invoicePdf } from '~/modules/invoices/index.server';
import type { Route } from './+types/invoice-file';

/** `GET /invoices/{id}`: an invoice's PDF as issued, for the owner or the customer whose order it is. */
export async function loader({ params, url, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  const user = requireUser(shopper, url);
  const file = await invoicePdf(app.db, params.id, user.isAdmin ? { admin: true } : { userId: user.id });
  if (!file) return new Response(`${getT(shopper.locale)('invoices.notFound')}\n`, { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  if ('pending' in file) return new Response(`${getT(shopper.locale)('invoices.inKsef', { number: file.number })}\n`, { status: 409, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });
  return new Response(new Uint8Array(file.pdf), {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="${invoiceFileName(file.number)}"`,
      'Cache-Control': 'private, no-store',
    },
  });
}
