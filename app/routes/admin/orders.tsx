import { Search } from 'lucide-react';
import { Form, Link } from 'react-router';
import { Pagination } from '~/components/admin/pagination';
import { StatusBadge } from '~/components/orders/status-badge';
import { appContext } from '~/context';
import { requireAdmin, shopperContext } from '~/http/shopper.server';
import { formatDate, formatPrice } from '~/lib/format';
import { OWNER_ORDERS_PAGE_SIZE, listOwnerOrders } from '~/modules/fulfilment/index.server';
import { getT } from '~/modules/i18n/index.server';
import { useI18n } from '~/modules/i18n/react';
import { shippingStatuses } from '~/modules/orders/orders.types';
import type { Route } from './+types/orders';

export async function loader({ url, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  requireAdmin(shopper);
  const q = (url.searchParams.get('q') ?? '').trim().slice(0, 100);
  const requested = url.searchParams.get('status') ?? '';
  const status = (shippingStatuses as readonly string[]).includes(requested) ? requested : '';
  const pageParam = Number(url.searchParams.get('page'));
  const page = Number.isInteger(pageParam) && pageParam >= 1 && pageParam <= 10_000 ? pageParam : 1;
  const { orders, total } = await listOwnerOrders(app.db, { status: status || undefined, q, offset: (page - 1) * OWNER_ORDERS_PAGE_SIZE });
  return { title: getT(shopper.locale)('admin.meta.ordersTitle'), q, status, page, pages: Math.max(1, Math.ceil(total / OWNER_ORDERS_PAGE_SIZE)), total, orders };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${loaderData?.title} · Kopi` }, { name: 'robots', content: 'noindex' }];

export default function AdminOrdersPage({ loaderData }: Route.ComponentProps) {
  const { t, locale } = useI18n();
  const { q, status, page, pages, total, orders } = loaderData;
  return (
    <div>
      <h1 className="text-3xl font-semibold md:text-4xl">{t('admin.orders.heading')}</h1>
      <p className="mt-2 text-muted">{t('admin.orders.intro')}</p>

      <Form method="get" role="search" className="mt-6 flex flex-wrap items-end gap-3">
        <div className="min-w-64 flex-1">
          <label htmlFor="orders-q" className="field-label">{t('admin.orders.search')}</label>
          <input id="orders-q" name="q" type="search" defaultValue={q} maxLength={100} placeholder={t('admin.orders.searchPlaceholder')} className="field-input" />
        </div>
        <div>
          <label htmlFor="orders-status" className="field-label">{t('admin.orders.statusFilter')}</label>
          <select id="orders-status" name="status" defaultValue={status} className="field-input">
            <option value="">{t('admin.orders.allStatuses')}</option>
            {shippingStatuses.map((s) => (
              <option key={s} value={s}>{t(`orders.status.${s}`)}</option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn-outline">
          <Search aria-hidden="true" className="h-4 w-4" />
          {t('admin.orders.searchButton')}
        </button>
        {(q || status) && <Link to="/admin/orders" className="btn-ghost">{t('admin.orders.clear')}</Link>}
      </Form>

      <p className="mt-6 text-sm text-muted" aria-live="polite" data-testid="orders-count">{t('admin.orders.count', { count: total })}</p>

      {orders.length === 0 ? (
        <p className="mt-4 rounded-3xl bg-paper p-10 text-center text-muted ring-1 ring-sand">{t('admin.orders.empty')}</p>
      ) : (
        <div className="relative mt-4 rounded-3xl bg-paper ring-1 ring-sand sm:overflow-x-auto">
          {/* On a phone each order is a card (its cells stacked, the headings kept for screen readers); wider, a table. */}
          <table role="table" className="w-full text-left text-sm max-sm:block sm:min-w-[44rem]">
            <thead role="rowgroup" className="border-b border-sand text-xs tracking-wide text-muted uppercase max-sm:sr-only">
              <tr role="row">
                <th scope="col" role="columnheader" className="px-4 py-3 font-semibold">{t('admin.orders.order')}</th>
                <th scope="col" role="columnheader" className="px-4 py-3 font-semibold">{t('admin.orders.date')}</th>
                <th scope="col" role="columnheader" className="px-4 py-3 font-semibold">{t('admin.orders.customer')}</th>
                <th scope="col" role="columnheader" className="px-4 py-3 text-right font-semibold">{t('admin.orders.items')}</th>
                <th scope="col" role="columnheader" className="px-4 py-3 text-right font-semibold">{t('admin.orders.total')}</th>
                <th scope="col" role="columnheader" className="px-4 py-3 font-semibold">{t('admin.orders.status')}</th>
              </tr>
            </thead>
            <tbody role="rowgroup" className="divide-y divide-sand max-sm:block">
              {orders.map((order) => (
                <tr key={order.id} role="row" data-testid="admin-order-row" className="max-sm:grid max-sm:grid-cols-2 max-sm:gap-x-4 max-sm:gap-y-2 max-sm:px-4 max-sm:py-4">
                  <th scope="row" role="rowheader" className="px-4 py-3 font-mono font-semibold max-sm:p-0">
                    <Link to={`/admin/orders/${order.id}`} className="hover:text-leaf hover:underline" aria-label={t('admin.orders.open', { label: order.label })}>
                      {order.label}
                    </Link>
                  </th>
                  <td role="cell" className="px-4 py-3 whitespace-nowrap text-roast-600 max-sm:p-0 max-sm:text-right"><time dateTime={order.createdAt}>{formatDate(order.createdAt, locale)}</time></td>
                  <td role="cell" className="px-4 py-3 max-sm:col-span-2 max-sm:p-0">
                    <span className="font-medium">{order.customerName}</span>
                    <span className="block text-xs text-muted">{order.removed ? t(order.removed === 'deletion' ? 'admin.customers.deletedCustomer' : 'admin.customers.detailsRemoved') : order.customerEmail}</span>
                  </td>
                  <td role="cell" className="px-4 py-3 text-right tabular-nums max-sm:p-0 max-sm:text-left max-sm:text-roast-600">
                    <span className="sm:hidden" aria-hidden="true">{t('admin.orders.items')}: </span>
                    {order.items}
                  </td>
                  <td role="cell" className="px-4 py-3 text-right font-semibold whitespace-nowrap tabular-nums max-sm:p-0">{formatPrice(order.totalCents, order.currency, locale)}</td>
                  <td role="cell" className="px-4 py-3 max-sm:col-span-2 max-sm:p-0">
                    <StatusBadge status={order.status} />
                    {order.partlyWithdrawn && <span className="mt-1 block text-xs text-muted">{t('orders.withdrawn')}</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <Pagination page={page} pages={pages} />
    </div>
  );
}
