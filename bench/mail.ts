/**
 * Mail at peak: checkouts at a steady rate (10 a second) for a minute against the production server, whose
 * SMTP_URL points at an SMTP server in this process. Each checkout queues two messages (the customer's
 * confirmation and the shop's notice) in the payment's transaction; each is matched by its Message-ID (the
 * outbox row's id) to the moment the SMTP server accepted it. Reported: paid → accepted p50 / p99 / max, how
 * long after the last checkout the queue was empty, and any message received twice.
 *
 * SQLite on a shop of its own; PostgreSQL on a second shop over a fresh database when BENCH_DATABASE_URL or
 * TEST_DATABASE_URL is set.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { openDatabase } from '~/db/database.server';
import { freshDatabase } from './checkout';
import { percentile, startShop, stopShop } from './http';
import { type Customer, checkOutOnce, productIdsIn, signUpCustomers } from './shopper';
import { stockUp } from './stock';

export type MailRow = {
  database: 'sqlite' | 'postgres';
  checkouts: number;
  perSecond: number;
  messages: number;
  p50: number;
  p99: number;
  max: number;
  /** Milliseconds from the last checkout's answer to an empty queue. */
  drainMs: number;
  duplicates: number;
  problems: string;
};

type Options = { seconds: number; rate: number; port: number; dataDir: string };

export async function mailFigures({ sqlitePort, postgresPort, dataDir, seconds, rate }: { sqlitePort: number; postgresPort: number; dataDir: string; seconds: number; rate: number }): Promise<MailRow[]> {
  const rows = [await mailAtPeak('sqlite', { seconds, rate, port: sqlitePort, dataDir: path.join(dataDir, 'sqlite') })];
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!url) {
    console.log('\nMail at peak on PostgreSQL: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL)');
    return rows;
  }
  const fresh = await freshDatabase(url);
  try {
    rows.push(await mailAtPeak('postgres', { seconds, rate, port: postgresPort, dataDir: path.join(dataDir, 'postgres') }, fresh.url));
  } finally {
    await fresh.drop();
  }
  return rows;
}

async function mailAtPeak(database: MailRow['database'], { seconds, rate, port, dataDir }: Options, databaseUrl?: string): Promise<MailRow> {
  const smtp = await startSmtpServer();
  const shop = await startShop(port, dataDir, { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
  const db = openDatabase(databaseUrl ? { kind: 'postgres', url: databaseUrl } : { kind: 'sqlite', file: path.join(dataDir, 'kopi.db') });
  const base = `http://127.0.0.1:${port}`;
  const problems = new Map<string, number>();
  const problem = (what: string) => problems.set(what, (problems.get(what) ?? 0) + 1);
  try {
    await stockUp(databaseUrl ? { kind: 'postgres', url: databaseUrl } : { kind: 'sqlite', file: path.join(dataDir, 'kopi.db') });
    const home = await (await fetch(`${base}/`)).text();
    const productIds = productIdsIn(home);
    const customers = await signUpCustomers(base, `bench-mail-${Date.now()}-`, 60);
    const since = new Date().toISOString();

    // Open loop: a checkout starts every 1/rate s on a customer who is not already checking out.
    const idle: Customer[] = [...customers];
    const running = new Set<Promise<void>>();
    let checkouts = 0;
    const started = performance.now();
    for (let i = 0; performance.now() - started < seconds * 1000; i++) {
      const due = started + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const customer = idle.pop();
      if (!customer) {
        problem('no idle customer (the shop fell behind)');
        continue;
      }
      const run: Promise<void> = checkOutOnce(customer, productIds[i % productIds.length])
        .then((outcome) => {
          if (outcome.ok) checkouts++;
          else problem(outcome.problem);
        })
        .catch((error: Error) => void problem(`network: ${error.message}`))
        .finally(() => {
          idle.push(customer);
          running.delete(run);
        });
      running.add(run);
    }
    await Promise.all(running);
    const loadSeconds = (performance.now() - started) / 1000;
    const loadEnded = performance.now();

    let drainMs = NaN;
    while (performance.now() - loadEnded < 120_000) {
      const queued = await db.db.selectFrom('mail_outbox').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'queued').executeTakeFirstOrThrow();
      if (Number(queued.n) === 0) {
        drainMs = performance.now() - loadEnded;
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }

    const queuedRows = await db.db.selectFrom('mail_outbox').select(['id', 'created_at']).where('created_at', '>=', since).execute();
    const latencies: number[] = [];
    for (const row of queuedRows) {
      const accepted = smtp.accepted.get(row.id);
      if (accepted === undefined) problem('a queued message never arrived');
      else latencies.push(accepted - Date.parse(row.created_at));
    }
    return {
      database,
      checkouts,
      perSecond: checkouts / loadSeconds,
      messages: latencies.length,
      p50: latencies.length ? percentile(latencies, 50) : NaN,
      p99: latencies.length ? percentile(latencies, 99) : NaN,
      max: latencies.length ? Math.max(...latencies) : NaN,
      drainMs,
      duplicates: smtp.duplicates,
      problems: [...problems].map(([what, n]) => `${n}× ${what}`).join(', '),
    };
  } finally {
    await stopShop(shop);
    await db.close();
    await smtp.close();
  }
}

/** An SMTP server that notes when it accepted each message, by the outbox id in its Message-ID. */
async function startSmtpServer() {
  const accepted = new Map<string, number>();
  let duplicates = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    maxClients: 100,
    onData(stream, _session, callback) {
      let head = '';
      stream.on('data', (chunk: Buffer) => {
        if (head.length < 8192) head += chunk.toString('utf8');
      });
      stream.on('end', () => {
        const id = /^Message-ID: <([^@>]+)@/im.exec(head)?.[1];
        if (id) {
          if (accepted.has(id)) duplicates++;
          else accepted.set(id, Date.now());
        }
        callback();
      });
    },
  });
  server.on('error', () => {}); // a connection reset by a stopping shop ends that connection, not the server
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    accepted,
    get duplicates() {
      return duplicates;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
