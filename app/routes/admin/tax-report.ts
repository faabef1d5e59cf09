import { appContext } from '~/context';
import { requireAdmin, shopperContext } from '~/http/shopper.server';
import { SHOP_TIME_ZONE } from '~/lib/format';
import { getT } from '~/modules/i18n/index.server';
import { exportOssCsv } from '~/modules/reports/index.server';
import type { Route } from './+types/tax-report';

/** `GET /admin/tax/oss-report?year=2026&quarter=3`: the quarter's OSS figures per country and rate, as CSV. */
export async function loader({ url, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  requireAdmin(shopper);
  const year = Number(url.searchParams.get('year'));
  const quarter = Number(url.searchParams.get('quarter'));
  if (!Number.isInteger(year) || year < 2021 || year > 2100 || !Number.isInteger(quarter) || quarter < 1 || quarter > 4) {
    return new Response(`${getT(shopper.locale)('admin.tax.errors.period')}\n`, { status: 400, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  }
  const csv = await exportOssCsv(app.db, { year, quarter, timeZone: SHOP_TIME_ZONE, locale: shopper.locale });
  return new Response(csv, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="kopi-oss-${year}-Q${quarter}.csv"`,
      'Cache-Control': 'no-store',
    },
  });
}
