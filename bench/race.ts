/**
 * Never a bag sold twice, under load: 50 signed-up customers each put the same coffee in their cart, then all go
 * to payment at once (the plain form posts of a browser without JavaScript), and those who got a payment page pay.
 *   - the last bag: one 250 g bag left (a batch of 250 g): exactly one paid order, the 49 others told before paying
 *     (409, "sold out"), nothing left and nothing below zero;
 *   - two variants, one batch: 1,250 g left, 25 customers want a 1 kg bag and 25 a 250 g bag: the paid orders draw
 *     at most the 1,250 g, everyone else is told before paying, roasted = left + sold.
 * On SQLite (the bench's shop) and on PostgreSQL with two app nodes over one fresh database, the customers split
 * between the nodes. The race coffee is made through the catalogue and stock modules, as the owner's pages make it.
 */
import path from 'node:path';
import { type DB, openDatabase } from '~/db/database.server';
import { bumpStoredCatalogVersion, createProduct, variantsOf } from '~/modules/catalog/index.server';
import { addBatch, setStockMode } from '~/modules/stock/index.server';
import { freshDatabase } from './checkout';
import { startShop, stopShop } from './http';
import { printTable } from './report';
import { ADDRESS, CARD_EXPIRY, type Customer, signUpCustomers } from './shopper';
import { type BenchDatabase, whenFree } from './stock';

const CUSTOMERS = 50;
const owner = { id: null, email: 'bench@kopi.test' };

export type RaceRow = {
  database: string;
  race: string;
  customers: number;
  paymentPages: number;
  toldBeforePaying: number;
  paid: number;
  roastedGrams: number;
  soldGrams: number;
  leftGrams: number;
  problems: string;
  ok: boolean;
};

export async function raceFigures({ sqlite, postgresPorts, dataDir }: { sqlite: { base: string; dataDir: string }; postgresPorts: [number, number]; dataDir: string }): Promise<RaceRow[]> {
  const rows = await racesOn('sqlite, 1 node', [sqlite.base], { kind: 'sqlite', file: path.join(sqlite.dataDir, 'kopi.db') });
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!url) {
    console.log('\nThe race on PostgreSQL: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL)');
    return rows;
  }
  const fresh = await freshDatabase(url);
  try {
    const [a, b] = postgresPorts;
    const first = await startShop(a, path.join(dataDir, 'a'), { DATABASE_URL: fresh.url });
    const second = await startShop(b, path.join(dataDir, 'b'), { DATABASE_URL: fresh.url });
    try {
      rows.push(...(await racesOn('postgres, 2 nodes', [`http://127.0.0.1:${a}`, `http://127.0.0.1:${b}`], { kind: 'postgres', url: fresh.url })));
    } finally {
      await Promise.all([stopShop(first), stopShop(second)]);
    }
  } finally {
    await fresh.drop();
  }
  return rows;
}

async function racesOn(database: string, bases: string[], target: BenchDatabase): Promise<RaceRow[]> {
  const handle = openDatabase(target);
  try {
    const prefix = `bench-race-${Date.now()}-`;
    const per = Math.ceil(CUSTOMERS / bases.length);
    const customers = (await Promise.all(bases.map((base, i) => signUpCustomers(base, `${prefix}n${i}-`, per)))).flat().slice(0, CUSTOMERS);
    const lastBag = await race(handle.db, database, customers, { name: 'the last bag', grams: 250, wants: () => 250 });
    const shared = await race(handle.db, database, customers, { name: 'two variants, one batch', grams: 1250, wants: (i) => (i % 2 === 0 ? 1000 : 250) });
    return [lastBag, shared];
  } finally {
    await handle.close();
  }
}

async function race(db: DB, database: string, customers: Customer[], { name, grams, wants }: { name: string; grams: number; wants: (i: number) => 250 | 1000 }): Promise<RaceRow> {
  const label = `Race ${name} ${Date.now()}`;
  const productId = await whenFree(() => createProduct(db, {
    category: 'wholeBean',
    options: ['size'],
    variants: [
      { netWeightGrams: 250, priceCents: 1590 },
      { netWeightGrams: 1000, priceCents: 5390 },
    ],
    translations: { en: { name: label, description: 'The bench races for it.' } },
  }));
  const subject = { productId, label };
  await whenFree(() => setStockMode(db, owner, subject, { mode: 'batches', sellWithinDays: null }));
  await whenFree(() => addBatch(db, owner, subject, { roastedOn: new Date().toISOString().slice(0, 10), grams }));
  await whenFree(() => bumpStoredCatalogVersion(db));
  const variants = (await variantsOf(db, [productId])).get(productId) ?? [];
  const variantOf = (i: number) => variants.find((v) => v.netWeightGrams === wants(i))!.id;

  const problems = new Map<string, number>();
  const problem = (what: string) => problems.set(what, (problems.get(what) ?? 0) + 1);
  // Everyone's cart holds just this coffee (what an earlier race left is removed first).
  await Promise.all(
    customers.map(async (customer, i) => {
      const cart = await customer.get('/cart');
      for (const [, variantId] of cart.body.matchAll(/name="variantId" value="([\w-]+)"/g)) {
        await customer.post('/cart', { intent: 'remove', variantId, redirectTo: '/cart' });
      }
      const add = await customer.post('/cart', { intent: 'add', variantId: variantOf(i), quantity: '1', redirectTo: '/cart' });
      if (add.status !== 302) problem(`add ${add.status}`);
    }),
  );
  // All at once to payment.
  const proceeded = await Promise.all(customers.map((customer) => customer.post('/checkout', { intent: 'proceed', ...ADDRESS })));
  let told = 0;
  const orders: Array<{ customer: Customer; orderId: string }> = [];
  proceeded.forEach((answer, i) => {
    const orderId = /name="orderId" value="([^"]+)"/.exec(answer.body)?.[1];
    if (answer.status === 200 && orderId) orders.push({ customer: customers[i], orderId });
    else if (answer.status === 409) told++;
    else problem(`proceed ${answer.status}`);
  });
  // Those with a payment page pay, all at once.
  const paidAnswers = await Promise.all(
    orders.map(({ customer, orderId }) => customer.post('/checkout', { intent: 'pay', orderId, cardNumber: '4242 4242 4242 4242', cardExpiry: CARD_EXPIRY, cardCvc: '123' })),
  );
  paidAnswers.forEach((answer) => {
    if (answer.status !== 302) problem(`pay ${answer.status}`);
  });

  // The database afterwards.
  const paidLines = await db
    .selectFrom('order_lines')
    .innerJoin('orders', 'orders.id', 'order_lines.order_id')
    .select(['order_lines.quantity', 'order_lines.net_weight_grams'])
    .where('order_lines.product_id', '=', productId)
    .where('orders.payment_status', '=', 'succeeded')
    .execute();
  const batches = await db.selectFrom('roast_batches').select(['grams_roasted', 'grams_left']).where('product_id', '=', productId).execute();
  const sold = await db.selectFrom('stock_movements').select((eb) => eb.fn.sum<number>('grams').as('grams')).where('product_id', '=', productId).where('kind', '=', 'sold').executeTakeFirst();
  const roastedGrams = batches.reduce((sum, b) => sum + b.grams_roasted, 0);
  const leftGrams = batches.reduce((sum, b) => sum + b.grams_left, 0);
  const soldGrams = -Number(sold?.grams ?? 0);
  const paidGrams = paidLines.reduce((sum, l) => sum + l.quantity * (l.net_weight_grams ?? 0), 0);
  const paid = paidLines.length;
  if (batches.some((b) => b.grams_left < 0)) problem('a batch below zero');
  if (paidGrams !== soldGrams) problem(`paid orders hold ${paidGrams} g but ${soldGrams} g were sold`);
  if (roastedGrams !== leftGrams + soldGrams) problem(`roasted ${roastedGrams} g ≠ left ${leftGrams} g + sold ${soldGrams} g`);
  const everyoneAnswered = told + orders.length === customers.length && paid === orders.length;
  const ok =
    problems.size === 0 &&
    everyoneAnswered &&
    soldGrams <= grams &&
    (grams === 250 ? paid === 1 && leftGrams === 0 : leftGrams < 250 && paid >= 2);
  return {
    database,
    race: name,
    customers: customers.length,
    paymentPages: orders.length,
    toldBeforePaying: told,
    paid,
    roastedGrams,
    soldGrams,
    leftGrams,
    problems: [...problems].map(([what, n]) => `${n}× ${what}`).join(', '),
    ok,
  };
}

export function printRaces(rows: RaceRow[]) {
  console.log(`\nNever a bag sold twice: ${CUSTOMERS} customers go to payment at once for the last of a coffee`);
  printTable(
    ['database', 'race', 'payment pages', 'told before paying', 'paid orders', 'roasted', 'sold', 'left', 'problems', 'verdict'],
    rows.map((r) => [r.database, r.race, String(r.paymentPages), String(r.toldBeforePaying), String(r.paid), `${r.roastedGrams} g`, `${r.soldGrams} g`, `${r.leftGrams} g`, r.problems, r.ok ? 'PASS' : 'FAIL']),
  );
}
