/**
 * Everything the shop holds about a customer, as one JSON document (GDPR art. 15 and 20; docs/decisions/0029).
 *
 * Who is a customer: an account, and what is linked to it (its orders, reviews, and what it asked for while
 * signed in). Records kept only under an email address — a guest's orders, a message sent signed out — are
 * included only when the owner exports by email (`byEmail`): sign-up does not prove an address, so a customer's
 * own download never hands out what someone else wrote under the same address.
 */
import { sql } from 'kysely';
import type { Executor } from '~/db/database.server';

export type ExportSubject = {
  /** The account, if there is one. */
  userId: string | null;
  /** The address records are kept under; with `byEmail`, also what was kept under it without an account. */
  email: string | null;
  byEmail: boolean;
};

export type CustomerData = Awaited<ReturnType<typeof exportCustomerData>>;

const parse = (value: string | null) => {
  if (value === null) return null;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
};

export async function exportCustomerData(db: Executor, subject: ExportSubject, now = new Date()) {
  const { userId } = subject;
  const email = subject.email?.trim().toLowerCase() ?? null;
  const byEmail = subject.byEmail && email !== null;
  const none = sql<boolean>`1 = 0`;
  const byUser = (column: 'user_id' | 'stock_alerts.user_id') => (userId ? sql<boolean>`${sql.ref(column)} = ${userId}` : none);
  const byAddress = (column: string) => (byEmail ? sql<boolean>`lower(${sql.ref(column)}) = ${email}` : none);
  const either = (column: 'user_id' | 'stock_alerts.user_id', emailColumn: string) => sql<boolean>`(${byUser(column)} or ${byAddress(emailColumn)})`;

  const user = userId
    ? await db.selectFrom('users').select(['id', 'email', 'display_name', 'password_hash', 'photo_url', 'created_at', 'updated_at']).where('id', '=', userId).executeTakeFirst()
    : undefined;
  const identities = userId ? await db.selectFrom('user_identities').select(['provider', 'email', 'created_at']).where('user_id', '=', userId).execute() : [];
  const profile = userId ? await db.selectFrom('profiles').selectAll().where('user_id', '=', userId).executeTakeFirst() : undefined;
  const sessions = userId ? await db.selectFrom('sessions').select(['created_at', 'last_seen_at', 'expires_at']).where('user_id', '=', userId).orderBy('created_at').execute() : [];
  const cartLines = userId
    ? await db
        .selectFrom('carts')
        .innerJoin('cart_lines', 'cart_lines.cart_id', 'carts.id')
        .leftJoin('variants', 'variants.id', 'cart_lines.variant_id')
        .select(['variants.sku', 'variants.product_id', 'cart_lines.quantity', 'cart_lines.added_at', 'carts.discount_code'])
        .where('carts.user_id', '=', userId)
        .execute()
    : [];

  const orders = await db.selectFrom('orders').selectAll().where(either('user_id', 'user_email')).orderBy('created_at').execute();
  // Never an empty `in ()`: a customer without orders gets the ids of none.
  const orderIds = orders.length > 0 ? orders.map((o) => o.id) : [''];
  const lines = await db.selectFrom('order_lines').selectAll().where('order_id', 'in', orderIds).orderBy('order_id').orderBy('position').execute();
  const refunds = await db.selectFrom('refunds').select(['order_id', 'amount_cents', 'vat_cents', 'status', 'created_at', 'confirmed_at']).where('order_id', 'in', orderIds).orderBy('created_at').execute();
  const invoices = await db.selectFrom('invoices').select(['order_id', 'number', 'kind', 'issued_at', 'currency', 'gross_cents', 'vat_cents']).where('order_id', 'in', orderIds).orderBy('issued_at').execute();
  const withdrawals = await db
    .selectFrom('withdrawals')
    .select(['order_id', 'name', 'email', 'lines', 'reason', 'created_at', 'refunded_cents', 'refunded_at'])
    .where('order_id', 'in', orderIds)
    .orderBy('created_at')
    .execute();

  const reviews = userId
    ? await db.selectFrom('reviews').select(['product_id', 'order_id', 'rating', 'body', 'author_name', 'locale', 'created_at', 'updated_at', 'reply', 'hidden_reason']).where('user_id', '=', userId).orderBy('created_at').execute()
    : [];
  const messages = await db
    .selectFrom('contact_messages')
    .select(['name', 'email', 'subject', 'message', 'locale', 'created_at', 'handled_at'])
    .where(either('user_id', 'email'))
    .orderBy('created_at')
    .execute();
  const alerts = await db
    .selectFrom('stock_alerts')
    .leftJoin('variants', 'variants.id', 'stock_alerts.variant_id')
    .select(['variants.sku', 'variants.product_id', 'stock_alerts.email', 'stock_alerts.locale', 'stock_alerts.created_at', 'stock_alerts.notified_at'])
    .where(either('stock_alerts.user_id', 'stock_alerts.email'))
    .orderBy('stock_alerts.created_at')
    .execute();
  const consents = userId ? await db.selectFrom('consents').select(['visitor_id', 'analytics', 'version', 'created_at']).where('user_id', '=', userId).orderBy('created_at').execute() : [];
  const events = userId ? await db.selectFrom('analytics_events').select(['name', 'path', 'props', 'created_at']).where('user_id', '=', userId).orderBy('created_at').execute() : [];
  // Mail goes to an address, not an account: only the owner's export (who checked who asks) lists it.
  const mails = byEmail ? await db.selectFrom('mail_outbox').select(['subject', 'status', 'created_at', 'sent_at']).where(sql<string>`lower(to_address)`, '=', email).orderBy('created_at').execute() : [];

  const linesOf = (orderId: string) => lines.filter((l) => l.order_id === orderId);
  const data = {
    exportedAt: now.toISOString(),
    account: user
      ? {
          id: user.id,
          email: user.email,
          name: user.display_name,
          photoUrl: user.photo_url,
          createdAt: user.created_at,
          updatedAt: user.updated_at,
          signInMethods: [...(user.password_hash ? [{ method: 'password' }] : []), ...identities.map((i) => ({ method: 'openid', provider: i.provider, email: i.email, linkedAt: i.created_at }))],
        }
      : null,
    profile: profile
      ? {
          billing: { fullName: profile.full_name, address: profile.address, city: profile.city, zipCode: profile.zip_code, country: profile.country },
          delivery: { address: profile.delivery_address, city: profile.delivery_city, zipCode: profile.delivery_zip_code },
          phone: profile.phone,
          paymentPreference: profile.payment_method,
          updatedAt: profile.updated_at,
        }
      : null,
    sessions: sessions.map((s) => ({ signedInAt: s.created_at, lastSeenAt: s.last_seen_at, expiresAt: s.expires_at })),
    cart: cartLines.map((l) => ({ sku: l.sku, productId: l.product_id, quantity: Number(l.quantity), addedAt: l.added_at, discountCode: l.discount_code })),
    orders: orders.map((o) => ({
      id: o.id,
      createdAt: o.created_at,
      paidAt: o.paid_at,
      payment: o.payment_status,
      shipping: o.shipping_status,
      currency: o.currency,
      totalCents: Number(o.total_cents),
      goodsCents: Number(o.goods_cents),
      deliveryCents: Number(o.delivery_cents),
      discountCode: o.discount_code,
      discountCents: Number(o.discount_cents),
      vatCents: Number(o.vat_cents),
      refundedCents: Number(o.refunded_cents),
      email: o.user_email,
      shipTo: { fullName: o.shipping_full_name, address: o.shipping_address, city: o.shipping_city, zipCode: o.shipping_zip_code, country: o.delivery_country, phone: o.shipping_phone },
      delivery: { kind: o.delivery_kind, point: o.delivery_point, pointAddress: o.delivery_point_address, carrier: o.carrier, trackingNumber: o.tracking_number, shippedAt: o.shipped_at, deliveredAt: o.delivered_at },
      taxCountry: o.tax_country,
      invoiceBuyer: parse(o.invoice_buyer),
      cancelledAt: o.cancelled_at,
      anonymisedAt: o.anonymised_at,
      lines: linesOf(o.id).map((l) => ({
        productId: l.product_id,
        title: l.title,
        variant: l.variant_label,
        sku: l.sku,
        quantity: Number(l.quantity),
        unitPriceCents: Number(l.unit_price_cents),
        discountCents: Number(l.discount_cents),
        vatRateBp: l.tax_rate_bp === null ? null : Number(l.tax_rate_bp),
        vatCents: l.vat_cents === null ? null : Number(l.vat_cents),
      })),
      refunds: refunds.filter((r) => r.order_id === o.id).map((r) => ({ amountCents: Number(r.amount_cents), vatCents: Number(r.vat_cents), status: r.status, createdAt: r.created_at, confirmedAt: r.confirmed_at })),
    })),
    invoices: invoices.map((i) => ({ number: i.number, kind: i.kind, orderId: i.order_id, issuedAt: i.issued_at, currency: i.currency, grossCents: Number(i.gross_cents), vatCents: Number(i.vat_cents) })),
    withdrawals: withdrawals.map((w) => ({ orderId: w.order_id, name: w.name, email: w.email, lines: parse(w.lines), reason: w.reason, createdAt: w.created_at, refundedCents: w.refunded_cents === null ? null : Number(w.refunded_cents), refundedAt: w.refunded_at })),
    reviews: reviews.map((r) => ({ productId: r.product_id, orderId: r.order_id, rating: Number(r.rating), body: r.body, signedAs: r.author_name, language: r.locale, createdAt: r.created_at, updatedAt: r.updated_at, shopReply: r.reply, hidden: r.hidden_reason })),
    messages: messages.map((m) => ({ name: m.name, email: m.email, subject: m.subject, message: m.message, language: m.locale, sentAt: m.created_at, handledAt: m.handled_at })),
    backInStock: alerts.map((a) => ({ sku: a.sku, productId: a.product_id, email: a.email, language: a.locale, askedAt: a.created_at, notifiedAt: a.notified_at })),
    consents: consents.map((c) => ({ statistics: Number(c.analytics) === 1, bannerVersion: c.version, visitorId: c.visitor_id, at: c.created_at })),
    analyticsEvents: events.map((e) => ({ name: e.name, path: e.path, props: parse(e.props), at: e.created_at })),
    mails: mails.map((m) => ({ subject: m.subject, status: m.status, queuedAt: m.created_at, sentAt: m.sent_at })),
  };
  return { ...data, summary: summarise(data) };
}

export type Summary = Record<'orders' | 'invoices' | 'reviews' | 'messages' | 'withdrawals' | 'backInStock' | 'consents' | 'analyticsEvents' | 'mails' | 'sessions' | 'cart', number>;

/** How many of each kind: the readable summary shown beside the download, and kept in the file. */
function summarise(data: { [K in keyof Summary]: unknown[] }): Summary {
  return Object.fromEntries(Object.entries(data).filter(([, v]) => Array.isArray(v)).map(([k, v]) => [k, (v as unknown[]).length])) as Summary;
}

/** The download's file name: kopi-data-2026-11-28.json */
export const exportFileName = (now = new Date()) => `kopi-data-${now.toISOString().slice(0, 10)}.json`;

/**
 * How many of each kind a customer's own download holds, by counting (the profile's data tab shows these on
 * every visit; the download itself is counted against the limit).
 */
export async function countCustomerData(db: Executor, userId: string): Promise<Summary> {
  const count = async (query: { executeTakeFirstOrThrow: () => Promise<{ n: number | string | bigint }> }) => Number((await query.executeTakeFirstOrThrow()).n);
  const ofOrders = db.selectFrom('orders').select('id').where('user_id', '=', userId);
  const [orders, invoices, reviews, messages, withdrawals, backInStock, consents, analyticsEvents, sessions, cart] = await Promise.all([
    count(db.selectFrom('orders').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId)),
    count(db.selectFrom('invoices').select((eb) => eb.fn.countAll<number>().as('n')).where('order_id', 'in', ofOrders)),
    count(db.selectFrom('reviews').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId)),
    count(db.selectFrom('contact_messages').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId)),
    count(db.selectFrom('withdrawals').select((eb) => eb.fn.countAll<number>().as('n')).where('order_id', 'in', ofOrders)),
    count(db.selectFrom('stock_alerts').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId)),
    count(db.selectFrom('consents').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId)),
    count(db.selectFrom('analytics_events').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId)),
    count(db.selectFrom('sessions').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId)),
    count(db.selectFrom('cart_lines').innerJoin('carts', 'carts.id', 'cart_lines.cart_id').select((eb) => eb.fn.countAll<number>().as('n')).where('carts.user_id', '=', userId)),
  ]);
  return { orders, invoices, reviews, messages, withdrawals, backInStock, consents, analyticsEvents, mails: 0, sessions, cart };
}
