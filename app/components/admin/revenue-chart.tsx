import { formatDayMonth, formatPrice } from '~/lib/format';
import type { Currency } from '~/modules/pricing/currencies';
import type { Locale } from '~/modules/i18n/translate';
import { useT } from '~/modules/i18n/react';
import { axisMax, ORDERS_MIN_STEP, REVENUE_MIN_STEP } from './chart-axis';

type Day = { day: string; revenueCents: number; orders: number };

const W = 720;
const H = 240;
const PAD = { top: 16, right: 44, bottom: 28, left: 64 };

/**
 * Daily revenue after refunds (bars, left axis) and orders kept (line, right axis), as the dashboard counts them,
 * drawn as SVG on the server: no chart library, nothing for the storefront to load. The figures are also in a
 * table below it.
 */
export function RevenueChart({ days, currency, locale }: { days: Day[]; currency: Currency; locale: Locale }) {
  const t = useT();
  const maxRevenue = axisMax(Math.max(...days.map((d) => d.revenueCents)), REVENUE_MIN_STEP);
  const maxOrders = axisMax(Math.max(...days.map((d) => d.orders)), ORDERS_MIN_STEP);
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const slot = innerW / days.length;
  const barW = Math.max(2, Math.min(28, slot * 0.6));
  const x = (i: number) => PAD.left + slot * i + slot / 2;
  const yRevenue = (cents: number) => PAD.top + innerH - (cents / maxRevenue) * innerH;
  const yOrders = (n: number) => PAD.top + innerH - (n / maxOrders) * innerH;
  const labelEvery = Math.ceil(days.length / 8);
  const grid = [0, 1, 2, 3, 4];
  const line = days.map((d, i) => `${i === 0 ? 'M' : 'L'}${x(i).toFixed(1)},${yOrders(d.orders).toFixed(1)}`).join(' ');
  const total = days.reduce((sum, d) => sum + d.revenueCents, 0);
  return (
    <svg viewBox={`0 0 ${W} ${H}`} className="h-auto w-full" role="img" aria-label={t('admin.dashboard.chartLabel', { days: days.length, total: formatPrice(total, currency, locale) })} data-testid="revenue-chart">
      {grid.map((g) => {
        const y = PAD.top + innerH - (g / 4) * innerH;
        return (
          <g key={g}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y} y2={y} stroke="#e8dccb" strokeWidth={1} />
            <text x={PAD.left - 8} y={y + 4} textAnchor="end" fontSize={11} fill="#6b5647">{formatPrice((maxRevenue * g) / 4, currency, locale).replace(/[.,]00(?=\D*$)/, '')}</text>
            <text x={W - PAD.right + 8} y={y + 4} fontSize={11} fill="#2f6b4f">{(maxOrders * g) / 4}</text>
          </g>
        );
      })}
      {days.map((d, i) => (
        <g key={d.day}>
          <rect x={x(i) - barW / 2} y={yRevenue(d.revenueCents)} width={barW} height={Math.max(0, PAD.top + innerH - yRevenue(d.revenueCents))} rx={3} fill="#2b1a12">
            <title>{`${formatDayMonth(d.day, locale)}: ${formatPrice(d.revenueCents, currency, locale)} · ${t('admin.dashboard.ordersCount', { count: d.orders })}`}</title>
          </rect>
          {i % labelEvery === 0 && (
            <text x={x(i)} y={H - 8} textAnchor="middle" fontSize={11} fill="#6b5647">{formatDayMonth(d.day, locale)}</text>
          )}
        </g>
      ))}
      <path d={line} fill="none" stroke="#2f6b4f" strokeWidth={2} strokeLinejoin="round" />
      {days.map((d, i) => (
        <circle key={d.day} cx={x(i)} cy={yOrders(d.orders)} r={3} fill="#2f6b4f" />
      ))}
    </svg>
  );
}
