import { Download, PackageOpen, Receipt, ShoppingBag, TrendingUp, Undo2 } from 'lucide-react';
import { Form, Link } from 'react-router';
import { RevenueChart } from '~/components/admin/revenue-chart';
import { appContext } from '~/context';
import { requireAdmin, shopperContext } from '~/http/shopper.server';
import { SHOP_TIME_ZONE, formatNumber, formatPrice } from '~/lib/format';
import { getT } from '~/modules/i18n/index.server';
import { useI18n } from '~/modules/i18n/react';
import { addDays, crossBorderSales, getDashboard, isPeriod } from '~/modules/reports/index.server';
import { periods } from '~/modules/reports/periods';
import { isGrind, isOptionKind, variantLabel } from '~/modules/catalog/variants';
import { lowStock } from '~/modules/stock/index.server';
import { currencySettings } from '~/modules/pricing/index.server';
import { currencies, isCurrency } from '~/modules/pricing/currencies';
import { OssMeter } from '~/components/admin/oss-meter';
import { taxSettings } from '~/modules/tax/index.server';
import type { Route } from './+types/dashboard';
import { SellerProblem } from '~/components/admin/seller-problem';
import { KsefAttention } from '~/components/admin/ksef-attention';
import { ksefAttention } from '~/modules/invoices/register.server';
import { sellerProblem } from '~/modules/invoices/index.server';

export async function loader({ url, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  requireAdmin(shopper);
  const requested = url.searchParams.get('period');
  const period = isPeriod(requested) ? requested : '7d';
  const asked = url.searchParams.get('currency');
  const currency = isCurrency(asked) ? asked : (await currencySettings(app.db)).defaults[shopper.locale];
  const [dashboard, low, tax] = await Promise.all([
    getDashboard(app.db, app.storage, { period, timeZone: SHOP_TIME_ZONE, locale: shopper.locale, currency }),
    lowStock(app.db, { locale: shopper.locale }),
    taxSettings(app.db),
  ]);
  const oss = await crossBorderSales(app.db, { year: Number(dashboard.to.slice(0, 4)), timeZone: SHOP_TIME_ZONE });
  const [attention, ksefState] = await Promise.all([ksefAttention(app.db), app.ksef.context?.state() ?? null]);
  return {
    title: getT(shopper.locale)('admin.meta.dashboardTitle'),
    sellerProblem: sellerProblem(app.config.seller),
    ksef: { sends: app.config.ksef.sender === 'kopi', hasToken: Boolean(app.config.ksef.token), problem: ksefState?.problem ?? null, ...attention },
    dashboard,
    low,
    oss,
    ossRegistered: tax.ossRegistered,
    // The export form starts at the first of this month.
    exportFrom: `${dashboard.to.slice(0, 8)}01`,
    exportMin: addDays(dashboard.to, -3 * 366),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${loaderData?.title} · Kopi` }, { name: 'robots', content: 'noindex' }];

const rate = (part: number, whole: number) => (whole === 0 ? null : part / whole);

export default function AdminDashboardPage({ loaderData }: Route.ComponentProps) {
  const { t, locale } = useI18n();
  const { dashboard: d, low, exportFrom, exportMin, oss, ossRegistered } = loaderData;
  const percent = (value: number | null) => (value === null ? '—' : formatNumber(value, locale, { style: 'percent', maximumFractionDigits: 1 }));
  const tiles = [
    { key: 'revenue', Icon: TrendingUp, value: formatPrice(d.revenueCents, d.currency, locale), note: d.deliveryCents > 0 ? t('admin.dashboard.paidWithDelivery', { amount: formatPrice(d.paidCents, d.currency, locale), delivery: formatPrice(d.deliveryCents, d.currency, locale) }) : t('admin.dashboard.paid', { amount: formatPrice(d.paidCents, d.currency, locale) }) },
    { key: 'orders', Icon: ShoppingBag, value: formatNumber(d.orders, locale), note: null },
    { key: 'average', Icon: Receipt, value: formatPrice(d.averageOrderCents, d.currency, locale), note: null },
    { key: 'refunds', Icon: Undo2, value: formatPrice(d.refundedCents, d.currency, locale), note: t('admin.dashboard.refundCount', { count: d.refunds }) },
  ] as const;
  const steps = [
    { key: 'visitors', n: d.funnel.visitors, of: null },
    { key: 'addedToCart', n: d.funnel.addedToCart, of: d.funnel.visitors },
    { key: 'beganCheckout', n: d.funnel.beganCheckout, of: d.funnel.addedToCart },
    { key: 'purchased', n: d.funnel.purchased, of: d.funnel.beganCheckout },
  ] as const;
  const tab = (active: boolean) => `rounded-full px-4 py-1.5 text-sm font-semibold ${active ? 'bg-roast text-cream' : 'text-roast-600 ring-1 ring-sand hover:bg-roast/5'}`;

  return (
    <div className="grid grid-cols-1 gap-8">
      <SellerProblem problem={loaderData.sellerProblem} />
      <KsefAttention ksef={loaderData.ksef} />
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-semibold md:text-4xl">{t('admin.dashboard.heading')}</h1>
          <p className="mt-2 text-muted">{t(`admin.dashboard.range.${d.period}`, { from: d.from, to: d.to })}</p>
        </div>
        <div className="flex flex-wrap gap-3">
          <nav aria-label={t('admin.dashboard.periodLabel')} className="flex flex-wrap gap-2">
            {(Object.keys(periods) as (keyof typeof periods)[]).map((p) => (
              <Link key={p} to={`/admin?period=${p}&currency=${d.currency}`} className={tab(p === d.period)} aria-current={p === d.period ? 'page' : undefined}>
                {t(`admin.dashboard.periods.${p}`)}
              </Link>
            ))}
          </nav>
          {/* Euros and złoty are never added: each currency's orders have their own figures. */}
          <nav aria-label={t('admin.dashboard.currencyLabel')} className="flex flex-wrap gap-2" data-testid="dashboard-currency">
            {currencies.map((c) => (
              <Link key={c} to={`/admin?period=${d.period}&currency=${c}`} className={tab(c === d.currency)} aria-current={c === d.currency ? 'page' : undefined}>
                {c}
              </Link>
            ))}
          </nav>
        </div>
      </div>

      <dl className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {tiles.map(({ key, Icon, value, note }) => (
          <div key={key} className="rounded-3xl bg-paper p-6 ring-1 ring-sand" data-testid={`figure-${key}`}>
            <dt className="flex items-center gap-2 text-sm font-medium text-muted">
              <Icon aria-hidden="true" className="h-4 w-4 text-leaf" />
              {t(`admin.dashboard.figures.${key}`)}
            </dt>
            <dd className="mt-2 text-3xl font-semibold tabular-nums">{value}</dd>
            {note && <dd className="mt-1 text-sm text-muted">{note}</dd>}
          </div>
        ))}
      </dl>
      <p className="-mt-4 max-w-3xl text-sm text-muted" data-testid="figures-counted">{t('admin.dashboard.counted')}</p>

      <section aria-labelledby="chart-heading" className="rounded-3xl bg-paper p-6 ring-1 ring-sand">
        <div className="flex flex-wrap items-baseline justify-between gap-3">
          <h2 id="chart-heading" className="text-lg font-semibold">{t('admin.dashboard.chartHeading', { count: d.days.length })}</h2>
          <p className="flex items-center gap-4 text-sm text-muted">
            <span className="inline-flex items-center gap-1.5"><span aria-hidden="true" className="h-3 w-3 rounded-sm bg-roast" />{t('admin.dashboard.figures.revenue')}</span>
            <span className="inline-flex items-center gap-1.5"><span aria-hidden="true" className="h-0.5 w-4 bg-leaf" />{t('admin.dashboard.figures.orders')}</span>
          </p>
        </div>
        {/* On a phone the chart keeps a readable size and scrolls sideways inside its card. */}
        <div className="relative mt-4 overflow-x-auto">
          <div className="min-w-[36rem]">
            <RevenueChart days={d.days} currency={d.currency} locale={locale} />
          </div>
        </div>
        <details className="mt-4 text-sm">
          <summary className="cursor-pointer font-medium text-leaf">{t('admin.dashboard.showFigures')}</summary>
          <div className="relative mt-3 overflow-x-auto">
            <table className="w-full text-left">
              <thead className="text-xs tracking-wide text-muted uppercase">
                <tr>
                  <th scope="col" className="py-2">{t('admin.dashboard.day')}</th>
                  <th scope="col" className="py-2 text-right">{t('admin.dashboard.figures.revenue')}</th>
                  <th scope="col" className="py-2 text-right">{t('admin.dashboard.figures.orders')}</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-sand" data-testid="daily-figures">
                {d.days.map((day) => (
                  <tr key={day.day}>
                    <th scope="row" className="py-1.5 font-normal">{day.day}</th>
                    <td className="py-1.5 text-right tabular-nums">{formatPrice(day.revenueCents, d.currency, locale)}</td>
                    <td className="py-1.5 text-right tabular-nums">{day.orders}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      </section>

      <div className="grid gap-6 lg:grid-cols-2">
        <section aria-labelledby="funnel-heading" className="rounded-3xl bg-paper p-6 ring-1 ring-sand">
          <h2 id="funnel-heading" className="text-lg font-semibold">{t('admin.dashboard.funnelHeading')}</h2>
          <p className="mt-1 text-sm text-muted">{t('admin.dashboard.funnelIntro')}</p>
          <ol className="mt-5 grid gap-4" data-testid="funnel">
            {steps.map((step) => {
              const width = d.funnel.visitors === 0 ? 0 : Math.max(2, (step.n / d.funnel.visitors) * 100);
              return (
                <li key={step.key}>
                  <div className="flex items-baseline justify-between gap-3 text-sm">
                    <span className="font-medium">{t(`admin.dashboard.funnel.${step.key}`)}</span>
                    <span className="tabular-nums">
                      <span className="font-semibold" data-testid={`funnel-${step.key}`}>{formatNumber(step.n, locale)}</span>
                      {step.of !== null && <span className="ml-2 text-muted">{t('admin.dashboard.ofPrevious', { rate: percent(rate(step.n, step.of)) })}</span>}
                    </span>
                  </div>
                  <div className="mt-1.5 h-2.5 rounded-full bg-sand/60">
                    <div className="h-2.5 rounded-full bg-leaf" style={{ width: `${width}%` }} />
                  </div>
                </li>
              );
            })}
          </ol>
        </section>

        <section aria-labelledby="top-heading" className="rounded-3xl bg-paper p-6 ring-1 ring-sand">
          <h2 id="top-heading" className="text-lg font-semibold">{t('admin.dashboard.topHeading')}</h2>
          {d.topProducts.length === 0 ? (
            <p className="mt-4 text-sm text-muted">{t('admin.dashboard.noSales')}</p>
          ) : (
            <table className="mt-4 w-full text-left text-sm">
              <thead className="text-xs tracking-wide text-muted uppercase">
                <tr>
                  <th scope="col" className="py-2">{t('admin.products.name')}</th>
                  <th scope="col" className="py-2 pl-3 text-right">{t('admin.dashboard.sold')}</th>
                  <th scope="col" className="py-2 pl-3 text-right">{t('admin.dashboard.topRevenue')}</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-sand" data-testid="top-products">
                {d.topProducts.map((p) => (
                  <tr key={p.key}>
                    <th scope="row" className="py-2 font-medium">
                      {p.name || t('product.unnamed')}
                      {p.label && <span className="block text-xs font-normal text-muted">{p.label}</span>}
                    </th>
                    <td className="py-2 pl-3 text-right tabular-nums">{formatNumber(p.quantity, locale)}</td>
                    <td className="py-2 pl-3 text-right font-semibold whitespace-nowrap tabular-nums">{formatPrice(p.revenueCents, d.currency, locale)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      </div>

      <section aria-labelledby="low-heading" className="rounded-3xl bg-paper p-6 ring-1 ring-sand">
        <h2 id="low-heading" className="flex items-center gap-2 text-lg font-semibold">
          <PackageOpen aria-hidden="true" className="h-5 w-5 text-leaf" />
          {t('admin.dashboard.lowHeading')}
        </h2>
        <p className="mt-1 text-sm text-muted">{t('admin.dashboard.lowIntro')}</p>
        {low.length === 0 ? (
          <p className="mt-4 text-sm text-muted" data-testid="low-stock-none">{t('admin.dashboard.lowNone')}</p>
        ) : (
          <div className="relative mt-4 overflow-x-auto">
            <table className="w-full min-w-[28rem] text-left text-sm">
              <thead className="text-xs tracking-wide text-muted uppercase">
                <tr>
                  <th scope="col" className="py-2">{t('admin.products.name')}</th>
                  <th scope="col" className="py-2 pl-3 text-right">{t('admin.dashboard.lowLeft')}</th>
                  <th scope="col" className="py-2 pl-3 text-right">{t('admin.dashboard.lowDays')}</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-sand" data-testid="low-stock">
                {low.map((row) => {
                  const label = variantLabel({ ...row, grind: isGrind(row.grind) ? row.grind : null }, row.options.split(',').filter(isOptionKind), t, locale);
                  return (
                    <tr key={row.variantId} data-testid="low-stock-row">
                      <th scope="row" className="py-2 font-medium">
                        <Link to={`/admin/products/${row.productId}/stock`} className="hover:text-leaf hover:underline">{row.name || t('product.unnamed')}</Link>
                        <span className="block text-xs font-normal text-muted">{label ? `${label} · ` : ''}<span className="font-mono">{row.sku}</span></span>
                      </th>
                      <td className={`py-2 pl-3 text-right font-semibold tabular-nums ${row.left === 0 ? 'text-cherry' : ''}`}>
                        {row.left === 0 ? t('product.soldOut') : formatNumber(row.left, locale)}
                      </td>
                      <td className="py-2 pl-3 text-right whitespace-nowrap tabular-nums">
                        {row.days === null ? '—' : t('admin.dashboard.days', { count: row.days })}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section aria-labelledby="oss-heading" className="rounded-3xl bg-paper p-6 ring-1 ring-sand" data-testid="dashboard-oss">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="oss-heading" className="text-lg font-semibold">{t('admin.tax.ossHeading')}</h2>
          <Link to="/admin/tax" className="text-sm font-medium text-leaf underline underline-offset-4">{t('admin.dashboard.taxSettings')}</Link>
        </div>
        <div className="mt-3">
          <OssMeter sales={oss} registered={ossRegistered} />
        </div>
      </section>

      <section aria-labelledby="export-heading" className="rounded-3xl bg-paper p-6 ring-1 ring-sand">
        <h2 id="export-heading" className="text-lg font-semibold">{t('admin.dashboard.exportHeading')}</h2>
        <p className="mt-1 text-sm text-muted">{t('admin.dashboard.exportIntro')}</p>
        <Form method="get" action="/admin/orders/export" reloadDocument className="mt-4 flex flex-wrap items-end gap-3">
          <div>
            <label htmlFor="export-from" className="field-label">{t('admin.dashboard.from')}</label>
            <input id="export-from" name="from" type="date" required defaultValue={exportFrom} min={exportMin} max={d.to} className="field-input" />
          </div>
          <div>
            <label htmlFor="export-to" className="field-label">{t('admin.dashboard.to')}</label>
            <input id="export-to" name="to" type="date" required defaultValue={d.to} min={exportMin} max={d.to} className="field-input" />
          </div>
          <button type="submit" className="btn-outline">
            <Download aria-hidden="true" className="h-4 w-4" />
            {t('admin.dashboard.download')}
          </button>
        </Form>
      </section>
    </div>
  );
}
