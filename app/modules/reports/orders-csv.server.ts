/**
 * The accountant's export: one row per order line of the orders paid between two shop days (inclusive), in
 * the owner's language. English files use commas and a decimal point; Polish files semicolons and a decimal
 * comma, as a spreadsheet set to that language expects; both start with a UTF-8 byte-order mark so
 * spreadsheet programs read ą, ł and € correctly. Text that a spreadsheet would run as a formula is defused.
 * Each line's status is its order's (Cancelled for a cancelled order), or Withdrawn (· refunded) for a line
 * withdrawn from, so a line that was not kept says so. An order whose customer was removed (docs/decisions/0029)
 * says "Deleted customer" or "Customer details removed (retention period ended)", as the back office does.
 */
import type { Executor } from '~/db/database.server';
import { getT, type Locale } from '~/modules/i18n/index.server';
import { orderLabel, vatPartsOf } from '~/modules/orders/index.server';
import type { VatPart } from '~/modules/tax/index.server';
import { type ShopDay, addDays, startOfShopDay } from '~/lib/shop-days';
import { withdrawnLines } from './kept.server';
import { csvFormat } from './csv-format';


export async function exportOrdersCsv(
  db: Executor,
  { from, to, timeZone, locale }: { from: ShopDay; to: ShopDay; timeZone: string; locale: Locale },
): Promise<string> {
  const t = getT(locale);
  const { separator, money, rate } = csvFormat(locale);
  const start = startOfShopDay(from, timeZone).toISOString();
  const end = startOfShopDay(addDays(to, 1), timeZone).toISOString();
  const [rows, withdrawn] = await Promise.all([
    db
      .selectFrom('orders')
      .innerJoin('order_lines', 'order_lines.order_id', 'orders.id')
      .where('orders.payment_status', '=', 'succeeded')
      .where('orders.paid_at', '>=', start)
      .where('orders.paid_at', '<', end)
      .select([
        'orders.id',
        'orders.paid_at',
        'orders.shipping_full_name',
        'orders.user_email',
        'orders.anonymised_by',
        'orders.shipping_status',
        'orders.delivery_kind',
        'orders.delivery_cents',
        'orders.delivery_point',
        'orders.currency',
        'orders.discount_code',
        'orders.delivery_discount_cents',
        'orders.delivery_tax',
        'order_lines.discount_cents',
        'order_lines.tax_rate_bp',
        'order_lines.net_cents',
        'order_lines.vat_cents',
        'order_lines.position',
        'order_lines.title',
        'order_lines.variant_label',
        'order_lines.sku',
        'order_lines.quantity',
        'order_lines.unit_price_cents',
      ])
      .orderBy('orders.paid_at')
      .orderBy('orders.id')
      .orderBy('order_lines.position')
      .execute(),
    withdrawnLines(db, start, end),
  ]);
  const withdrawnLine = new Map(withdrawn.map((line) => [`${line.orderId} ${line.position}`, line]));
  const status = (row: (typeof rows)[number]) => {
    const line = row.shipping_status === 'cancelled' ? undefined : withdrawnLine.get(`${row.id} ${row.position}`);
    return line ? (line.refunded ? 'returned' : 'withdrawn') : row.shipping_status;
  };

  // A customer the shop no longer knows is named as the back office names them, not left blank.
  const customer = (row: (typeof rows)[number]) =>
    row.anonymised_by === 'deletion' ? t('admin.customers.deletedCustomer') : row.anonymised_by === 'retention' ? t('admin.customers.detailsRemoved') : row.shipping_full_name;
  const dateTime = new Intl.DateTimeFormat('sv-SE', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const cell = (value: string) => {
    // A leading = + - @ (or a tab / carriage return) makes a spreadsheet evaluate the cell: keep it text.
    const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
    return /["\r\n]/.test(text) || text.includes(separator) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  // A line's total is what it cost: its unit price times its quantity, less its part of a code's discount.
  // Its VAT as charged: net, rate and VAT beside the gross (empty on lines from before VAT was recorded).
  const header = ['order', 'date', 'customer', 'email', 'product', 'variant', 'sku', 'quantity', 'unitPrice', 'discount', 'net', 'vatRate', 'vat', 'lineTotal', 'currency', 'code', 'status'].map((key) => t(`admin.csv.${key}`));
  const lines = [header.map(cell).join(separator)];
  const vatCells = (part: VatPart | null) => (part ? [money(part.netCents), rate(part.rateBp), money(part.vatCents)] : ['', '', '']);
  // The delivery's row, or one per rate when its goods had several (the delivery's VAT follows them).
  const deliveryRows = (row: (typeof rows)[number]) => {
    const parts = vatPartsOf(row.delivery_tax);
    if (parts.length <= 1) return [deliveryRow(row, Number(row.delivery_cents) + Number(row.delivery_discount_cents), Number(row.delivery_discount_cents), parts[0] ?? null)];
    return parts.map((part) => deliveryRow(row, part.grossCents, 0, part));
  };
  const deliveryRow = (row: (typeof rows)[number], priceCents: number, discountCents: number, part: VatPart | null) =>
    [
      cell(orderLabel(row.id)),
      cell(dateTime.format(new Date(row.paid_at!))),
      cell(customer(row)),
      cell(row.user_email),
      cell(t('delivery.delivery')),
      cell([t(`delivery.kinds.${row.delivery_kind}`), row.delivery_point ?? ''].filter(Boolean).join(' ')),
      '',
      '1',
      money(priceCents),
      money(discountCents),
      ...vatCells(part),
      money(priceCents - discountCents),
      row.currency,
      cell(Number(row.delivery_discount_cents) > 0 ? (row.discount_code ?? '') : ''),
      cell(t(`orders.status.${row.shipping_status}`)),
    ].join(separator);
  for (const [i, row] of rows.entries()) {
    lines.push(
      [
        cell(orderLabel(row.id)),
        cell(dateTime.format(new Date(row.paid_at!))),
        cell(customer(row)),
        cell(row.user_email),
        cell(row.title || t('orders.mail.unnamed')),
        cell(row.variant_label),
        cell(row.sku ?? ''),
        String(row.quantity),
        money(row.unit_price_cents),
        money(Number(row.discount_cents)),
        ...vatCells(row.tax_rate_bp === null || row.net_cents === null || row.vat_cents === null ? null : { rateBp: Number(row.tax_rate_bp), grossCents: 0, netCents: Number(row.net_cents), vatCents: Number(row.vat_cents) }),
        money(row.unit_price_cents * row.quantity - Number(row.discount_cents)),
        row.currency,
        cell(Number(row.discount_cents) > 0 ? (row.discount_code ?? '') : ''),
        cell(t(`orders.status.${status(row)}`)),
      ].join(separator),
    );
    // After an order's last line, its delivery (orders from before delivery was chosen have none).
    if (row.delivery_kind && rows[i + 1]?.id !== row.id) lines.push(...deliveryRows(row));
  }
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
