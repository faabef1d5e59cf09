/**
 * The back-office routes' own answers, beside the journeys: every loader and action sends a non-admin home
 * before reading anything, and a storage or database failure becomes the spec's message, never a 500.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { DB } from '~/db/database.server';
import { routeArgs } from '~/http/test-args';
import { getT } from '~/modules/i18n/index.server';
import { nullStorage } from '~/modules/storage/null-storage';
import * as activity from './activity';
import * as customers from './customers';
import * as customerData from './customer-data';
import * as addProduct from './add-product';
import * as dashboard from './dashboard';
import * as invoices from './invoices';
import * as invoiceUpo from './invoice-upo';
import * as layout from './layout';
import * as messages from './messages';
import * as ordersExport from './orders-export';
import * as deleteProduct from './delete-product';
import * as editProduct from './edit-product';
import * as order from './order';
import * as orderLabel from './order-label';
import * as orders from './orders';
import * as products from './products';
import * as reviews from './reviews';

const en = getT('en');
const admin = { id: 'u-admin', email: 'owner@kopi.test', displayName: 'Owner', isAdmin: true, photoUrl: null };
const customer = { ...admin, id: 'u-customer', isAdmin: false };
const log = pino({ level: 'silent' });

/** A database that fails at every query (the server is up, its database is not). */
const brokenDb = new Proxy({}, { get: () => () => { throw new Error('database unavailable'); } }) as unknown as DB;

const get = (path: string) => new Request(`http://localhost${path}`);
const post = (path: string, fields: Record<string, string>) => new Request(`http://localhost${path}`, { method: 'POST', body: new URLSearchParams(fields) });

type Args = Parameters<typeof editProduct.loader>[0];
const args = (request: Request, user: typeof admin | null, params: Record<string, string> = {}, db: DB = brokenDb) =>
  routeArgs(request, { app: { db, storage: nullStorage, log }, shopper: { user }, params }) as unknown as Args;

async function redirectOf(run: () => Promise<unknown>): Promise<string | null> {
  try {
    await run();
    return null;
  } catch (thrown) {
    return thrown instanceof Response ? thrown.headers.get('location') : null;
  }
}

describe('back-office routes', () => {
  it('send guests and customers home from every loader and action, before touching the database', async () => {
    const calls: [string, () => Promise<unknown>][] = [];
    for (const user of [null, customer]) {
      calls.push(
        ['add loader', () => addProduct.loader(args(get('/add-product'), user) as never)],
        ['add action', () => addProduct.action(args(post('/add-product', { name: 'x', price: '1' }), user) as never)],
        ['edit loader', () => editProduct.loader(args(get('/edit-product/p1'), user, { id: 'p1' }))],
        ['edit action', () => editProduct.action(args(post('/edit-product/p1', { name: 'x', price: '1' }), user, { id: 'p1' }) as never)],
        ['list loader', () => products.loader(args(get('/admin/products'), user) as never)],
        ['delete loader', () => deleteProduct.loader(args(get('/admin/products/p1/delete'), user, { id: 'p1' }) as never)],
        ['delete action', () => deleteProduct.action(args(post('/admin/products/p1/delete', {}), user, { id: 'p1' }) as never)],
        ['orders loader', () => orders.loader(args(get('/admin/orders'), user) as never)],
        ['activity loader', () => activity.loader(args(get('/admin/activity'), user) as never)],
        ['order loader', () => order.loader(args(get('/admin/orders/o1'), user, { id: 'o1' }) as never)],
        ['order action', () => order.action(args(post('/admin/orders/o1', { intent: 'ship', carrier: 'dhl' }), user, { id: 'o1' }) as never)],
        ['cancel action', () => order.action(args(post('/admin/orders/o1', { intent: 'cancel' }), user, { id: 'o1' }) as never)],
        ['shipment action', () => order.action(args(post('/admin/orders/o1', { intent: 'shipment', size: 'small' }), user, { id: 'o1' }) as never)],
        ['label loader', () => orderLabel.loader(args(get('/admin/orders/o1/label'), user, { id: 'o1' }) as never)],
        ['layout loader', () => layout.loader(args(get('/admin'), user) as never)],
        ['dashboard loader', () => dashboard.loader(args(get('/admin?period=30d'), user) as never)],
        ['export loader', () => ordersExport.loader(args(get('/admin/orders/export?from=2026-01-01&to=2026-01-31'), user) as never)],
        ['messages loader', () => messages.loader(args(get('/admin/messages'), user) as never)],
        ['messages action', () => messages.action(args(post('/admin/messages', { intent: 'delete', id: 'm1' }), user) as never)],
        ['reviews loader', () => reviews.loader(args(get('/admin/reviews?show=hidden'), user) as never)],
        ['reviews action', () => reviews.action(args(post('/admin/reviews', { intent: 'hide', id: 'r1', reason: 'abuse' }), user) as never)],
        ['customers loader', () => customers.loader(args(get('/admin/customers?q=ola@example.com'), user) as never)],
        ['customers action', () => customers.action(args(post('/admin/customers', { intent: 'delete', userId: 'u1', reviews: 'keep', confirm: 'yes' }), user) as never)],
        ['erase action', () => customers.action(args(post('/admin/customers', { intent: 'erase', email: 'ola@example.com', confirm: 'yes' }), user) as never)],
        ['customer data action', () => customerData.action(args(post('/admin/customers/data', { email: 'ola@example.com', userId: 'u1' }), user) as never)],
        ['invoices loader', () => invoices.loader(args(get('/admin/invoices?status=refused'), user) as never)],
        ['invoices action', () => invoices.action(args(post('/admin/invoices', { intent: 'resend', invoiceId: 'i1', invoiceName: 'X', invoiceCountry: 'PL' }), user) as never)],
        ['UPO loader', () => invoiceUpo.loader(args(get('/admin/invoices/i1/upo'), user, { id: 'i1' }) as never)],
      );
    }
    for (const [name, call] of calls) expect(await redirectOf(call), name).toBe('/');
  });

  it('answer a bad CSV date range with a translated 400, before reading anything', async () => {
    for (const [query, key] of [
      ['?from=2026-02-30&to=2026-03-01', 'invalidDates'],
      ['?from=nonsense', 'invalidDates'],
      // A month or a day that no calendar has: refused, not thrown.
      ['?from=2026-01-01&to=2026-13-01', 'invalidDates'],
      ['?from=2026-12-01&to=2026-12-32', 'invalidDates'],
      ['?from=2026-00-10&to=2026-01-01', 'invalidDates'],
      ['?from=2026-03-02&to=2026-03-01', 'reversedDates'],
      ['?from=2020-01-01&to=2026-03-01', 'rangeTooLong'],
    ] as const) {
      const response = (await ordersExport.loader(args(get(`/admin/orders/export${query}`), admin) as never)) as Response;
      expect([response.status, (await response.text()).trim()], query).toEqual([400, en(`admin.dashboard.errors.${key}`)]);
    }
  });

  it('says "Invalid product ID" for a malformed id and "Failed to load product details" when loading fails', async () => {
    const invalid = (await editProduct.loader(args(get('/edit-product/a%20b'), admin, { id: 'a b' }))) as unknown as { data: { problem: string; title: string }; init: { status: number } };
    expect([invalid.data.problem, invalid.data.title, invalid.init.status]).toEqual(['invalidId', 'Invalid product ID', 400]);
    const failed = (await editProduct.loader(args(get('/edit-product/p1'), admin, { id: 'p1' }))) as unknown as { data: { problem: string; title: string }; init: { status: number } };
    expect([failed.data.problem, failed.data.title, failed.init.status]).toEqual(['loadFailed', 'Failed to load product details', 503]);
  });

  it('answers a failed save or delete with its message (503), never an error page', async () => {
    const added = (await addProduct.action(args(post('/add-product', { name: 'Gayo', price: '12', netWeight: '250' }), admin) as never)) as unknown as { data: { status: string; values: { name: string } }; init: { status: number } };
    expect([added.data.status, added.data.values.name, added.init.status]).toEqual(['failed', 'Gayo', 503]);
    const edited = (await editProduct.action(args(post('/edit-product/p1', { name: 'Gayo', price: '12', netWeight: '250' }), admin, { id: 'p1' }) as never)) as unknown as { data: { status: string }; init: { status: number } };
    expect([edited.data.status, edited.init.status]).toEqual(['failed', 503]);
    const deleted = (await deleteProduct.action(args(post('/admin/products/p1/delete', { redirectTo: '/' }), admin, { id: 'p1' }) as never)) as unknown as { data: { ok: boolean; error: string }; init: { status: number } };
    expect([deleted.data, deleted.init.status]).toEqual([{ ok: false, error: 'failed' }, 503]);
    const hidden = (await reviews.action(args(post('/admin/reviews', { intent: 'hide', id: 'r1', reason: 'abuse' }), admin) as never)) as unknown as { data: unknown; init: { status: number } };
    expect([hidden.data, hidden.init.status]).toEqual([{ ok: false, error: 'failed' }, 503]);
  });

  it('hides a review only for a reason the rules allow, before touching the database', async () => {
    for (const reason of ['', 'bad rating', 'abuse ']) {
      const refused = (await reviews.action(args(post('/admin/reviews', { intent: 'hide', id: 'r1', reason }), admin) as never)) as unknown as { data: unknown; init: { status: number } };
      expect([refused.data, refused.init.status], reason).toEqual([{ ok: false, error: 'reason', id: 'r1' }, 400]);
    }
  });
});
