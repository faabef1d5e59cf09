import { appContext } from '~/context';
import { requireAdmin, shopperContext } from '~/http/shopper.server';
import { zipFiles } from '~/lib/zip.server';
import { getT } from '~/modules/i18n/index.server';
import { monthKsefXml } from '~/modules/invoices/index.server';
import type { Route } from './+types/ksef-batch';

/** `GET /admin/tax/ksef?month=2026-11`: every KSeF XML issued that month (shop time), as one ZIP. */
export async function loader({ url, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  requireAdmin(shopper);
  const month = url.searchParams.get('month') ?? '';
  const valid = /^(20[2-9]\d)-(0[1-9]|1[0-2])$/.test(month);
  if (!valid) return new Response(`${getT(shopper.locale)('admin.tax.errors.month')}\n`, { status: 400, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  const files = await monthKsefXml(app.db, month);
  const zip = zipFiles(files.map((f) => ({ name: `${f.number.replace(/\//g, '-')}.xml`, content: f.xml })));
  return new Response(new Uint8Array(zip), {
    headers: {
      'Content-Type': 'application/zip',
      'Content-Disposition': `attachment; filename="kopi-ksef-${month}.zip"`,
      'Cache-Control': 'private, no-store',
    },
  });
}
