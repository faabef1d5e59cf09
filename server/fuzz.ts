/**
 * Fuzzing every form route and API endpoint of the production build, in this process, against a real SQLite
 * database: at least 300 generated malformed requests each (wrong content types, broken encodings, missing,
 * repeated, huge and hostile values, odd methods, paths and query strings), from a guest and from a signed-in
 * customer. Every request carries at least one defect that makes it invalid, so every answer must be below
 * 500 and the database must be exactly as it was. Deterministic: FUZZ_SEED replays a run.
 *
 * The endpoints are fuzzed in two files that Vitest runs side by side (each with its own shop):
 * fuzz-back-office.test.ts (the owner's forms) and fuzz-storefront.test.ts (the shopper's forms, the APIs,
 * the webhook and the pages). Each endpoint's requests come from its own seed, so the split changes none.
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureUserCart, addToCart } from '~/modules/cart/index.server';
import { createProduct, variantsOf } from '~/modules/catalog/index.server';
import { payWithCard, startPayment } from '~/modules/checkout/index.server';
import { correctStock, setStockMode } from '~/modules/stock/index.server';
import { TEST_CARDS, createTestPaymentProvider } from '~/modules/payments/index.server';
import { address, courier } from '../tests/fixtures/shop';
import { type TestShop, rawRequest, startTestShop } from './test-shop';

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const PER_ENDPOINT = 300;

/** mulberry32: a small seeded generator, so a failing run can be replayed. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T,>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
  return { next, pick, chance: (p: number) => next() < p, int: (n: number) => Math.floor(next() * n) };
}
type Random = ReturnType<typeof random>;

/** Values that break a field: empty, too long, control and bidi characters, markup, SQL, odd Unicode. */
const hostileValues = [
  '',
  ' ',
  '\u0000',
  'Ola\u0000Nowak',
  'x\u202ey',
  'a\u2066b\u2069',
  '\u001b[31mred',
  'x'.repeat(6000),
  '<script>alert(1)</script>\u0000',
  "' OR 1=1 --\u0007",
  '../../etc/passwd\u0000',
  '\uFEFF\u200f',
  'a\r\nb\u0085',
  '%00\u0000%ff%',
  'vertical\u000btab',
];
/** Values that look plausible on their own (the defect is elsewhere in the request). */
const plausible: Record<string, () => string> = {
  name: () => 'Ola Nowak',
  fullName: () => 'Ola Nowak',
  email: () => 'ola@example.com',
  subject: () => 'Beans',
  message: () => 'Hello',
  address: () => 'ul. Kwiatowa 5',
  city: () => 'Kraków',
  zipCode: () => '30-001',
  password: () => 'correct horse battery',
  locale: () => 'pl',
  redirectTo: () => '/cart',
};

type Endpoint = {
  name: string;
  path: string;
  /** The form's fields and how to make them invalid; one of `defects` is applied to every request. */
  fields: Record<string, (r: Random) => string>;
  defects: Array<(fields: Record<string, string>, r: Random) => void>;
  signedIn: 'never' | 'sometimes' | 'always';
  /** Whose session 'always' and 'sometimes' mean: a customer's (the default) or an admin's. */
  as?: 'customer' | 'admin';
  json?: boolean;
  /** What an answer from the form's own checks says: some answers must say it (the requests get past the parsing). */
  reaches?: RegExp;
};

const bad = (r: Random) => r.pick(hostileValues);
const breakField = (name: string) => (fields: Record<string, string>, r: Random) => {
  if (r.chance(0.3)) delete fields[name];
  else fields[name] = bad(r);
};
/** A buyer's field left out or given a value parseBuyer always refuses. */
const invalidBuyerField = (name: string, values: readonly string[]) => (fields: Record<string, string>, r: Random) => {
  if (r.chance(0.3)) delete fields[name];
  else fields[name] = r.pick(values);
};
/** Real coffees the shop cannot sell as asked (filled in before the runs): a pack sold out, one switched off, one with 2 left. */
const real = { capsules: '', soldOut: '', switchedOff: '', low: '', beans: '' };
const unknownId = (r: Random) => r.pick(['', 'nope', 'x'.repeat(300), '../../x', `${'A'.repeat(22)}`, '1 OR 1=1', '\u0000', '%ff']);

function endpoints(productId: string): Endpoint[] {
  const textFields = (names: string[]) => Object.fromEntries(names.map((n) => [n, () => plausible[n]?.() ?? 'x']));
  const row = (key: number) => ({
    [`variants.${key}.id`]: unknownId,
    [`variants.${key}.weight`]: (r: Random) => r.pick(['250', '1000']),
    [`variants.${key}.grind`]: (r: Random) => r.pick(['wholeBean', 'espresso']),
    [`variants.${key}.pack`]: (r: Random) => r.pick(['10', '30']),
    [`variants.${key}.price`]: (r: Random) => r.pick(['12.50', '12,5', '0']),
    [`variants.${key}.sku`]: (r: Random) => r.pick(['', `GAYO-${key}`]),
    [`variants.${key}.active`]: () => 'on',
  });
  const productFields = {
    name: () => 'Gayo Honey',
    price: (r: Random) => r.pick(['12.50', '12,5', '0']),
    description: () => 'Honeyed.',
    category: (r: Random) => r.pick(['wholeBean', 'groundCoffee']),
    options: (r: Random) => r.pick(['none', 'size', 'grind', 'size,grind', 'pack']),
    ...row(0),
    ...row(1),
    namePl: bad,
    notes: bad,
    image: unknownId,
    remove: unknownId,
  };
  type Fields = Record<string, string>;
  const soldBy = (r: Random) => r.pick(['size', 'grind', 'size,grind', 'pack']);
  // Each makes the form invalid, so nothing may be written: no name, a price that is not one, a category that is not one,
  // a way of selling that is not one, or a variants row that is wrong however the product is sold.
  const productDefects = [
    breakField('name'),
    (f: Fields, r: Random) => void Object.assign(f, { options: 'none', price: r.pick(['', '-1', '12.345', '1e3', 'NaN', '\u0000', '12.5.5', '99999999']) }),
    (f: Fields, r: Random) => void (f.category = r.pick(['tea', '\u0000', 'x'.repeat(300)])),
    (f: Fields, r: Random) => void (f.options = r.pick(['tea', 'size,pack', 'grind,size', '\u0000', 'x'.repeat(300), 'none,size'])),
    (f: Fields, r: Random) => void Object.assign(f, { options: soldBy(r), [`variants.${r.int(2)}.${r.pick(['weight', 'price'])}`]: bad(r) }),
    (f: Fields, r: Random) => void Object.assign(f, { options: soldBy(r), [`variants.${r.int(2)}.sku`]: r.pick(['-X', 'no spaces', 'x'.repeat(41), 'GAYO\u0000', 'ŁÓDŹ']) }),
    (f: Fields, r: Random) => void Object.assign(f, { options: 'pack', [`variants.${r.int(2)}.pack`]: r.pick(['', '0', '1001', '2.5', 'x']) }),
    (f: Fields, r: Random) => void Object.assign(f, { options: r.pick(['grind', 'size,grind']), [`variants.${r.int(2)}.grind`]: r.pick(['', 'tea', 'WHOLEBEAN', '\u0000']) }),
    // Two rows alike, no row on sale, or every row removed.
    (f: Fields, r: Random) => {
      f.options = soldBy(r);
      for (const field of ['id', 'weight', 'grind', 'pack', 'price', 'sku']) f[`variants.1.${field}`] = f[`variants.0.${field}`];
    },
    (f: Fields, r: Random) => {
      f.options = soldBy(r);
      delete f['variants.0.active'];
      delete f['variants.1.active'];
    },
    (f: Fields, r: Random) => Object.assign(f, { options: soldBy(r), 'variants.0.remove': 'on', 'variants.1.remove': 'on' }),
  ];
  return [
    {
      name: 'POST /add-product (as an admin)',
      path: '/add-product',
      fields: productFields,
      defects: productDefects,
      signedIn: 'sometimes',
      as: 'admin',
    },
    {
      name: 'POST /edit-product/:id (as an admin)',
      path: `/edit-product/${productId}`,
      fields: productFields,
      defects: productDefects,
      signedIn: 'sometimes',
      as: 'admin',
    },
    {
      name: 'POST /add-product (as a customer)',
      path: '/add-product',
      fields: productFields,
      defects: [breakField('name')],
      signedIn: 'sometimes',
    },
    {
      name: 'POST /admin/products/:id/delete (unknown products, as an admin)',
      path: '/admin/products/NoSuchProductAtAll/delete',
      fields: { redirectTo: (r) => r.pick(['/', '//evil.example', '/\t/evil', '/admin/products', '/%ff']) },
      defects: [breakField('redirectTo')],
      signedIn: 'always',
      as: 'admin',
    },
    {
      name: 'POST /admin/orders/:id (unknown and unpaid orders, as an admin)',
      path: '/admin/orders/NoSuchOrderAtAll',
      fields: {
        intent: (r) => r.pick(['ship', 'deliver', 'cancel', '', 'refund', 'shipment', 'check-shipment']),
        carrier: (r) => r.pick(['inpost', 'pigeon', '']),
        trackingNumber: bad,
        size: (r) => r.pick(['small', 'medium', 'large', 'huge', '']),
        deliveredOn: (r) => r.pick(['', '2026-11-20', '2026-12-32', '2026-13-01', '2026-02-30', 'tomorrow']),
      },
      defects: [breakField('intent'), breakField('carrier'), breakField('trackingNumber'), breakField('size'), breakField('deliveredOn')],
      signedIn: 'always',
      as: 'admin',
    },
    {
      name: 'POST /admin/messages (unknown messages, as an admin)',
      path: '/admin/messages',
      fields: { intent: (r) => r.pick(['handle', 'unread', 'delete', '', 'spam']), id: bad },
      defects: [breakField('intent'), breakField('id')],
      signedIn: 'always',
      as: 'admin',
    },
    {
      name: 'POST /admin/products/:id/stock (as an admin)',
      path: `/admin/products/${productId}/stock`,
      fields: {
        intent: (r) => r.pick(['mode', 'batch', 'correct-batch', 'correct-units']),
        mode: (r) => r.pick(['batches', 'units', 'untracked']),
        sellWithinDays: (r) => r.pick(['', '7', '30']),
        roastedOn: () => '2026-11-20',
        kilograms: (r) => r.pick(['12', '12,5', '0.25']),
        batchId: unknownId,
        variantId: unknownId,
        kilogramsLeft: (r) => r.pick(['0', '3,25']),
        units: (r) => r.pick(['0', '40']),
        reason: (r) => r.pick(['count', 'damaged', 'sample', 'other']),
        note: () => 'Counted on Monday',
      },
      // Each makes the chosen form invalid (a batch or variant that is not the product's changes nothing either).
      defects: [
        (f, r) => void (f.intent = r.pick(['', 'delete', 'BATCH', '\u0000', 'x'.repeat(300)])),
        (f, r) => void Object.assign(f, { intent: 'mode', mode: r.pick(['', 'plenty', 'BATCHES', '\u0000', 'x'.repeat(300)]) }),
        (f, r) => void Object.assign(f, { intent: 'mode', sellWithinDays: r.pick(['0', '366', '-1', '1.5', '1e2', 'x', '\u0000']) }),
        (f, r) => void Object.assign(f, { intent: 'batch', kilograms: r.pick(['', '-1', '0', '1e3', 'abc', '1000.0001', '1000001', '1,2345', '\u0000']) }),
        (f, r) => void Object.assign(f, { intent: 'batch', roastedOn: r.pick(['', '2999-01-01', '2026-02-30', '2026-13-01', '2026-12-32', '1999-01-01', '26-11-20', '\u0000']) }),
        (f, r) => void Object.assign(f, { intent: 'batch', note: r.pick(['x'.repeat(201), 'a\u0000b', 'line\nbreak']) }),
        (f, r) => void Object.assign(f, { intent: r.pick(['correct-batch', 'correct-units']), reason: r.pick(['', 'theft', '\u0000']) }),
        (f, r) => void Object.assign(f, { intent: 'correct-batch', kilogramsLeft: r.pick(['', '-1', 'x', '1000.5']) }),
        (f, r) => void Object.assign(f, { intent: 'correct-units', units: r.pick(['', '-1', '2.5', '100001', 'x']) }),
        (f) => void (f.intent = 'correct-batch'),
        (f) => void (f.intent = 'correct-units'),
      ],
      signedIn: 'always',
      as: 'admin',
    },
    {
      name: 'POST /admin/products/:id/stock (as a customer)',
      path: `/admin/products/${productId}/stock`,
      fields: { intent: () => 'batch', roastedOn: () => '2026-11-20', kilograms: () => '12' },
      defects: [breakField('note')],
      signedIn: 'sometimes',
    },
    {
      name: 'POST /product/:id (notify me, unknown variants or no consent)',
      path: `/product/${productId}`,
      fields: { intent: () => 'notify', variantId: unknownId, email: () => plausible.email(), consent: () => 'on' },
      defects: [breakField('email'), (f) => void delete f.consent, (f, r) => void (f.variantId = unknownId(r)), (f, r) => void (f.intent = r.pick(['', 'buy', '\u0000']))],
      signedIn: 'sometimes',
    },
    {
      name: 'POST /admin/products/:id/delete (as a customer)',
      path: `/admin/products/${productId}/delete`,
      fields: { redirectTo: () => '/' },
      defects: [breakField('redirectTo')],
      signedIn: 'sometimes',
    },
    {
      name: 'POST /review (a customer who bought nothing)',
      path: '/review?product=the-product',
      fields: { intent: (r) => r.pick(['', 'delete', 'save', 'x']), rating: (r) => r.pick(['1', '5', '0', '6', '4.5', '']), body: () => plausible.message() },
      defects: [breakField('rating'), breakField('body')],
      signedIn: 'sometimes',
    },
    {
      name: 'POST /admin/reviews (unknown reviews, as an admin)',
      path: '/admin/reviews',
      fields: { intent: (r) => r.pick(['reply', 'hide', 'show', '', 'delete']), id: bad, reason: (r) => r.pick(['abuse', 'personal-data', 'off-topic', 'bad rating', '']), reply: () => plausible.message() },
      defects: [breakField('intent'), breakField('id'), breakField('reason'), breakField('reply')],
      signedIn: 'always',
      as: 'admin',
    },
    {
      name: 'POST /withdraw',
      path: '/withdraw',
      fields: { intent: (r) => r.pick(['find', 'confirm', 'change', '']), ...textFields(['name', 'email', 'reason']), orderNumber: (r) => r.pick(['X7K2QA', '#abc', '']), line: unknownId },
      defects: [breakField('name'), breakField('email'), breakField('orderNumber')],
      signedIn: 'sometimes',
    },
    {
      name: 'POST /order/:id (a guest order’s page: unknown orders, wrong keys)',
      path: '/order/NoSuchOrderAtAll?key=AAAAAAAAAAAAAAAAAAAAAA',
      fields: { intent: (r) => r.pick(['account', '', 'claim']), key: (r) => r.pick(['AAAAAAAAAAAAAAAAAAAAAA', '', 'x'.repeat(80)]) },
      defects: [breakField('intent'), breakField('key')],
      signedIn: 'sometimes',
    },
    {
      name: 'POST /invoice/:orderId (a customer asking for an invoice: unknown orders, bad details)',
      path: '/invoice/NoSuchOrderAtAll',
      fields: {
        invoiceName: (r) => r.pick(['Kawiarnia sp. z o.o.', '', 'x'.repeat(300)]),
        invoiceTaxId: (r) => r.pick(['7250018200', '7250018201', 'DE123', '', 'PL 725-001-82-00']),
        invoiceCountry: (r) => r.pick(['PL', 'DE', 'US', '', 'pl', '\u0000']),
        invoiceAddress: () => 'ul. Piotrkowska 100',
        invoiceZipCode: (r) => r.pick(['90-004', '', '<b>', 'x'.repeat(30)]),
        invoiceCity: () => 'Łódź',
      },
      // No such order of this customer's (or none signed in): nothing may be issued whatever the details.
      defects: [breakField('invoiceName'), breakField('invoiceTaxId'), breakField('invoiceCountry'), breakField('invoiceZipCode')],
      signedIn: 'sometimes',
    },
    {
      name: 'POST /invoice/:orderId (a customer asking for the invoice of their paid order, with details that are refused)',
      path: '/invoice/the-paid-order',
      fields: {
        invoiceName: () => 'Kawiarnia sp. z o.o.',
        invoiceTaxId: (r) => r.pick(['7250018200', 'PL 725-001-82-00', '']),
        invoiceCountry: () => 'PL',
        invoiceAddress: () => 'ul. Piotrkowska 100',
        invoiceZipCode: () => '90-004',
        invoiceCity: () => 'Łódź',
      },
      // The order is real, paid and the customer's, and the shop may issue invoices: a valid body would issue one, so
      // every defect is one parseBuyer refuses (not the generic hostile values: some of those are a valid name, and an
      // empty country or tax number is Poland's or none). Nothing may be issued, no number taken.
      defects: [
        invalidBuyerField('invoiceName', ['', ' ', '\u0000', 'Ola\u0000Nowak', 'x\u202ey', 'a\u2066b\u2069', '\u001b[31mred', 'x'.repeat(201), 'x'.repeat(6000), '<script>alert(1)</script>\u0000', "' OR 1=1 --\u0007", 'a\r\nb']),
        (f, r) => void Object.assign(f, { invoiceCountry: 'PL', invoiceTaxId: r.pick(['7250018201', '725001820', '72500182000', 'PL 725-001-82-01', 'DE123456789', '\u0000', 'x'.repeat(300), "' OR 1=1 --", '١٢٣٤٥٦٧٨٩٠']) }),
        (f, r) => void (f.invoiceCountry = r.pick(['US', 'XX', 'GB', 'CH', 'NO', '\u0000', 'x'.repeat(300), '<b>', 'ÖS', '1'])),
        invalidBuyerField('invoiceZipCode', ['', ' ', '<b>', 'x'.repeat(30), '-1234', '12_34', '1', 'ab\u0000c', ' -']),
        invalidBuyerField('invoiceAddress', ['', ' ', '\u0000', 'x'.repeat(201), 'a\u202eb', 'a\tb']),
        invalidBuyerField('invoiceCity', ['', ' ', '\u0000', 'x'.repeat(101), 'a\u202eb', 'a\tb']),
      ],
      signedIn: 'always',
      reaches: /Some details need fixing\./,
    },
    {
      name: 'POST /admin/orders/:id (an invoice for unknown orders, as an admin)',
      path: '/admin/orders/NoSuchOrderAtAll',
      fields: { intent: () => 'invoice', invoiceName: () => 'Café Berlin GmbH', invoiceTaxId: (r) => r.pick(['DE123456789', '7250018200', 'x']), invoiceCountry: (r) => r.pick(['DE', 'PL', 'XX']), invoiceAddress: () => 'Torstraße 1', invoiceZipCode: () => '10119', invoiceCity: () => 'Berlin' },
      defects: [breakField('invoiceName'), breakField('invoiceTaxId'), breakField('invoiceCountry')],
      signedIn: 'always',
      as: 'admin',
    },
    {
      name: 'POST /admin/orders/:id (a KSeF number for unknown invoices, or no KSeF number, as an admin)',
      path: '/admin/orders/NoSuchOrderAtAll',
      fields: { intent: () => 'ksef', invoiceId: unknownId, ksefNumber: (r) => r.pick(['5260250274-20261128-0A1B2C3D4E5F-F7', '5260250274-20261128-0A1B2C3D4E5F']) },
      defects: [breakField('ksefNumber'), (f, r) => void (f.invoiceId = unknownId(r))],
      signedIn: 'always',
      as: 'admin',
    },
    {
      name: 'POST /cart',
      path: '/cart',
      fields: {
        intent: (r) => r.pick(['add', 'increment', 'decrement', 'remove', 'set']),
        productId: unknownId,
        variantId: unknownId,
        quantity: (r) => r.pick(['1', '0', '-1', '1e9', 'abc', '2.5', '99', '100', '']),
        requestKey: (r) => r.pick(['', 'short', 'a'.repeat(22), 'ä'.repeat(22), 'x'.repeat(65), '../../etc/passwd-0123456789']),
      },
      // Never a real product or variant id: every cart request is about one that does not exist, or malformed.
      defects: [
        breakField('intent'),
        breakField('productId'),
        breakField('variantId'),
        (f, r) => void (f.variantId = unknownId(r)),
        // A code that cannot be one (a real code's refusal is an attempt, counted against guessing).
        (f, r) => void Object.assign(f, { intent: 'code', code: r.pick([...hostileValues, 'ab', 'KAWA 10', '<b>KAWA10</b>', 'x'.repeat(101), 'kawa10\u0000']) }),
      ],
      signedIn: 'sometimes',
    },
    {
      name: 'POST /cart (a pack sold out, a pack switched off, more than is left)',
      path: '/cart',
      fields: { intent: () => 'add', variantId: () => real.low, quantity: () => '1' },
      // Real variants the stock or the owner refuses: a 409 or 404 saying why, and no cart, line or request key written.
      defects: [
        (f, r) => void Object.assign(f, { intent: 'add', variantId: real.soldOut, quantity: r.pick(['1', '2', '99']) }),
        (f, r) => void Object.assign(f, { intent: 'add', variantId: real.switchedOff, quantity: r.pick(['1', '5']) }),
        (f, r) => void Object.assign(f, { intent: 'add', variantId: real.low, quantity: r.pick(['2', '3', '50', '99']) }),
        (f, r) => void Object.assign(f, { intent: 'set', variantId: real.low, quantity: r.pick(['3', '4', '99']) }),
        (f, r) => void Object.assign(f, { intent: 'add', variantId: real.low, quantity: r.pick(['100', '-1', '2.5', '1e2', '0x10']) }),
      ],
      signedIn: 'sometimes',
    },
    {
      name: 'POST /product/:id (notify me about a pack sold out, with an address that is none or no consent)',
      path: '/product/the-capsules',
      fields: { intent: () => 'notify', variantId: () => real.soldOut, email: () => plausible.email(), consent: () => 'yes' },
      defects: [breakField('email'), (f) => void delete f.consent, (f, r) => void (f.consent = r.pick(['', 'on', 'off', 'YES', '\u0000'])), (f, r) => void (f.email = r.pick(['ola@', '@example.com', 'ola@example', 'ola@@example.com', 'x'.repeat(250) + '@example.com']))],
      signedIn: 'sometimes',
      reaches: /Please enter (your|a valid) email|Please tick the box/,
    },
    {
      name: 'POST /back-in-stock (stopping alerts with tokens that are none)',
      path: '/back-in-stock',
      fields: { token: unknownId },
      defects: [breakField('token'), (f, r) => void (f.token = unknownId(r))],
      signedIn: 'sometimes',
    },
    {
      name: 'POST /contact',
      path: '/contact',
      fields: textFields(['name', 'email', 'subject', 'message']),
      defects: ['name', 'email', 'subject', 'message'].map(breakField),
      signedIn: 'sometimes',
    },
    {
      name: 'POST /auth',
      path: '/auth',
      fields: { intent: (r) => r.pick(['login', 'signup', 'reset', '', 'admin']), ...textFields(['name', 'email', 'password', 'redirectTo']) },
      // The email is what every mode needs (a reset request needs nothing else).
      defects: [breakField('email'), (f) => void (f.email = 'ola@@example..com'), (f) => void (f.email = 'ola@example.com\u0000')],
      signedIn: 'never',
    },
    {
      name: 'POST /auth/reset',
      path: '/auth/reset',
      fields: { token: unknownId, password: () => plausible.password() },
      defects: [(f, r) => void (f.token = unknownId(r)), breakField('password')],
      signedIn: 'never',
    },
    {
      name: 'POST /language',
      path: '/language',
      fields: { locale: () => 'pl', redirectTo: (r) => r.pick(['/', '//evil.example', '/\t/evil', '/%ff', 'javascript:alert(1)', '/a\u0000b']) },
      defects: [breakField('locale'), breakField('redirectTo')],
      signedIn: 'sometimes',
    },
    {
      name: 'POST /currency',
      path: '/currency',
      fields: { currency: () => 'PLN', redirectTo: (r) => r.pick(['/', '//evil.example', '/\t/evil', '/%ff', 'javascript:alert(1)', '/a\u0000b']) },
      // A currency the shop does not offer is refused; a switch to one it does is no harm, but it is not the fuzz's to make.
      defects: [(f, r) => void (f.currency = r.pick(['USD', 'pln', '', '\u0000', 'EUR '.repeat(50), 'PL N']))],
      signedIn: 'sometimes',
    },
    {
      name: 'POST /test-bank/:payment (the stand-in bank page)',
      path: '/test-bank/tp_NoSuchPaymentAtAll',
      fields: { answer: (r) => r.pick(['approve', 'decline']), returnTo: (r) => r.pick(['/', '//evil.example', 'javascript:alert(1)']) },
      // No payment waits for it: answered 404 whatever the answer, and nothing is paid.
      defects: [(f, r) => void (f.answer = r.pick(['approve', 'maybe', '', '\u0000']))],
      signedIn: 'sometimes',
    },
    {
      name: 'POST /logout',
      path: '/logout',
      fields: { junk: bad },
      // A guest's logout changes nothing; a signed-in one would end the session the other requests use.
      defects: [breakField('junk')],
      signedIn: 'never',
    },
    {
      name: 'POST /profile',
      path: '/profile',
      fields: { ...textFields(['fullName', 'address', 'city', 'zipCode']), sameAsShipping: () => 'on', paymentMethod: () => 'creditCard' },
      defects: [...['fullName', 'address', 'city', 'zipCode'].map(breakField), (f, r) => void (f.paymentMethod = r.pick(['bitcoin', '\u0000', 'x'.repeat(500)]))],
      signedIn: 'always',
    },
    {
      name: 'POST /checkout',
      path: '/checkout',
      fields: {
        intent: (r) => r.pick(['proceed', 'pay', '', 'refund', 'blik', 'przelewy24']),
        blikCode: (r) => r.pick(['777123', '12345', '', '7771234', '77712a']),
        ...textFields(['fullName', 'address', 'city', 'zipCode']),
        orderId: unknownId,
        cardNumber: (r) => r.pick(['4242 4242 4242 4242', '', 'x']),
        cardExpiry: (r) => r.pick(['12/34', '99/99', '', '1/']),
        cardCvc: (r) => r.pick(['123', '', 'abcd']),
        visitorId: (r) => r.pick(['', 'x', 'Qm9vbXRvd24tdmlzaXRvcg']),
      },
      // A proceed always has a broken address; a pay always names an order that does not exist.
      defects: [...['fullName', 'address', 'city', 'zipCode'].map(breakField)],
      signedIn: 'always',
    },
    {
      name: 'POST /checkout?step=delivery (the delivery step)',
      path: '/checkout?step=delivery',
      fields: {
        intent: () => 'proceed',
        ...textFields(['fullName', 'address', 'city', 'zipCode']),
        country: () => 'PL',
        methodId: (r) => r.pick(['method-pl-courier', 'method-pl-locker', 'method-pl-pickup']),
        phone: () => '600100200',
        lockerCode: () => 'KRA01M',
        saveToProfile: () => 'on',
        // Mostly with an invoice asked for, its details valid or not: parseBuyer runs on them (a valid buyer changes
        // nothing, the delivery's defect below still refuses the order).
        invoice: (r) => r.pick(['on', 'on', 'on', '', 'yes']),
        invoiceName: (r) => r.pick(['Kawiarnia sp. z o.o.', ...hostileValues]),
        invoiceTaxId: (r) => r.pick(['7250018200', '7250018201', 'PL 725-001-82-00', 'DE123456789', 'DE123', ...hostileValues]),
        invoiceCountry: (r) => r.pick(['PL', 'DE', 'pl', 'US', 'XX', ...hostileValues]),
        invoiceAddress: (r) => r.pick(['ul. Piotrkowska 100', ...hostileValues]),
        invoiceZipCode: (r) => r.pick(['90-004', '10119', '<b>', 'x'.repeat(30), ...hostileValues]),
        invoiceCity: (r) => r.pick(['Łódź', ...hostileValues]),
      },
      // Each is refused before any order: a country not served or malformed, a method not offered (or not one),
      // a phone that is not one, a locker code that cannot be one, a courier without its address.
      defects: [
        (f, r) => void (f.country = r.pick(['US', '', 'pl', 'POL', '\u0000', 'x'.repeat(300), 'XX'])),
        (f, r) => void (f.methodId = r.pick(['', 'method-eu-courier', 'nope', '../../x', '\u0000', 'x'.repeat(300)])),
        (f, r) => void Object.assign(f, { methodId: 'method-pl-locker', phone: r.pick(['', '12', '+49 151 2345678', 'x'.repeat(40), '\u0000', '0048 000 000 000']) }),
        (f, r) => void Object.assign(f, { methodId: 'method-pl-locker', lockerCode: r.pick(['', 'K', '../x', 'KRA01M\u0000', 'x'.repeat(100), '<KRA01M>']) }),
        (f, r) => void Object.assign(f, { methodId: 'method-pl-courier', [r.pick(['address', 'city', 'zipCode'])]: r.pick(['', ' ', '\u0000', 'x'.repeat(300)]) }),
      ],
      signedIn: 'always',
      reaches: /Enter the company’s or your name|too long or has characters it cannot have|Choose a country of the European Union|Enter the street and number|Enter the city|postal code|This NIP is not valid|does not match the country’s format/,
    },
    {
      name: 'POST /admin/delivery (as an admin)',
      path: '/admin/delivery',
      fields: {
        intent: (r) => r.pick(['settings', 'zone', 'delete-zone', 'add-method', 'method', 'delete-method']),
        packagingGrams: () => '150',
        homeCountry: () => 'PL',
        zoneId: (r) => r.pick(['zone-poland', 'zone-eu']),
        name: () => 'Polska',
        countries: () => 'PL',
        kind: () => 'courier',
        methodId: (r) => r.pick(['method-pl-courier', 'method-pl-locker', 'method-pl-pickup']),
        active: () => 'on',
        'band.0.kg': () => '1',
        'band.0.price': () => '4.99',
        freeOver: () => '50',
        pickupAddress: () => 'ul. Mokotowska 12',
      },
      // Each makes the chosen form invalid or refused, so nothing may be written.
      defects: [
        (f, r) => void (f.intent = r.pick(['', 'drop', 'METHOD', '\u0000', 'x'.repeat(300)])),
        (f, r) => void Object.assign(f, { intent: 'settings', packagingGrams: r.pick(['', '-1', '5001', '1.5', 'x', '\u0000']) }),
        (f, r) => void Object.assign(f, { intent: 'settings', homeCountry: r.pick(['', 'US', 'pl', '\u0000']) }),
        (f, r) => void Object.assign(f, { intent: 'zone', countries: r.pick(['', 'US', 'XX', '\u0000']) }),
        (f, r) => void Object.assign(f, { intent: 'zone', name: r.pick(['', ' ', 'x'.repeat(61), 'a\u0000b']) }),
        // Poland's countries into a new zone: they are taken.
        (f) => void Object.assign(f, { intent: 'zone', zoneId: '', name: 'Again', countries: 'PL' }),
        (f, r) => void Object.assign(f, { intent: r.pick(['delete-zone', 'add-method']), zoneId: unknownId(r) }),
        (f, r) => void Object.assign(f, { intent: 'add-method', zoneId: 'zone-poland', kind: r.pick(['courier', 'locker', 'drone', '']) }),
        (f, r) => void Object.assign(f, { intent: r.pick(['method', 'delete-method']), methodId: unknownId(r) }),
        (f, r) => void Object.assign(f, { intent: 'method', 'band.0.kg': r.pick(['', '0', '26', '-1', 'x', '1e3', '1,2345']) }),
        (f, r) => void Object.assign(f, { intent: 'method', 'band.0.price': r.pick(['', '-1', '1000.01', 'x', '4.999', '\u0000']) }),
        (f, r) => void Object.assign(f, { intent: 'method', freeOver: r.pick(['0', '-5', 'x', '1.234']) }),
        (f, r) => void Object.assign(f, { intent: 'method', methodId: 'method-pl-pickup', pickupAddress: r.pick(['', 'x'.repeat(201), 'a\u0000b']) }),
      ],
      signedIn: 'always',
      as: 'admin',
    },
    {
      name: 'POST /admin/promotions (as an admin)',
      path: '/admin/promotions',
      fields: {
        intent: () => 'create',
        scope: () => 'products',
        product: () => productId,
        kind: () => 'percent',
        percent: () => '15',
        price: () => '9.99',
        startsAt: () => '',
        endsAt: () => new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 16),
        labelEn: () => 'Winter sale',
        labelPl: () => 'Zimowa promocja',
      },
      // Each makes the sale invalid (or names none to stop), so nothing may be written.
      defects: [
        (f, r) => void (f.percent = r.pick(['', '0', '-5', '91', '100', '150', '12.5', 'x', '1e1', '\u0000'])),
        (f, r) => void (f.scope = r.pick(['', 'everything', 'PRODUCTS', '\u0000'])),
        (f, r) => void (f.product = unknownId(r)),
        (f, r) => void Object.assign(f, { scope: 'category', category: r.pick(['', 'tea', 'WholeBean', '\u0000']) }),
        (f, r) => void Object.assign(f, { scope: 'variants', variant: unknownId(r) }),
        // A new price is for one variant: on a product it is refused.
        (f) => void Object.assign(f, { kind: 'price' }),
        (f, r) => void (f.endsAt = r.pick(['', 'tomorrow', '2020-01-01T10:00', '2026-02-30T10:00', '2026-13-01T10:00', new Date(Date.now() + 100 * 86_400_000).toISOString().slice(0, 16)])),
        (f, r) => void (f.startsAt = r.pick(['2020-01-01T10:00', 'now', '\u0000', '2026-11-31T25:00'])),
        (f, r) => void (f[r.pick(['labelEn', 'labelPl'])] = 'x'.repeat(41 + r.int(300))),
        (f, r) => void Object.assign(f, { intent: 'stop', id: unknownId(r) }),
      ],
      signedIn: 'always',
      as: 'admin',
    },
    {
      name: 'POST /admin/promotions (discount codes, as an admin)',
      path: '/admin/promotions',
      fields: {
        intent: () => 'create-code',
        code: () => 'WINTER-10',
        kind: () => 'percent',
        percent: () => '10',
        amount: () => '5.00',
        minimum: () => '',
        startsAt: () => '',
        endsAt: () => '',
        maxUses: () => '',
        maxPerCustomer: () => '',
        scope: () => 'all',
      },
      // Each makes the code invalid (or names none to stop), so nothing may be written.
      defects: [
        (f, r) => void (f.code = r.pick(['', 'ab', 'WINTER 10', 'x'.repeat(33), '<b>', '\u0000', 'zimą'])),
        (f, r) => void (f.kind = r.pick(['', 'gift', 'PERCENT', '\u0000'])),
        (f, r) => void (f.percent = r.pick(['', '0', '-10', '91', '100', '150', '12.5', 'x'])),
        (f, r) => void Object.assign(f, { kind: 'amount', amount: r.pick(['', '0', '-5', '10000.01', '5.001', 'x']) }),
        (f, r) => void (f.minimum = r.pick(['-1', 'x', '1.234', '\u0000'])),
        (f, r) => void Object.assign(f, { startsAt: '2026-12-02T10:00', endsAt: r.pick(['2026-12-01T10:00', '2026-12-02T10:00', 'soon', '2026-02-30T10:00']) }),
        (f, r) => void (f[r.pick(['maxUses', 'maxPerCustomer'])] = r.pick(['0', '-1', '1.5', '99999999', 'x'])),
        (f, r) => void Object.assign(f, { scope: r.pick(['products', 'categories']), product: unknownId(r).replace(/[A-Za-z0-9_-]/g, '%'), category: r.pick(['', 'tea', '\u0000']) }),
        (f, r) => void (f.scope = r.pick(['everything', '', '\u0000']) || 'x'),
        (f, r) => void Object.assign(f, { intent: 'stop-code', id: unknownId(r) }),
      ],
      signedIn: 'always',
      as: 'admin',
    },
    {
      name: 'POST /admin/promotions (as a customer)',
      path: '/admin/promotions',
      fields: { intent: () => 'create', scope: () => 'products', product: () => productId, kind: () => 'percent', percent: () => '15', endsAt: () => new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 16) },
      defects: [breakField('percent'), (f, r) => void Object.assign(f, { intent: 'stop', id: unknownId(r) })],
      signedIn: 'sometimes',
    },
    {
      name: 'POST /admin/tax (as an admin)',
      path: '/admin/tax',
      fields: { intent: () => 'rates', 'rate.DE.coffee': () => '5,5', 'rate.PL.coffee': () => '23', 'rate.FI.other': () => '' },
      // A rate that is no rate refuses the whole form: nothing may be written.
      defects: [
        (f, r) => void (f[r.pick(['rate.DE.coffee', 'rate.PL.coffee', 'rate.FI.other'])] = r.pick(['51', '-1', 'x', '1e1', '23.456', '\u0000', '100', '5,5,5', '2 3', '٢٣'])),
      ],
      signedIn: 'always',
      as: 'admin',
    },
    {
      name: 'POST /admin/tax (OSS and how prices follow it, as an admin)',
      path: '/admin/tax',
      fields: { intent: () => 'oss', ossRegistered: (r) => r.pick(['on', '']), prices: (r) => r.pick(['same', 'follow']) },
      // A choice that is neither refuses the form: the OSS setting is not written either.
      defects: [(f, r) => void (f.prices = r.pick(['', 'FOLLOW', 'x', '\u0000', 'follow ', 'same,follow', '٢']))],
      signedIn: 'always',
      as: 'admin',
    },
    {
      name: 'POST /admin/invoices (sending again invoices that are none or not refused, with buyers that are none, as an admin)',
      path: '/admin/invoices',
      fields: {
        intent: () => 'resend',
        invoiceId: (r) => unknownId(r),
        invoiceName: () => 'Kawiarnia Ziarno',
        invoiceTaxId: (r) => r.pick(['5213017228', '5213017229', 'DE123', '']),
        invoiceCountry: () => 'PL',
        invoiceAddress: () => 'ul. Długa 1',
        invoiceZipCode: () => '00-001',
        invoiceCity: () => 'Warszawa',
      },
      defects: [breakField('invoiceId'), breakField('invoiceTaxId'), breakField('invoiceCountry'), (f, r) => void (f.intent = r.pick(['', 'RESEND', 'delete', '\u0000']))],
      signedIn: 'always',
      as: 'admin',
    },
    {
      name: 'POST /admin/invoices (as a customer)',
      path: '/admin/invoices',
      fields: { intent: () => 'resend', invoiceId: (r) => unknownId(r), invoiceName: () => 'X', invoiceCountry: () => 'PL' },
      defects: [breakField('invoiceId')],
      signedIn: 'sometimes',
    },
    {
      name: 'POST /admin/tax (as a customer)',
      path: '/admin/tax',
      fields: { intent: () => 'oss', ossRegistered: () => 'on' },
      defects: [breakField('ossRegistered'), (f) => void (f.intent = 'rates')],
      signedIn: 'sometimes',
    },
    {
      name: 'POST /profile/delete (a customer deleting their account without the tick or a reviews choice)',
      path: '/profile/delete',
      // Refused before the password is checked (a checked one counts as a login attempt): nothing is written.
      fields: { password: () => 'correct horse battery', confirm: () => 'yes', reviews: (r) => r.pick(['keep', 'remove']) },
      defects: [breakField('confirm'), breakField('reviews')],
      signedIn: 'sometimes',
    },
    {
      name: 'POST /admin/customers (deleting unknown accounts or erasing unknown addresses, as an admin)',
      path: '/admin/customers',
      fields: { intent: (r) => r.pick(['delete', 'erase']), userId: unknownId, email: (r) => r.pick(['nobody@example.com', 'NOBODY@example.com']), reviews: () => 'keep', confirm: () => 'yes' },
      defects: [breakField('confirm'), breakField('reviews'), breakField('intent'), (f, r) => void (f.userId = unknownId(r))],
      signedIn: 'always',
      as: 'admin',
    },
    {
      name: 'POST /admin/customers (as a customer)',
      path: '/admin/customers',
      fields: { intent: () => 'delete', userId: () => 'someone', reviews: () => 'keep', confirm: () => 'yes' },
      defects: [breakField('confirm'), (f) => void (f.intent = 'erase')],
      signedIn: 'sometimes',
    },
    {
      name: 'POST /admin/customers/data (addresses that are none, as an admin)',
      path: '/admin/customers/data',
      fields: { email: () => 'ola@example.com', userId: () => '' },
      defects: [breakField('email')],
      signedIn: 'always',
      as: 'admin',
    },
    {
      name: 'POST /admin/customers/data (as a customer)',
      path: '/admin/customers/data',
      fields: { email: () => 'ola@example.com' },
      defects: [breakField('email'), (f) => void (f.userId = 'x')],
      signedIn: 'sometimes',
    },
    {
      name: 'POST /admin/delivery (as a customer)',
      path: '/admin/delivery',
      fields: { intent: () => 'settings', packagingGrams: () => '0', homeCountry: () => 'DE' },
      defects: [breakField('packagingGrams')],
      signedIn: 'sometimes',
    },
  ];
}

const formTypes = ['application/x-www-form-urlencoded', 'multipart/form-data'];
const wrongTypes = ['application/json', 'text/plain', 'text/xml', '', 'multipart/form-data', 'application/x-www-form-urlencoded; charset=utf-16', 'image/png', 'application/octet-stream'];
const methods = ['POST', 'POST', 'POST', 'PUT', 'PATCH', 'DELETE'];
const oddQueries = ['', '?', '?%', '?a=%ff', '?index', '?_data=root', '?redirectTo=//evil.example', '?intent=add&intent=remove', `?q=${'x'.repeat(3000)}`, '?__proto__[x]=1'];

function encodeForm(fields: Array<[string, string]>, type: string, r: Random): { body: Buffer; contentType: string } {
  if (type.startsWith('multipart')) {
    const boundary = r.chance(0.2) ? '' : `----kopi${r.int(1e9)}`;
    const parts = fields.map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k.replace(/"/g, '')}"\r\n\r\n${v}\r\n`);
    const closing = r.chance(0.15) ? '' : `--${boundary}--\r\n`;
    return { body: Buffer.from(parts.join('') + closing), contentType: boundary ? `multipart/form-data; boundary=${boundary}` : 'multipart/form-data' };
  }
  const encoded = fields.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  // Broken percent-encoding, in a field of its own (in a real field it could turn a defect into plain text).
  if (r.chance(0.2)) encoded.push(r.pick(['%zz=%', 'a=%E0%A4%A', '%=%%', 'b=%ED%A0%80']));
  let body = Buffer.from(encoded.join('&'));
  // Bytes that are not UTF-8 at all.
  if (r.chance(0.1)) body = Buffer.concat([body, Buffer.from([0x26, 0x61, 0x3d, 0xff, 0xfe, 0xc3])]);
  return { body, contentType: type };
}

type Generated = { method: string; path: string; headers: Record<string, string>; body?: Buffer; signedIn: boolean };

function generate(endpoint: Endpoint, r: Random, cookies: { customer: string; admin: string }): Generated {
  const sessionCookie = endpoint.as === 'admin' ? cookies.admin : cookies.customer;
  const fields: Record<string, string> = Object.fromEntries(Object.entries(endpoint.fields).map(([k, make]) => [k, make(r)]));
  r.pick(endpoint.defects)(fields, r);
  let entries = Object.entries(fields);
  // Repeated fields: the first value counts, so an invalid first value keeps the request invalid.
  if (r.chance(0.2) && entries.length) entries = [...entries.map(([k, v]) => [k, v] as [string, string]), ...entries.map(([k]) => [k, plausible[k]?.() ?? 'x'] as [string, string])];
  if (r.chance(0.2)) entries.push([r.pick(['__proto__', 'constructor', 'intent[]', 'x'.repeat(200), '\u0000', '']), bad(r)]);
  const signedIn = endpoint.signedIn === 'always' || (endpoint.signedIn === 'sometimes' && r.chance(0.5));
  const headers: Record<string, string> = {};
  if (signedIn) headers.cookie = sessionCookie;
  if (r.chance(0.5)) headers.accept = r.pick(['text/html', 'application/json', '*/*', '']);
  let body: Buffer | undefined;
  const transport = r.next();
  if (transport < 0.2) {
    // Wrong content type around a well-formed body.
    headers['content-type'] = r.pick(wrongTypes);
    body = Buffer.from(r.chance(0.5) ? JSON.stringify(fields) : new URLSearchParams(fields).toString());
  } else if (transport < 0.25) {
    // Over the limit.
    headers['content-type'] = r.pick(formTypes);
    body = Buffer.alloc(70 * 1024 + r.int(1024 * 1024), 'a');
  } else {
    const encoded = encodeForm(entries, r.pick(formTypes), r);
    headers['content-type'] = encoded.contentType;
    body = encoded.body;
  }
  if (r.chance(0.05)) delete headers['content-type'];
  return { method: r.pick(methods), path: endpoint.path + r.pick(oddQueries), headers, body, signedIn };
}

function generateEvent(r: Random): Generated {
  const visitorId = 'Qm9vbXRvd24tdmlzaXRvcg';
  const events: unknown[] = [
    { name: 'purchase', props: { transaction_id: 'o', currency: 'EUR', value: 1, items: [] }, path: '/', visitorId },
    { name: 'checkout_completed', props: {}, path: '/', visitorId },
    { name: 'page_view', props: { page_path: 42 }, path: '/', visitorId },
    { name: 'page_view', props: { page_path: '/' }, path: 'no-slash', visitorId },
    { name: 'page_view', props: { page_path: '/' }, path: '/', visitorId: 'x' },
    { name: 'wishlist', props: {}, path: '/', visitorId },
    { name: 'add_to_cart', props: { product_id: 'x'.repeat(500) }, path: '/', visitorId },
    { name: 'add_to_cart', props: { product_id: 'p', quantity: -1 }, path: '/', visitorId },
    { name: 'page_view', props: { page_path: '/' }, path: `/${'x'.repeat(300)}`, visitorId },
    null,
    [],
    'page_view',
    { __proto__: { name: 'page_view' } },
  ];
  const headers: Record<string, string> = { 'content-type': r.pick(['application/json', 'text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', '', 'multipart/form-data']) };
  const kind = r.next();
  const body =
    kind < 0.6
      ? Buffer.from(JSON.stringify(r.pick(events)))
      : kind < 0.75
        ? Buffer.from(r.pick(['{', '{"name":', '\u0000', '', '{}', 'null', '[[[[[[[[[[[[[[[[[[[[', '{"name":"page_view"}']))
        : kind < 0.85
          ? Buffer.concat([Buffer.from('{"name":"page_view","props":{"page_path":"/'), Buffer.from([0xff, 0xfe]), Buffer.from('"}}')])
          : Buffer.alloc(9 * 1024 + r.int(100_000), 'a');
  return { method: r.pick(methods), path: `/api/events${r.pick(oddQueries)}`, headers, body, signedIn: false };
}

function generateConsent(r: Random): Generated {
  const visitorId = 'Qm9vbXRvd24tdmlzaXRvcg';
  const choices: unknown[] = [
    { analytics: true, version: '2026-11-28', visitorId: null },
    { analytics: true, version: '2026-11-28' },
    { analytics: 'yes', version: '2026-11-28', visitorId },
    { analytics: false, version: '', visitorId },
    { analytics: false, version: 'x'.repeat(100), visitorId },
    { analytics: true, version: '2026-11-28', visitorId: 'short' },
    { analytics: true, version: '2026 11 28', visitorId },
    { analytics: false, version: '2026-11-28', visitorId: '\u0000'.repeat(20) },
    { version: '2026-11-28', visitorId },
    null,
    [],
    true,
  ];
  const headers: Record<string, string> = { 'content-type': r.pick(['application/json', 'text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', '', 'multipart/form-data']) };
  const kind = r.next();
  const body =
    kind < 0.6
      ? Buffer.from(JSON.stringify(r.pick(choices)))
      : kind < 0.8
        ? Buffer.from(r.pick(['{', '{"analytics":', '\u0000', '', '{}', 'null', '[[[[[[[[[[[[[[']))
        : Buffer.alloc(2 * 1024 + r.int(100_000), 'a');
  return { method: r.pick(methods), path: `/api/consent${r.pick(oddQueries)}`, headers, body, signedIn: false };
}

function generateWebhook(r: Random): Generated {
  const signatures = ['', 't=1,v1=abc', `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`, 'garbage', 'v1=', 't=,v1=,v0='];
  const headers: Record<string, string> = { 'content-type': r.pick(['application/json', 'text/plain', '', 'application/x-www-form-urlencoded']) };
  if (r.chance(0.8)) headers['stripe-signature'] = r.pick(signatures);
  const body = r.chance(0.1)
    ? Buffer.alloc(1024 * 1024 + 1 + r.int(100_000), 'a')
    : Buffer.from(r.pick(['', '{}', JSON.stringify({ id: 'evt_x', type: 'payment_intent.succeeded', data: { object: { id: 'pi_x', amount: 1 } } }), '\u0000', '{']));
  return { method: r.pick(methods), path: `/webhooks/stripe${r.pick(oddQueries)}`, headers, body, signedIn: false };
}

const pages = ['/', '/categories', '/product/', '/auth', '/auth/reset', '/success', '/checkout', '/profile', '/cart', '/about', '/contact', '/language', '/api/events', '/images/', '/assets/', '/edit-product/', '/add-product', '/admin/products', '/admin/products/', '/admin', '/admin/messages', '/admin/reviews', '/admin/orders/export', '/admin/orders/export?from=2026-01-01&to=2026-13-01', '/admin/orders/export?from=2026-12-32', '/admin/orders/', '/admin/orders/x/label', '/admin/orders/NoSuchOrderAtAll/label', '/order/x', '/order/NoSuchOrderAtAll?key=', '/pl/order/x?key=AAAAAAAAAAAAAAAAAAAAAA', '/review', '/withdraw', '/legal/reviews', '/back-in-stock', '/back-in-stock?token=', '/admin/products/x/stock', '/pl/back-in-stock', '/admin/delivery', '/cart?country=', '/checkout?step=delivery&country=', '/checkout?step=delivery&lockerQuery=', '/checkout?step=waiting&order=', '/checkout?step=payment&order=', '/test-bank/', '/pl/test-bank/tp_x', '/currency', '/admin/currencies', '/admin/currencies?propose=', '/admin/promotions', '/admin/promotions?x=%ff', '/admin/tax', '/admin/tax/oss-report', '/admin/tax/oss-report?year=2026&quarter=5', '/admin/tax/oss-report?year=%ff&quarter=1', '/invoice/x', '/pl/invoice/NoSuchOrderAtAll', '/invoices/x', '/invoices/%ff', '/admin/invoices/x/xml', '/admin/invoices', '/admin/invoices?month=2026-13&status=%ff', '/admin/invoices?month=%ff', '/admin/invoices/x/upo', '/admin/invoices/%ff/upo', '/admin/tax/ksef?month=2026-13', '/admin/tax/ksef?month=%ff', '/profile?tab=data', '/profile?tab=data&limited=yes', '/profile/data', '/profile/delete', '/pl/profile/delete', '/admin/customers', '/admin/customers?q=%ff', '/admin/customers?q=ola%40', '/admin/customers?q=nobody@example.com&delete=guest%3Anobody@example.com', '/admin/customers/data', '/api/consent'];
function generatePage(r: Random, sessionCookie: string, adminCookie: string): Generated {
  const page = r.pick(pages);
  const segment = page.endsWith('/') && page !== '/' ? r.pick(['', 'x', '%ff', '%ED%A0%80', '..%2f..%2fpackage.json', '%00', 'a'.repeat(2000), '%E', '\u00e9', '%2e%2e']) : '';
  const query = r.pick([
    '',
    '?q=%ff',
    `?q=${encodeURIComponent(r.pick(hostileValues.filter((v) => !/[\ud800-\udfff]/.test(v))))}`,
    '?page=-1',
    '?page=1e309',
    '?category=%00',
    '?mode=%ff&redirectTo=%09%2F%2Fevil.example',
    '?token=%00',
    '?order=%00&session_id=%ff&payment_intent=x',
    '?step=done&order=nope',
    '?tab=orders&page=NaN',
    '?checkout=%0d%0a',
    '?%',
    '?period=%ff&show=%00',
    '?from=2026-02-31&to=9999-99-99',
    '?from=%ff&to=',
  ]);
  const data = r.chance(0.2) && !segment ? (page === '/' ? '_.data' : '.data') : '';
  const headers: Record<string, string> = {};
  if (r.chance(0.5)) headers.cookie = r.pick([sessionCookie, adminCookie, adminCookie, 'kopi_session=x', 'kopi_cart=%ff', 'lang=pl', `kopi_session=${'a'.repeat(43)}`, 'kopi_oidc=abc.def']);
  return { method: r.pick(['GET', 'GET', 'HEAD']), path: page + segment + data + query, headers, signedIn: false };
}

/** Every table's rows, hashed: equal before and after means nothing was written. */
async function snapshot(shop: TestShop): Promise<Record<string, string>> {
  const tables = shop.config.database.kind === 'sqlite'
    ? (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'product_search%' order by name`.execute(shop.db)).rows.map((t) => t.name)
    : [];
  const out: Record<string, string> = {};
  for (const table of tables) {
    const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(shop.db)).rows.map((row) => JSON.stringify(row)).sort();
    out[table] = `${rows.length}:${createHash('sha256').update(rows.join('\n')).digest('hex').slice(0, 16)}`;
  }
  return out;
}

/** The owner's forms: everything under /admin, and adding or editing a product. */
const isBackOffice = (endpoint: Endpoint) => /^\/(admin\/|add-product|edit-product\/)/.test(endpoint.path);

/** The fuzzing suite for one part of the shop: its form endpoints, and for the storefront also the APIs, the webhook and the pages. */
export function describeFuzz(part: 'back office' | 'storefront') {
  describe(`fuzzing the form routes and API endpoints, ${part} (seed ${SEED})`, () => {
    let shop: TestShop;
    let stripeShop: TestShop;
    let cookie: string;
    let adminCookie: string;
    let paidOrderId: string;
    beforeAll(async () => {
      // At the real abuse limits: an invalid request is refused before any limit counts it, so "nothing written"
      // includes rate_events — a visitor's malformed forms never use up their address's allowance (generous for
      // customers behind a shared address) or the shop-wide ceiling that real customers share.
      // With the seller's details the shop issues invoices: a customer's valid request would write one.
      shop = await startTestShop({ RATE_LIMIT_FACTOR: '1', SHOP_LEGAL_NAME: 'Kopi Palarnia sp. z o.o.', SHOP_ADDRESS: 'ul. Mokotowska 12, 00-640 Warszawa', SHOP_TAX_ID: '5260250274' });
      // The Stripe webhook only exists with Stripe configured (its API is never reached here).
      if (part === 'storefront') stripeShop = await startTestShop({
        PAYMENT_PROVIDER: 'stripe',
        STRIPE_SECRET_KEY: 'sk_test_fuzz',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_fuzz',
        STRIPE_WEBHOOK_SECRET: 'whsec_fuzz',
        STRIPE_API_URL: 'http://127.0.0.1:9',
      });
      // Guests may order: the checkout's guest path (an email with the address) is fuzzed too.
      await shop.db.updateTable('delivery_settings').set({ guest_checkout: 1 }).execute();
      const customer = await shop.customer();
      cookie = customer.cookie;
      adminCookie = (await shop.admin()).cookie;
      // The customer has a paid order (whose invoice they may ask for), and their cart holds a coffee, as a real customer's would.
      const payments = createTestPaymentProvider(shop.db);
      const cartId = await ensureUserCart(shop.db, customer.userId);
      await addToCart(shop.db, cartId, shop.variantId, 1);
      const started = await startPayment(shop.db, payments, { userId: customer.userId, email: customer.email, locale: 'en', currency: 'EUR', cartId, address, delivery: courier });
      if (!started.ok) throw new Error(started.reason);
      const paid = await payWithCard({ db: shop.db, payments, contactTo: 'shop@kopi.test', kickMail: () => {} }, { userId: customer.userId, orderId: started.orderId, card: { number: TEST_CARDS.success, expMonth: 12, expYear: 2040, cvc: '123' } });
      if (!paid.ok) throw new Error(paid.code);
      paidOrderId = started.orderId;
      await addToCart(shop.db, await ensureUserCart(shop.db, customer.userId), shop.variantId, 2);
      // Capsules counted in units: 10s with 2 left (one in the customer's cart), 50s sold out, 100s switched off; and beans by size and grind.
      const owner = { id: null, email: 'owner@kopi.test' };
      real.capsules = await createProduct(shop.db, {
        category: 'capsulesAndPods',
        options: ['pack'],
        variants: [
          { packCount: 10, netWeightGrams: 55, priceCents: 450 },
          { packCount: 50, netWeightGrams: 275, priceCents: 1900 },
          { packCount: 100, netWeightGrams: 550, priceCents: 3500, active: false },
        ],
        translations: { en: { name: 'Capsules' }, pl: { name: 'Kapsułki' } },
      });
      const subject = { productId: real.capsules, label: 'Capsules' };
      await setStockMode(shop.db, owner, subject, { mode: 'units', sellWithinDays: null });
      const packs = new Map(((await variantsOf(shop.db, [real.capsules])).get(real.capsules) ?? []).map((v) => [v.packCount, v.id]));
      real.low = packs.get(10)!;
      real.soldOut = packs.get(50)!;
      real.switchedOff = (await shop.db.selectFrom('variants').select('id').where('product_id', '=', real.capsules).where('active', '=', 0).executeTakeFirstOrThrow()).id;
      await correctStock(shop.db, owner, subject, { variantId: real.low, units: 2, reason: 'count' });
      await correctStock(shop.db, owner, subject, { variantId: real.soldOut, units: 0, reason: 'count' });
      await addToCart(shop.db, await ensureUserCart(shop.db, customer.userId), real.low, 1);
      real.beans = await createProduct(shop.db, {
        category: 'wholeBean',
        options: ['size', 'grind'],
        variants: [
          { netWeightGrams: 250, grind: 'wholeBean', priceCents: 1600 },
          { netWeightGrams: 250, grind: 'espresso', priceCents: 1600 },
          { netWeightGrams: 1000, grind: 'wholeBean', priceCents: 5200 },
        ],
        translations: { en: { name: 'Toraja' }, pl: { name: 'Toraja' } },
      });
      // The order's mails go out (the shop's worker looks every 5 s) before any run compares the tables.
      for (let waited = 0; (await shop.db.selectFrom('mail_outbox').select('id').where('status', '=', 'queued').execute()).length > 0; waited += 100) {
        if (waited > 20_000) throw new Error('the shop did not send the order’s mails');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    });
    afterAll(async () => {
      await shop?.close();
      await stripeShop?.close();
    });

    async function run(target: TestShop, make: (r: Random, i: number) => Generated, label: string, reaches?: RegExp) {
      const r = random(SEED ^ createHash('sha1').update(label).digest().readUInt32BE(0));
      const before = await snapshot(target);
      const failures: string[] = [];
      const statuses = new Map<number, number>();
      let reached = 0;
      const requests = Array.from({ length: PER_ENDPOINT }, (_, i) => make(r, i));
      for (let i = 0; i < requests.length; i += 8) {
        await Promise.all(
          requests.slice(i, i + 8).map(async (request) => {
            const response = await rawRequest(target.port, request);
            statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
            if (reaches?.test(response.body)) reached += 1;
            if (response.status >= 500 || /at .+\.(js|ts):\d+/.test(response.body)) {
              failures.push(`${request.method} ${request.path.slice(0, 120)} [${request.headers['content-type'] ?? '-'}] → ${response.status} ${response.body.slice(0, 200)}`);
            }
          }),
        );
      }
      expect(failures, `server errors for ${label}`).toEqual([]);
      const after = await snapshot(target);
      const changed = Object.keys({ ...before, ...after }).filter((table) => before[table] !== after[table]);
      expect(changed, `tables written by ${label}`).toEqual([]);
      return { statuses, reached };
    }

    for (const endpoint of endpoints('the-product').filter((e) => isBackOffice(e) === (part === 'back office'))) {
      it(`${endpoint.name}: ${PER_ENDPOINT} malformed requests, all below 500, nothing written`, async () => {
        const target = { ...endpoint, path: endpoint.path.replace('the-product', shop.productId).replace('the-paid-order', paidOrderId).replace('the-capsules', real.capsules) };
        const { statuses, reached } = await run(shop, (r) => generate(target, r, { customer: cookie, admin: adminCookie }), endpoint.name, endpoint.reaches);
        expect([...statuses.keys()].every((s) => s < 500)).toBe(true);
        if (endpoint.reaches) expect(reached, `answers of ${endpoint.name} from the form's own checks`).toBeGreaterThan(0);
      });
    }

    if (part === 'back office') return;

    it(`POST /api/events: ${PER_ENDPOINT} malformed events, all below 500, nothing recorded`, async () => {
      await run(shop, (r) => generateEvent(r), 'POST /api/events');
    });

    it(`POST /api/consent: ${PER_ENDPOINT} malformed choices, all below 500, nothing recorded`, async () => {
      await run(shop, (r) => generateConsent(r), 'POST /api/consent');
    });

    it(`POST /webhooks/stripe: ${PER_ENDPOINT} forged or malformed webhooks, all below 500, nothing written`, async () => {
      const { statuses } = await run(stripeShop, (r) => generateWebhook(r), 'POST /webhooks/stripe');
      expect(statuses.get(200)).toBeUndefined();
    });

    it(`GET product pages: ${PER_ENDPOINT} sizes, grinds and packs that are none, all below 500 (a 404 says so), nothing written`, async () => {
      const values = ['', '0', '-250', '250.5', '1e3', '99999999999999999999', '%ff', '%00', '%ED%A0%80', 'wholeBean', 'WHOLEBEAN', 'tea', 'x'.repeat(3000), '__proto__', '250&size=1000', '%E', '1000', '250', 'espresso', '10', '50', '100'];
      const { statuses } = await run(
        shop,
        (r) => {
          const [id, keys] = r.pick([[real.beans, ['size', 'grind']], [real.capsules, ['pack']]] as const);
          const query = [...keys, r.pick(['size', 'grind', 'pack', 'variant', 'size[]'])].filter(() => r.chance(0.7)).map((key) => `${key}=${r.pick(values)}`).join('&');
          const headers: Record<string, string> = {};
          if (r.chance(0.5)) headers.cookie = r.pick([cookie, 'lang=pl', 'kopi_cart=%ff']);
          return { method: r.pick(['GET', 'GET', 'HEAD']), path: `${r.pick(['', '/pl'])}/product/${id}${r.chance(0.1) ? '.data' : ''}?${query}`, headers, signedIn: false };
        },
        'GET product pages with hostile choices',
      );
      expect(statuses.get(404)).toBeGreaterThan(0);
      expect(statuses.get(200)).toBeGreaterThan(0);
    });

    it(`GET pages: ${PER_ENDPOINT} odd paths, encodings, query strings and cookies, all below 500, nothing written`, async () => {
      await run(shop, (r) => generatePage(r, cookie, adminCookie), 'GET pages');
    });
  });
}
