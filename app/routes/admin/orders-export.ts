import { appContext } from '~/context';
import { requireAdmin, shopperContext } from '~/http/shopper.server';
import { SHOP_TIME_ZONE } from '~/lib/format';
import { getT } from '~/modules/i18n/index.server';
import { addDays, exportOrdersCsv, isShopDay, shopDayOf } from '~/modules/reports/index.server';
import type { Route } from './+types/orders-export';

const MAX_DAYS = 3 * 366;

/** `GET /admin/orders/export?from=YYYY-MM-DD&to=YYYY-MM-DD`: the orders paid in those shop days, as CSV. */
export async function loader({ url, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  requireAdmin(shopper);
  const t = getT(shopper.locale);
  const from = url.searchParams.get('from') ?? '';
  const to = url.searchParams.get('to') ?? shopDayOf(new Date(), SHOP_TIME_ZONE);
  const problem = !isShopDay(from) || !isShopDay(to) ? 'invalidDates' : from > to ? 'reversedDates' : addDays(from, MAX_DAYS) < to ? 'rangeTooLong' : null;
  if (problem) {
    return new Response(`${t(`admin.dashboard.errors.${problem}`)}\n`, { status: 400, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  }
  const csv = await exportOrdersCsv(app.db, { from, to, timeZone: SHOP_TIME_ZONE, locale: shopper.locale });
  return new Response(csv, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="kopi-orders-${from}-${to}.csv"`,
      'Cache-Control': 'no-store',
    },
  });
}
