/**
 * The retention job (docs/decisions/0029) on SQLite and PostgreSQL, with the clock moved: each record just past
 * its period goes (or loses what is about the person), each just inside stays, and nothing else changes; a
 * second run finds nothing to do; of two nodes running at once only one does the day's work.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '~/db/database.server';
import type { Database } from '~/db/schema';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { defaultVariantOf } from '~/modules/cart/index.server';
import { type Shipx, shipmentLabel } from '~/modules/fulfilment/index.server';
import { createCoffee, createUser } from '../../../tests/fixtures/shop';
import { DEFAULT_RETENTION, type RetentionReport, applyRetention, runDailyRetention } from './index.server';

const DAY = 24 * 60 * 60_000;
const NOW = new Date('2026-06-01T12:00:00.000Z');
const AT = NOW.toISOString();
const daysAgo = (days: number, from = NOW) => new Date(from.getTime() - days * DAY).toISOString();
const retention = { ...DEFAULT_RETENTION, taxYears: 5 };
const nothing: RetentionReport = { sessions: 0, resetTokens: 0, carts: 0, unpaidOrders: 0, analyticsEvents: 0, consents: 0, messages: 0, mailBodies: 0, mailRecords: 0, orders: 0, invoices: 0 };

/** The tables the job touches, each with how its rows are told apart. */
const tables = {
  sessions: (r) => r.id,
  password_reset_tokens: (r) => r.id,
  carts: (r) => r.id,
  cart_lines: (r) => r.cart_id,
  orders: (r) => r.id,
  withdrawals: (r) => r.id,
  discount_code_uses: (r) => r.order_id,
  invoices: (r) => r.id,
  analytics_events: (r) => r.id,
  consents: (r) => r.id,
  contact_messages: (r) => r.id,
  mail_outbox: (r) => r.id,
  users: (r) => r.id,
  activity_log: (r) => r.id,
} satisfies { [T in keyof Database]?: (row: Record<string, unknown>) => unknown };
type Dump = Record<string, Map<string, Record<string, unknown>>>;

describe.each(testDatabases())('the retention job on %s', (_kind, open) => {
  let handle: TestDatabase;
  let db: DB;
  let userId = '';
  let variantId = '';

  beforeAll(async () => {
    handle = await open();
    db = handle.db;
    userId = (await createUser(db, 'ola@example.test')).id;
    variantId = (await defaultVariantOf(db, await createCoffee(db, 'Gayo', 1250)))!;
  });
  afterAll(() => handle.close());

  async function dump(): Promise<Dump> {
    const all: Dump = {};
    for (const [table, key] of Object.entries(tables)) {
      const rows = (await db.selectFrom(table as keyof Database).selectAll().execute()) as Record<string, unknown>[];
      all[table] = new Map(rows.map((row) => [String((key as (r: Record<string, unknown>) => unknown)(row)), row]));
    }
    return all;
  }

  /** What changed between two dumps: rows gone, rows added, and each changed row's new values. */
  function diff(before: Dump, after: Dump) {
    const removed: string[] = [];
    const added: string[] = [];
    const changed: Record<string, Record<string, unknown>> = {};
    for (const table of Object.keys(tables)) {
      for (const [id, row] of before[table]!) {
        const now = after[table]!.get(id);
        if (!now) {
          removed.push(`${table}:${id}`);
          continue;
        }
        const columns = Object.keys(row).filter((c) => row[c] !== now[c]);
        if (columns.length > 0) changed[`${table}:${id}`] = Object.fromEntries(columns.map((c) => [c, now[c]]));
      }
      for (const id of after[table]!.keys()) if (!before[table]!.has(id)) added.push(`${table}:${id}`);
    }
    return { removed: removed.sort(), added, changed };
  }

  // --- seeding ---------------------------------------------------------------------------------------

  /** An order with everything about its customer filled in. */
  async function order(id: string, o: { createdAt: string; paidAt?: string | null; taxCountry?: string; guest?: boolean; shipped?: boolean }, into: DB = db) {
    const paid = o.paidAt !== undefined && o.paidAt !== null;
    await into
      .insertInto('orders')
      .values({
        id,
        user_id: o.guest ? null : userId,
        user_email: `buyer.${id}@example.test`,
        locale: 'pl',
        cart_id: null,
        total_cents: 2500,
        currency: 'EUR',
        payment_provider: 'test',
        payment_intent_id: `tp_${id}`,
        payment_client_secret: `secret_${id}`,
        cart_fingerprint: `fp-${id}`,
        payment_status: paid ? 'succeeded' : 'pending',
        shipping_status: paid ? 'delivered' : 'processing',
        shipping_full_name: 'Ola Nowak',
        shipping_address: 'ul. Kwiatowa 5',
        shipping_city: 'Kraków',
        shipping_zip_code: '30-001',
        shipping_phone: '+48 600 100 200',
        created_at: o.createdAt,
        paid_at: paid ? o.paidAt! : null,
        visitor_id: `v-${id}`,
        carrier: o.shipped ? 'inpost' : null,
        tracking_number: o.shipped ? '6200123456789' : null,
        shipped_at: o.shipped ? o.createdAt : null,
        delivered_at: o.shipped ? o.createdAt : null,
        cancelled_at: null,
        stock_short_at: null,
        goods_cents: 2500,
        vat_cents: 467,
        delivery_kind: 'courier',
        delivery_method_id: 'method-pl-courier',
        delivery_country: o.taxCountry ?? 'PL',
        delivery_point: null,
        delivery_point_address: null,
        shipment_id: o.shipped ? `shp-${id}` : null,
        shipment_size: o.shipped ? 'small' : null,
        shipment_started_at: null,
        guest_key: o.guest ? `key-${id}` : null,
        tax_country: paid ? (o.taxCountry ?? 'PL') : null,
        delivery_tax: null,
        invoice_buyer: paid ? JSON.stringify({ name: 'Kawiarnia', taxId: '7250018200' }) : null,
      })
      .execute();
    await into.insertInto('order_lines').values({ order_id: id, position: 0, product_id: 'p', title: 'Gayo', unit_price_cents: 2500, quantity: 1, image: null, variant_id: null, sku: null, net_weight_grams: null, batches: null, tax_rate_bp: 2300, net_cents: 2033, vat_cents: 467 }).execute();
  }

  let invoiceSeq = 0;
  async function invoice(id: string, orderId: string, issuedAt: string, into: DB = db) {
    invoiceSeq += 1;
    const year = Number(issuedAt.slice(0, 4));
    await into
      .insertInto('invoices')
      .values({
        id,
        number: `FV/${year}/${String(invoiceSeq).padStart(5, '0')}`,
        series: 'FV',
        year,
        seq: invoiceSeq,
        order_id: orderId,
        kind: 'invoice',
        corrects_id: null,
        refund_id: null,
        locale: 'pl',
        currency: 'EUR',
        issued_at: issuedAt,
        sale_date: issuedAt.slice(0, 10),
        seller: '{"name":"Kopi"}',
        buyer: '{"name":"Kawiarnia","taxId":"7250018200"}',
        lines: '[]',
        totals: '{}',
        payment: '{}',
        gross_cents: 2500,
        vat_cents: 467,
        pdf: 'JVBERi0=',
        ksef_xml: '<Faktura/>',
        ksef_number: null,
        created_by: null,
        created_at: issuedAt,
      })
      .execute();
  }

  const cart = (id: string, updatedAt: string, owner: string | null = null) =>
    db.insertInto('carts').values({ id, user_id: owner, created_at: updatedAt, updated_at: updatedAt }).execute();
  const event = (id: string, createdAt: string) =>
    db.insertInto('analytics_events').values({ id, name: 'page_view', props: '{"page_path":"/"}', path: '/', visitor_id: `v-${id}`, user_id: userId, created_at: createdAt }).execute();
  const consent = (id: string, createdAt: string) =>
    db.insertInto('consents').values({ id, visitor_id: `v-${id}`, user_id: userId, analytics: 1, version: '2025-01-01', created_at: createdAt }).execute();
  const message = (id: string, createdAt: string, handledAt: string | null) =>
    db.insertInto('contact_messages').values({ id, name: 'Ola', email: 'ola@example.test', subject: 'Hello', message: 'Which grind?', locale: 'pl', created_at: createdAt, handled_at: handledAt, handled_by: handledAt ? 'owner' : null }).execute();
  const mail = (id: string, status: 'sent' | 'queued', at: string, body = 'Your order, ul. Kwiatowa 5', lastError: string | null = null) =>
    db
      .insertInto('mail_outbox')
      .values({ id, to_address: 'ola@example.test', subject: 'Your order', text_body: body, html_body: body ? `<p>${body}</p>` : null, reply_to: null, status, next_attempt_at: at, last_error: lastError, created_at: at, sent_at: status === 'sent' ? at : null, claim_token: null, attachments: body ? '[{"filename":"a.pdf","contentType":"application/pdf","base64":"JVBERi0="}]' : null })
      .execute();

  /** What anonymising leaves of an order seeded by `order`. */
  const anonymised = (o: { guest?: boolean; shipped?: boolean; paid?: boolean } = {}) => ({
    user_email: '',
    shipping_full_name: '',
    shipping_address: '',
    shipping_city: '',
    shipping_zip_code: '',
    shipping_phone: '',
    visitor_id: null,
    payment_client_secret: null,
    ...(o.paid ? { invoice_buyer: null } : {}),
    ...(o.guest ? { guest_key: null } : {}),
    ...(o.shipped ? { tracking_number: null } : {}),
    anonymised_at: AT,
    anonymised_by: 'retention',
  });
  const purged = { pdf: null, ksef_xml: null, buyer: '{}', purged_at: AT };
  /** An entry of the owner's log about an order, as shipping writes them. */
  const logged = (id: string, orderId: string, action: string, details: Record<string, unknown>) =>
    db.insertInto('activity_log').values({ id, actor_id: null, actor_email: 'owner@kopi.test', action, subject_type: 'order', subject_id: orderId, subject_label: orderId, details: JSON.stringify(details), created_at: AT }).execute();
  /** ShipX for the label alone: it answers with a PDF and remembers which shipments were asked for. */
  const labels = (asked: string[]) => ({ label: async (shipmentId: string) => (asked.push(shipmentId), { ok: true as const, value: new TextEncoder().encode('%PDF-').buffer as ArrayBuffer }) }) as unknown as Shipx;

  it('removes what is past its period and keeps what is just inside it, and nothing else; a second run does nothing', async () => {
    // Sessions and reset links: expired ones go (a reset link a day after it expired).
    await db.insertInto('sessions').values({ id: 'session-expired', user_id: userId, created_at: daysAgo(31), expires_at: daysAgo(1), last_seen_at: daysAgo(2) }).execute();
    await db.insertInto('sessions').values({ id: 'session-live', user_id: userId, created_at: daysAgo(1), expires_at: daysAgo(-29), last_seen_at: AT }).execute();
    await db.insertInto('password_reset_tokens').values({ id: 'reset-2d', user_id: userId, created_at: daysAgo(2.1), expires_at: daysAgo(2), used_at: null }).execute();
    await db.insertInto('password_reset_tokens').values({ id: 'reset-1h', user_id: userId, created_at: daysAgo(2 / 24), expires_at: daysAgo(1 / 24), used_at: null }).execute();
    // Carts: a guest's untouched for 60 days goes, lines and all; a customer's stays however old.
    await cart('cart-guest-61d', daysAgo(61));
    await db.insertInto('cart_lines').values({ cart_id: 'cart-guest-61d', variant_id: variantId, quantity: 1, added_at: daysAgo(61) }).execute();
    await cart('cart-guest-59d', daysAgo(59));
    await cart('cart-customer-400d', daysAgo(400), userId);
    // A checkout never paid: after 60 days nobody needs to know who tried, nor the address the code was typed with.
    await order('unpaid-61d', { createdAt: daysAgo(61), guest: true });
    await db.insertInto('discount_code_uses').values({ order_id: 'unpaid-61d', code_id: 'code-1', customer: 'email:buyer.unpaid-61d@example.test', email: 'buyer.unpaid-61d@example.test', status: 'released', expires_at: daysAgo(61), created_at: daysAgo(61) }).execute();
    await order('unpaid-59d', { createdAt: daysAgo(59) });
    // Statistics and the consents behind them: 13 months.
    await event('event-13m1d', '2025-04-30T12:00:00.000Z');
    await event('event-12m', '2025-06-01T12:00:00.000Z');
    await consent('consent-13m1d', '2025-04-30T12:00:00.000Z');
    await consent('consent-12m', '2025-06-01T12:00:00.000Z');
    // A visitor still counted: their last choice stays however old (the proof behind their events); an older, replaced one goes.
    await db.insertInto('analytics_events').values({ id: 'event-active-10d', name: 'page_view', props: '{"page_path":"/"}', path: '/', visitor_id: 'v-active', user_id: null, created_at: daysAgo(10) }).execute();
    await db.insertInto('consents').values({ id: 'consent-active-replaced', visitor_id: 'v-active', user_id: null, analytics: 0, version: '2025-01-01', created_at: '2025-03-01T12:00:00.000Z' }).execute();
    await db.insertInto('consents').values({ id: 'consent-active-latest', visitor_id: 'v-active', user_id: null, analytics: 1, version: '2025-01-01', created_at: '2025-04-01T12:00:00.000Z' }).execute();
    // Messages: a year after they were handled; an unread one stays, however old.
    await message('message-handled-366d', daysAgo(370), daysAgo(366));
    await message('message-handled-364d', daysAgo(370), daysAgo(364));
    await message('message-unread-2y', daysAgo(730), null);
    // Mail: the text 30 days after it was sent, the record after a year (its text long gone); queued mail waits.
    // (Its last delivery error, from a version that kept one after sending, names the recipient.)
    await mail('mail-sent-31d', 'sent', daysAgo(31), undefined, 'EENVELOPE: 452 <o…@example.test>: mailbox full');
    await mail('mail-sent-29d', 'sent', daysAgo(29));
    await mail('mail-sent-366d', 'sent', daysAgo(366), '');
    await mail('mail-queued-40d', 'queued', daysAgo(40));
    // Paid orders: 5 years from the end of the year their VAT fell due — November 2020's (due in December) may go in
    // 2026; December 2020's is due in January 2021, so it waits for 2027, as 2021's do; OSS sales 10 years.
    await order('paid-pl-2020-11', { createdAt: '2020-11-30T09:00:00.000Z', paidAt: '2020-11-30T10:00:00.000Z', shipped: true });
    await order('paid-pl-2020-12', { createdAt: '2020-12-30T10:00:00.000Z', paidAt: '2020-12-31T10:00:00.000Z', shipped: true });
    await db
      .insertInto('withdrawals')
      .values({ id: 'withdrawal-2020', order_id: 'paid-pl-2020-11', name: 'Ola Nowak', email: 'ola@example.test', lines: '[]', reason: 'Too strong', locale: 'pl', created_at: '2021-01-05T10:00:00.000Z', refunded_cents: null, refunded_at: null })
      .execute();
    await order('paid-pl-2021', { createdAt: '2021-01-02T09:00:00.000Z', paidAt: '2021-01-02T10:00:00.000Z', shipped: true });
    await order('paid-de-2019', { createdAt: '2019-06-01T10:00:00.000Z', paidAt: '2019-06-01T10:00:00.000Z', taxCountry: 'DE', shipped: true });
    await order('paid-de-2015', { createdAt: '2015-06-01T10:00:00.000Z', paidAt: '2015-06-01T10:00:00.000Z', taxCountry: 'DE', shipped: true });
    await order('paid-recent', { createdAt: daysAgo(3), paidAt: daysAgo(3) });
    // Invoices: the same rule by the day of issue (a correction changes the VAT of its month); OSS sales' are kept 10 years.
    await invoice('invoice-2020-11', 'paid-pl-2020-11', '2020-11-30T10:00:00.000Z');
    await invoice('invoice-2020-12', 'paid-pl-2020-12', '2020-12-31T10:00:00.000Z');
    await invoice('invoice-2021', 'paid-pl-2021', '2021-01-02T10:00:00.000Z');
    await invoice('invoice-de-2019', 'paid-de-2019', '2019-06-01T10:00:00.000Z');
    await invoice('invoice-de-2015', 'paid-de-2015', '2015-06-01T10:00:00.000Z');
    // The owner's log of their shipping: an order that goes loses its InPost shipment and tracking number there too.
    await logged('log-shipment-2020-11', 'paid-pl-2020-11', 'order.shipment', { shipmentId: 'shp-paid-pl-2020-11', size: 'small', service: 'courier' });
    await logged('log-shipped-2020-11', 'paid-pl-2020-11', 'order.shipped', { from: 'processing', to: 'shipped', carrier: 'inpost', trackingNumber: '6200123456789' });
    await logged('log-delivered-2020-11', 'paid-pl-2020-11', 'order.delivered', { from: 'shipped', to: 'delivered', deliveredAt: '2020-12-02T10:00:00.000Z' });
    await logged('log-shipped-2020-12', 'paid-pl-2020-12', 'order.shipped', { from: 'processing', to: 'shipped', carrier: 'inpost', trackingNumber: '6200123456780' });

    const before = await dump();
    const report = await applyRetention(db, retention, NOW);
    expect(report).toEqual({ sessions: 1, resetTokens: 1, carts: 1, unpaidOrders: 1, analyticsEvents: 1, consents: 2, messages: 1, mailBodies: 1, mailRecords: 1, orders: 2, invoices: 2 });
    const after = await dump();
    expect(diff(before, after)).toEqual({
      removed: [
        'analytics_events:event-13m1d',
        'cart_lines:cart-guest-61d',
        'carts:cart-guest-61d',
        'consents:consent-13m1d',
        'consents:consent-active-replaced',
        'contact_messages:message-handled-366d',
        'mail_outbox:mail-sent-366d',
        'password_reset_tokens:reset-2d',
        'sessions:session-expired',
      ],
      added: [],
      changed: {
        'orders:unpaid-61d': anonymised({ guest: true }),
        'discount_code_uses:unpaid-61d': { email: '', customer: '' },
        'orders:paid-pl-2020-11': anonymised({ paid: true, shipped: true }),
        'withdrawals:withdrawal-2020': { name: '', email: '', reason: null },
        'orders:paid-de-2015': anonymised({ paid: true, shipped: true }),
        'invoices:invoice-2020-11': purged,
        'invoices:invoice-de-2015': purged,
        'mail_outbox:mail-sent-31d': { text_body: '', html_body: null, attachments: null, last_error: null },
        'activity_log:log-shipment-2020-11': { details: JSON.stringify({ size: 'small', service: 'courier' }) },
        'activity_log:log-shipped-2020-11': { details: JSON.stringify({ from: 'processing', to: 'shipped', carrier: 'inpost' }) },
      },
    });
    // What tax law needs of an anonymised order stays: its amounts, VAT, dates and countries, and its lines.
    expect(after.orders!.get('paid-pl-2020-11')).toMatchObject({ total_cents: 2500, vat_cents: 467, paid_at: '2020-11-30T10:00:00.000Z', tax_country: 'PL', delivery_country: 'PL' });
    expect(await db.selectFrom('order_lines').select(['title', 'vat_cents']).where('order_id', '=', 'paid-pl-2020-11').execute()).toEqual([{ title: 'Gayo', vat_cents: 467 }]);
    expect(after.invoices!.get('invoice-2020-11')).toMatchObject({ number: before.invoices!.get('invoice-2020-11')!.number, gross_cents: 2500, vat_cents: 467 });
    // Its InPost shipment id stays (what was sent), but its label — the person's name, address and phone, kept by
    // InPost — is no longer fetched; a kept order's still is.
    const asked: string[] = [];
    expect(await shipmentLabel({ db, shipx: labels(asked) }, 'paid-pl-2020-11')).toEqual({ ok: false, reason: 'anonymised' });
    expect(await shipmentLabel({ db, shipx: labels(asked) }, 'paid-pl-2020-12')).toMatchObject({ ok: true });
    expect(asked).toEqual(['shp-paid-pl-2020-12']);

    // Run again (a node that retried, or tomorrow's run on the same data): nothing left to do.
    expect(await applyRetention(db, retention, NOW)).toEqual(nothing);
    expect(diff(after, await dump())).toEqual({ removed: [], added: [], changed: {} });
  });

  it('counts from the year the VAT fell due: a sale paid on 31 December (Warsaw) is kept a year longer than one paid on 30 November', async () => {
    // A database of its own: the clock moves across two New Years.
    const fresh = await open();
    const at = fresh.db;
    try {
      await order('paid-30-nov', { createdAt: '2020-11-30T10:00:00.000Z', paidAt: '2020-11-30T10:00:00.000Z', guest: true }, at);
      await invoice('invoice-30-nov', 'paid-30-nov', '2020-11-30T10:00:00.000Z', at);
      await order('paid-31-dec', { createdAt: '2020-12-31T10:00:00.000Z', paidAt: '2020-12-31T10:00:00.000Z', guest: true }, at);
      await invoice('invoice-31-dec', 'paid-31-dec', '2020-12-31T10:00:00.000Z', at);
      // 23:30 UTC on 30 November is 00:30 on 1 December in Warsaw: December's VAT, due in January.
      await order('paid-1-dec-warsaw', { createdAt: '2020-11-30T23:30:00.000Z', paidAt: '2020-11-30T23:30:00.000Z', guest: true }, at);
      const gone = async () => ({
        orders: (await at.selectFrom('orders').select('id').where('anonymised_at', 'is not', null).orderBy('id').execute()).map((o) => o.id),
        invoices: (await at.selectFrom('invoices').select('id').where('purged_at', 'is not', null).orderBy('id').execute()).map((i) => i.id),
      });
      const run = (iso: string) => applyRetention(at, retention, new Date(iso));

      // 23:59 on 31 December 2025 in Warsaw: everything is kept.
      expect(await run('2025-12-31T22:59:00.000Z')).toMatchObject({ orders: 0, invoices: 0 });
      // 1 January 2026 in Warsaw: November's sale (VAT due in December 2020) has had its 5 years.
      expect(await run('2025-12-31T23:00:00.000Z')).toMatchObject({ orders: 1, invoices: 1 });
      expect(await gone()).toEqual({ orders: ['paid-30-nov'], invoices: ['invoice-30-nov'] });
      // December's (due in January 2021) stay through 2026 …
      expect(await run('2026-12-31T22:59:00.000Z')).toMatchObject({ orders: 0, invoices: 0 });
      // … and go a year after November's.
      expect(await run('2026-12-31T23:00:00.000Z')).toMatchObject({ orders: 2, invoices: 1 });
      expect(await gone()).toEqual({ orders: ['paid-1-dec-warsaw', 'paid-30-nov', 'paid-31-dec'], invoices: ['invoice-30-nov', 'invoice-31-dec'] });
    } finally {
      await fresh.close();
    }
  });

  it('runs on one node a day: of two at once one does the work, the same day again nobody, the next day one again', async () => {
    // A database of its own: the first test's records would come due on these days too.
    const fresh = await open();
    const nodes = fresh.db;
    try {
      const day = new Date('2026-07-01T03:00:00.000Z');
      const guestCart = (id: string) => nodes.insertInto('carts').values({ id, user_id: null, created_at: daysAgo(90, day), updated_at: daysAgo(90, day) }).execute();
      // Something due, so the one report that did the work can be told from a run that found nothing.
      await guestCart('cart-guest-old');

      // Two nodes at once (on PostgreSQL each query takes its own connection from the pool).
      const both = await Promise.all([runDailyRetention(nodes, retention, { now: day }), runDailyRetention(nodes, retention, { now: day })]);
      expect(both.filter((r) => r === null)).toHaveLength(1);
      expect(both.filter((r) => r !== null)).toEqual([{ ...nothing, carts: 1 }]);
      expect(await nodes.selectFrom('carts').select('id').execute()).toEqual([]);
      const run = await nodes.selectFrom('job_runs').selectAll().executeTakeFirstOrThrow();
      expect(run).toMatchObject({ name: 'retention', day: '2026-07-01', started_at: expect.any(String), finished_at: expect.any(String) });
      expect(JSON.parse(run.result!)).toEqual({ ...nothing, carts: 1 });

      // Later the same day (UTC), on any node: already done. A node whose clock lags a day does nothing either.
      await guestCart('cart-guest-old-2');
      expect(await runDailyRetention(nodes, retention, { now: new Date('2026-07-01T23:59:59.000Z') })).toBeNull();
      expect(await runDailyRetention(nodes, retention, { now: new Date('2026-06-30T12:00:00.000Z') })).toBeNull();
      expect(await nodes.selectFrom('carts').select('id').execute()).toEqual([{ id: 'cart-guest-old-2' }]);

      // The next day: one run again, of three nodes.
      const next = await Promise.all([1, 2, 3].map(() => runDailyRetention(nodes, retention, { now: new Date('2026-07-02T00:00:01.000Z') })));
      expect(next.filter((r) => r !== null)).toEqual([{ ...nothing, carts: 1 }]);
      expect(await nodes.selectFrom('carts').select('id').execute()).toEqual([]);
      expect(await nodes.selectFrom('job_runs').select(['day', 'result']).execute()).toEqual([{ day: '2026-07-02', result: JSON.stringify({ ...nothing, carts: 1 }) }]);
    } finally {
      await fresh.close();
    }
  });
});
