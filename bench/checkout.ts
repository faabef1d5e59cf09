/**
 * Completed checkouts per second with the `test` payment provider, stock kept and reserved as the shop does
 * (each payment holds its coffee, paying takes it; the demo shop is stocked up first): 50 customers, each signed up over HTTP,
 * check out over and over for BENCH_SECONDS, concurrently, with the plain form posts a browser without
 * JavaScript sends: add a product (POST /cart), Proceed to Payment with an address (POST /checkout
 * intent=proceed, whose page carries the order id), and Pay with 4242 4242 4242 4242 (POST /checkout
 * intent=pay, answered with a redirect to the success screen). Afterwards the database is read directly:
 * the customers' paid orders and the provider's succeeded charges (`test_payments`) must both equal the
 * completed checkouts, exactly.
 *
 * SQLite on the shop bench/run.ts started; PostgreSQL on a second shop over a fresh database (or, when the
 * role may not create databases, a fresh schema) at BENCH_DATABASE_URL or TEST_DATABASE_URL, dropped at the end.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { openDatabase } from '~/db/database.server';
import { percentile, startShop, stopShop } from './http';
import { printTable } from './report';
import { stockUp } from './stock';
import { type Customer, checkOutOnce, productIdsIn, signUpCustomers } from './shopper';

export type CheckoutRow = {
  database: 'sqlite' | 'postgres';
  customers: number;
  completed: number;
  perSecond: number;
  p50: number;
  p99: number;
  paidOrders: number;
  charges: number;
  /** Orders still pending afterwards (a checkout that failed between its steps). */
  pendingOrders: number;
  problems: string;
  /** Paid orders = succeeded charges = completed checkouts. */
  ok: boolean;
};

type Options = { seconds: number; customers?: number };

const CUSTOMERS = 50;

/** The figures for the running SQLite shop at `base` whose DATA_DIR is `dataDir`. */
export async function sqliteCheckouts(base: string, dataDir: string, options: Options): Promise<CheckoutRow> {
  await stockUp({ kind: 'sqlite', file: path.join(dataDir, 'kopi.db') });
  const run = await checkoutLoad(base, options);
  const counts = await countOrders({ kind: 'sqlite', file: path.join(dataDir, 'kopi.db') }, run.emailPrefix);
  return row('sqlite', run, counts);
}

/**
 * The figures on PostgreSQL: a second shop on `port` over a fresh database, or null with a note printed when
 * neither BENCH_DATABASE_URL nor TEST_DATABASE_URL is set.
 */
export async function postgresCheckouts(port: number, dataDir: string, options: Options): Promise<CheckoutRow | null> {
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!url) {
    console.log('\nCheckouts on PostgreSQL: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL)');
    return null;
  }
  const fresh = await freshDatabase(url);
  console.log(`\nCheckouts on PostgreSQL: a second shop over ${fresh.what}`);
  try {
    const shop = await startShop(port, dataDir, { DATABASE_URL: fresh.url });
    try {
      await stockUp({ kind: 'postgres', url: fresh.url });
      const run = await checkoutLoad(`http://127.0.0.1:${port}`, options);
      const counts = await countOrders({ kind: 'postgres', url: fresh.url }, run.emailPrefix);
      return row('postgres', run, counts);
    } finally {
      await stopShop(shop);
    }
  } finally {
    await fresh.drop();
  }
}

function row(database: CheckoutRow['database'], run: LoadRun, counts: Counts): CheckoutRow {
  const problems = [...run.problems].map(([what, count]) => `${count}× ${what}`);
  return {
    database,
    customers: run.customers,
    completed: run.completed,
    perSecond: run.completed / run.seconds,
    p50: run.latencies.length ? percentile(run.latencies, 50) : NaN,
    p99: run.latencies.length ? percentile(run.latencies, 99) : NaN,
    ...counts,
    problems: problems.join(', '),
    ok: run.completed > 0 && counts.paidOrders === run.completed && counts.charges === run.completed,
  };
}

// --- the load ---------------------------------------------------------------------------------------------

type LoadRun = {
  customers: number;
  completed: number;
  /** Milliseconds per completed checkout (add to cart, proceed, pay). */
  latencies: number[];
  /** Wall-clock seconds from the first checkout to the last one finishing. */
  seconds: number;
  problems: Map<string, number>;
  /** Every customer's email starts with it. */
  emailPrefix: string;
};

async function checkoutLoad(base: string, { seconds, customers: count = CUSTOMERS }: Options): Promise<LoadRun> {
  const home = await (await fetch(`${base}/`)).text();
  const productIds = productIdsIn(home);
  if (productIds.length === 0) throw new Error(`no product links on ${base}/`);

  const emailPrefix = `bench-checkout-${Date.now()}-`;
  const customers = await signUpCustomers(base, emailPrefix, count);

  const problems = new Map<string, number>();
  const problem = (what: string) => problems.set(what, (problems.get(what) ?? 0) + 1);
  const latencies: number[] = [];
  let completed = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;

  /** One checkout; true when it completed, otherwise the step that failed is counted in `problems`. */
  const checkOut = async (customer: Customer, productId: string): Promise<boolean> => {
    const outcome = await checkOutOnce(customer, productId);
    if (outcome.ok) return true;
    problem(outcome.problem);
    return false;
  };

  await Promise.all(
    customers.map(async (customer, i) => {
      let n = i;
      while (performance.now() < deadline) {
        const t0 = performance.now();
        try {
          if (await checkOut(customer, productIds[n++ % productIds.length])) {
            completed++;
            latencies.push(performance.now() - t0);
          }
        } catch (error) {
          problem(`network: ${(error as Error).message}`);
        }
      }
    }),
  );
  return { customers: count, completed, latencies, seconds: (performance.now() - started) / 1000, problems, emailPrefix };
}

// --- the database afterwards ------------------------------------------------------------------------------

type Counts = { paidOrders: number; charges: number; pendingOrders: number };

async function countOrders(database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string }, emailPrefix: string): Promise<Counts> {
  const { db, close } = openDatabase(database);
  try {
    const orders = await db
      .selectFrom('orders')
      .select(['payment_status', (eb) => eb.fn.countAll<number>().as('n')])
      .where('user_email', 'like', `${emailPrefix}%`)
      .groupBy('payment_status')
      .execute();
    const charges = await db
      .selectFrom('test_payments')
      .innerJoin('orders', 'orders.id', 'test_payments.order_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('orders.user_email', 'like', `${emailPrefix}%`)
      .where('test_payments.status', '=', 'succeeded')
      .executeTakeFirstOrThrow();
    const of = (status: string) => Number(orders.find((o) => o.payment_status === status)?.n ?? 0);
    return { paidOrders: of('succeeded'), charges: Number(charges.n), pendingOrders: of('pending') };
  } finally {
    await close();
  }
}

/**
 * A database nobody uses, reachable with `url`'s credentials: `kopi_bench_<time>` when the role may create
 * databases, otherwise a schema of that name in `url`'s database (put first on the search path).
 */
export async function freshDatabase(url: string): Promise<{ url: string; what: string; drop: () => Promise<void> }> {
  const name = `kopi_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
    const fresh = new URL(url);
    fresh.pathname = `/${name}`;
    return {
      url: fresh.href,
      what: `the new database ${name}`,
      drop: async () => {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          await client.query(`drop database if exists ${name} with (force)`);
        } catch (error) {
          // PostgreSQL before 13 has no FORCE; the shop and the counting pool are closed by now anyway.
          if ((error as { code?: string }).code !== '42601') throw error;
          await client.query(`drop database if exists ${name}`);
        } finally {
          await client.end();
        }
      },
    };
  } catch (error) {
    if ((error as { code?: string }).code !== '42501') throw error; // anything but "permission denied"
    await admin.query(`create schema ${name}`);
    const fresh = new URL(url);
    fresh.searchParams.set('options', `-c search_path=${name}`);
    return {
      url: fresh.href,
      what: `the new schema ${name} (the role may not create databases)`,
      drop: async () => {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        await client.query(`drop schema if exists ${name} cascade`).finally(() => client.end());
      },
    };
  } finally {
    await admin.end();
  }
}

/** Prints the table and the verdict of each database. */
export function printCheckouts(rows: CheckoutRow[], seconds: number) {
  console.log(`\nCheckouts with the test provider: ${rows[0]?.customers ?? CUSTOMERS} concurrent customers, ${seconds} s, add to cart → proceed → pay`);
  printTable(
    ['database', 'completed', 'checkouts/s', 'p50', 'p99', 'paid orders', 'charges', 'pending', 'problems', 'counts'],
    rows.map((r) => [
      r.database,
      String(r.completed),
      r.perSecond.toFixed(1),
      `${r.p50.toFixed(0)} ms`,
      `${r.p99.toFixed(0)} ms`,
      String(r.paidOrders),
      String(r.charges),
      String(r.pendingOrders),
      r.problems,
      r.ok ? 'PASS' : 'FAIL',
    ]),
  );
}
