/**
 * Invoices through KSeF at peak (issue 51): 200 business invoices issued at once, then sent by the shop's KSeF
 * worker to the KSeF stand-in (tests/doubles/ksef.js, its own process) — on SQLite by one node, on PostgreSQL by two
 * (two processes, each with its own connections: bench/ksef-node.ts). Reported: how long until every one had its
 * KSeF number, how many distinct numbers, the most times the stand-in received one invoice number, and whether the
 * shop's numbering has a gap.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase, migrateToLatest } from '~/db/database.server';
import { payWithCard, startPayment } from '~/modules/checkout/index.server';
import { issueInvoice, sellerOf } from '~/modules/invoices/index.server';
import { recordKsefPolicy } from '~/modules/ksef/index.server';
import { TEST_CARDS, createTestPaymentProvider } from '~/modules/payments/index.server';
import { spawnStandIn } from '../tests/doubles/spawn';
import { address, courier, createCoffee, createUser, fillCart } from '../tests/fixtures/shop';
import { freshDatabase } from './checkout';

export type KsefRow = { database: string; nodes: number; invoices: number; issueMs: number; acceptedMs: number; numbers: number; mostSends: number; gaps: number; problems: string };

const INVOICES = 200;
const LIMIT_MS = 120_000;
const seller = sellerOf({ legalName: 'Kopi Palarnia sp. z o.o.', address: 'ul. Mokotowska 12\n00-640 Warszawa', taxId: '5260250274' })!;
const token = `20261204-EC-0123456789-ABCDEF0123-4F|nip-${seller.taxId}|${'b'.repeat(64)}`;
const card = { number: TEST_CARDS.success, expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: '123' };
const buyer = { name: 'Kawiarnia Ziarno sp. z o.o.', taxId: '7250018200', country: 'PL', address: 'ul. Piotrkowska 100', zipCode: '90-004', city: 'Łódź' };

export async function ksefFigures({ port, dataDir }: { port: number; dataDir: string }): Promise<KsefRow[]> {
  const rows: KsefRow[] = [];
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  rows.push(await atPeak('sqlite', path.join(dataDir, 'kopi.db'), 1, port));
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!url) {
    console.log('\nInvoices through KSeF on PostgreSQL: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL)');
    return rows;
  }
  const fresh = await freshDatabase(url);
  try {
    rows.push(await atPeak('postgres', fresh.url, 2, port));
  } finally {
    await fresh.drop();
  }
  return rows;
}

async function atPeak(database: 'sqlite' | 'postgres', where: string, nodes: number, port: number): Promise<KsefRow> {
  const handle = openDatabase(database === 'postgres' ? { kind: 'postgres', url: where } : { kind: 'sqlite', file: where });
  const db = handle.db;
  const standIn = await spawnStandIn('ksef.js', port);
  const workers: ChildProcess[] = [];
  try {
    await migrateToLatest(db);
    await recordKsefPolicy(db, { sender: 'kopi', consumerInvoices: false });
    const provider = createTestPaymentProvider(db);
    const services = { db, payments: provider, contactTo: 'shop@kopi.test', publicUrl: 'https://kopi.test', kickMail: () => {} };
    const coffee = await createCoffee(db, 'Bench Gayo', 2460);
    const orders: string[] = [];
    for (let i = 0; i < INVOICES; i++) {
      const user = await createUser(db);
      const cartId = await fillCart(db, user.id, [[coffee, 1]]);
      const started = await startPayment(db, provider, { userId: user.id, email: user.email, locale: 'pl', currency: 'PLN', cartId, address, delivery: courier });
      if (!started.ok) throw new Error(started.reason);
      await payWithCard(services, { userId: user.id, orderId: started.orderId, card });
      orders.push(started.orderId);
    }
    for (let i = 0; i < nodes; i++) {
      workers.push(spawn(process.execPath, ['--import', 'tsx', 'bench/ksef-node.ts', where, `http://127.0.0.1:${port}/v2`, seller.taxId, token], { stdio: ['ignore', 'ignore', 'inherit'] }));
    }
    const started = performance.now();
    const issued = await Promise.all(orders.map((orderId) => issueInvoice(db, { orderId, buyer, seller, by: { admin: { id: null, email: 'bench@kopi.test' } } })));
    const issueMs = performance.now() - started;
    const problems = issued.filter((r) => !r.ok).length;
    let accepted = 0;
    while (performance.now() - started < LIMIT_MS) {
      accepted = Number((await db.selectFrom('ksef_submissions').select((eb) => eb.fn.countAll().as('n')).where('status', '=', 'accepted').executeTakeFirstOrThrow()).n);
      if (accepted >= INVOICES) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const acceptedMs = performance.now() - started;
    const numbers = new Set((await db.selectFrom('ksef_submissions').select('ksef_number').where('status', '=', 'accepted').execute()).map((r) => r.ksef_number)).size;
    const { sends } = (await (await fetch(`http://127.0.0.1:${port}/__requests`)).json()) as { sends: Record<string, number> };
    const seqs = (await db.selectFrom('invoices').select('seq').where('kind', '=', 'invoice').execute()).map((r) => Number(r.seq)).sort((a, b) => a - b);
    const gaps = seqs.filter((seq, i) => seq !== i + 1).length;
    return {
      database,
      nodes,
      invoices: accepted,
      issueMs,
      acceptedMs,
      numbers,
      mostSends: Math.max(0, ...Object.values(sends)),
      gaps,
      problems: [problems ? `${problems} not issued` : '', accepted < INVOICES ? `${INVOICES - accepted} not accepted within ${LIMIT_MS / 1000} s` : ''].filter(Boolean).join(', '),
    };
  } finally {
    for (const worker of workers) worker.kill('SIGTERM');
    standIn.kill();
    await handle.close();
  }
}
