/**
 * `npm run test:crash`: checkouts while the shop is killed. The production server runs as a child process
 * against a Stripe stand-in and an SMTP server, each in its own process, with the demo catalogue stocked up far
 * beyond the load and a payment's stock held for one minute (STOCK_RESERVATION_MINUTES=1). Eight customers check
 * out over HTTP (add to cart, proceed, confirm the PaymentIntent as Stripe.js would, come back to /success; every
 * other customer shops in złoty and pays by BLIK, confirmed in the "banking app" 1.5 s later and reported only by
 * Stripe's signed webhook, after a look at the waiting page),
 * retrying each step as a browser would while the shop is down, and two more go to payment and walk away (one as
 * the load starts, one after it); the shop is SIGKILLed 2–6 s after each start, whatever it is doing then
 * (warming up, serving), every fifth time 0.1–0.8 s after it (still starting), and restarted, CRASH_KILLS times
 * (default 30). Then everything settles
 * (webhooks delivered, mail sent, and the walkers' holds let go by the shop's sweep once their minute is up) and
 * is reconciled:
 *   - every charge (a succeeded PaymentIntent) has exactly one paid order, and every paid order its charge;
 *   - no order is left pending with a succeeded charge;
 *   - every paid order holds the one bag that was added (a re-sent "Add to cart" adds once);
 *   - every paid order's two mails (the confirmation and the shop's notice) reached the SMTP server; messages
 *     received more than once are counted by Message-ID (at least once is the promise; see
 *     docs/decisions/0012-mail-at-peak.md);
 *   - the stock adds up (tests/crash/stock-ledger.ts): grams roasted = grams left + grams sold to paid orders
 *     (± the owner's corrections and returns), each batch and counted variant equal to its ledger and never below
 *     zero; every paid order's coffee taken exactly once, an unpaid order's never; no reservation outlives its
 *     expiry, and the walkers' were let go;
 *   - invoices through KSeF (docs/decisions/0034): two customers ask for an invoice with every order, and the shop
 *     sends each to the KSeF stand-in (tests/doubles/ksef.js, its own process, outliving the kills): every paid order
 *     of theirs has exactly one invoice, every invoice exactly one KSeF number (all distinct), and the stand-in
 *     received no invoice number twice.
 * Runs on SQLite and, when TEST_DATABASE_URL is set, on PostgreSQL side by side, each with its own shop, stand-in
 * and SMTP server on ports of its own (CRASH_DATABASES=sqlite,postgres chooses): most of a run is waiting (the
 * kills' intervals, the settling), so the two take little longer together than one alone. The kills are counted by
 * what the shop was doing: still starting (not listening yet: loading, migrating, recovering its outbox) or serving
 * requests (warming up, when /readyz still says 503 but customers are answered, or ready); a run whose kills never
 * hit one of the two fails: a busier machine must not quietly turn every kill into one of a single kind.
 * Exits non-zero on any lost or doubled order, lost mail, or stock that does not add up.
 */
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { openDatabase } from '~/db/database.server';
import { freshDatabase } from '../../bench/checkout';
import { ADDRESS, Customer, productIdsIn } from '../../bench/shopper';
import { stockUp } from '../../bench/stock';
import { recordTiming } from '../setup/timings.js';
import { reconcileStock } from './stock-ledger';
import { isKsefNumber } from '~/modules/invoices/ksef';
import { spawnStandIn } from '../doubles/spawn';

const KILLS = Number(process.env.CRASH_KILLS ?? 30);
const CUSTOMERS = Number(process.env.CRASH_CUSTOMERS ?? 8);
/** Each database's run has its ports: the shop, the Stripe stand-in and the SMTP server. */
const PORTS = { sqlite: { shop: 3521, stripe: 3522, smtp: 3523, ksef: 3524, nbp: 3525 }, postgres: { shop: 3531, stripe: 3532, smtp: 3533, ksef: 3534, nbp: 3535 } };
/** Customers whose index is a multiple of this ask for an invoice with every order (card payers, in euros). */
const INVOICE_EVERY = 4;
const SELLER_NIP = '5260250274';
const WEBHOOK_SECRET = 'whsec_kopi_crash_test';
/** How long a payment holds its stock (STOCK_RESERVATION_MINUTES), and how often the shop sweeps expired holds. */
const RESERVATION_MINUTES = 1;
const SWEEP_INTERVAL_MS = 30_000;
const SHOP_ADDRESS = 'shop@kopi.test';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (...parts: unknown[]) => console.log(`[crash ${new Date().toISOString().slice(11, 19)}]`, ...parts);

type Outcome = { database: string; failures: string[]; counts: Record<string, number> };

async function main() {
  if (!fs.existsSync('build/server/index.js')) throw new Error('run `npm run build` first (npm run test:crash does)');
  const url = process.env.TEST_DATABASE_URL;
  const wanted = (process.env.CRASH_DATABASES ?? (url ? 'sqlite,postgres' : 'sqlite')).split(',');
  const outcomes: Outcome[] = await Promise.all(
    wanted.map(async (database) => {
      if (database !== 'postgres') return crashRun('sqlite');
      if (!url) throw new Error('CRASH_DATABASES names postgres but TEST_DATABASE_URL is not set');
      const fresh = await freshDatabase(url);
      try {
        return await crashRun('postgres', fresh.url);
      } finally {
        await fresh.drop();
      }
    }),
  );
  console.log('\nCrash test');
  for (const outcome of outcomes) {
    recordTiming(`crash test on ${outcome.database === 'sqlite' ? 'SQLite' : 'PostgreSQL'}`, outcome.counts.seconds, `${outcome.counts.kills} kills, ${outcome.counts.checkouts} checkouts`);
    console.log(`  ${outcome.database}: ${Object.entries(outcome.counts).map(([k, v]) => `${k} ${v}`).join(', ')}`);
    for (const failure of outcome.failures) console.log(`    FAIL ${failure}`);
  }
  const failed = outcomes.some((o) => o.failures.length > 0);
  console.log(failed ? '\nFAIL: orders or mail were lost or doubled, or the stock does not add up' : '\nPASS: every charge has one paid order, every mail arrived, the stock adds up');
  process.exitCode = failed ? 1 : 0;
}

async function crashRun(database: 'sqlite' | 'postgres', databaseUrl?: string): Promise<Outcome> {
  const started = performance.now();
  const ports = PORTS[database];
  const base = `http://127.0.0.1:${ports.shop}`;
  const dataDir = path.resolve('test-results', `crash-${database}`);
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  const mailLog = path.join(dataDir, 'received-mail.jsonl');
  log(`${database}: ${KILLS} kills, ${CUSTOMERS} customers`);

  const smtp = await startHelper('smtp-sink.ts', [String(ports.smtp), mailLog]);
  const ksef = await spawnStandIn('ksef.js', ports.ksef);
  const nbp = await spawnStandIn('nbp.js', ports.nbp);
  const stripe = await startHelper('stripe-stand-in.ts', [String(ports.stripe), `${base}/webhooks/stripe`, WEBHOOK_SECRET]);
  // The helpers must outlive every kill of the shop; one that dies makes the run meaningless.
  const helperDied: string[] = [];
  let finished = false;
  for (const [name, child] of [['the SMTP server', smtp], ['the Stripe stand-in', stripe], ['the KSeF stand-in', ksef], ['the NBP stand-in', nbp]] as const) {
    child.once('exit', (code) => {
      if (!finished) helperDied.push(`${name} exited (code ${code}) during the run`);
    });
  }
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    NODE_ENV: 'production',
    PORT: String(ports.shop),
    HOST: '127.0.0.1',
    PUBLIC_URL: base,
    DATA_DIR: path.join(dataDir, 'data'),
    SESSION_SECRET: 'the-crash-test-signs-its-cookies-with-this',
    LOG_LEVEL: process.env.CRASH_LOG_LEVEL ?? 'warn',
    RATE_LIMIT_FACTOR: '100000',
    PAYMENT_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: 'sk_test_kopi',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_kopi',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: `http://127.0.0.1:${ports.stripe}`,
    SMTP_URL: `smtp://127.0.0.1:${ports.smtp}`,
    CONTACT_TO: SHOP_ADDRESS,
    STOCK_RESERVATION_MINUTES: String(RESERVATION_MINUTES),
    // Invoices: the seller, KSeF's stand-in to send them to, NBP's for the złoty VAT of those in euros.
    SHOP_LEGAL_NAME: 'Kopi Palarnia sp. z o.o.',
    SHOP_ADDRESS: 'ul. Mokotowska 12, 00-640 Warszawa',
    SHOP_TAX_ID: SELLER_NIP,
    NBP_API_URL: `http://127.0.0.1:${ports.nbp}`,
    KSEF_SENDER: 'kopi',
    KSEF_ENV: `http://127.0.0.1:${ports.ksef}/v2`,
    KSEF_TOKEN: `20261204-EC-0123456789-ABCDEF0123-4F|nip-${SELLER_NIP}|${'d'.repeat(64)}`,
  };
  delete env.TEST_DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  else delete env.DATABASE_URL;

  let shop = await startShop(env);
  const shopDatabase = databaseUrl ? ({ kind: 'postgres', url: databaseUrl } as const) : ({ kind: 'sqlite', file: path.join(env.DATA_DIR, 'kopi.db') } as const);
  // The load must never run the shop dry: a run measures checkouts, not "sold out" answers.
  await stockUp(shopDatabase);
  const emailPrefix = `crash-${database}-${Date.now()}-`;
  const customers: Customer[] = [];
  const invoiceAsking = new Set<string>();
  for (let i = 0; i < CUSTOMERS; i++) {
    if (i % INVOICE_EVERY === 0) invoiceAsking.add(`${emailPrefix}${i}@example.test`);
    const customer = await signUp(new Customer(base, `${emailPrefix}${i}@example.test`));
    // Every other customer shops in złoty (and so may pay by BLIK).
    if (i % 2 === 1) await untilAnswered(() => customer.post('/currency', { currency: 'PLN', redirectTo: '/' }));
    customers.push(customer);
  }
  // Two more go to payment and walk away, one as the load starts (the shop is killed again and again under its
  // hold) and one after it: only the sweep lets their holds go, once their minute is up.
  const walkers = [await signUp(new Customer(base, `${emailPrefix}walker-0@example.test`)), await signUp(new Customer(base, `${emailPrefix}walker-1@example.test`))];
  const home = await untilAnswered(() => fetch(`${base}/`).then(async (r) => ({ status: r.status, body: await r.text() })));
  const productIds = productIdsIn(home.body);

  // The killer: SIGKILL 2–6 s after each start, whatever the shop is doing then (warming up or serving: a start
  // listens within about a second), and every fifth 0.1–0.8 s after it, while it is still starting (loading,
  // checking its migrations, recovering its outbox); KILLS times, then one last start that is left to run.
  let kills = 0;
  /** Kills of a shop not listening yet (starting, migrating) and of one serving requests (warming up or ready). */
  const killed = { starting: 0, 'warming up': 0, ready: 0 };
  let stopping = false;
  const killer = (async () => {
    let state = watchState(shop, base);
    while (kills < KILLS) {
      await sleep(kills % 5 === 4 ? 100 + Math.random() * 700 : 2000 + Math.random() * 4000);
      const exited = new Promise((resolve) => (shop.exitCode !== null ? resolve(null) : shop.once('exit', resolve)));
      killed[state()]++;
      shop.kill('SIGKILL');
      await exited;
      kills++;
      if (kills % 10 === 0) log(`${database}: ${kills} kills (${killed.starting} while starting, ${killed['warming up']} while warming up, ${killed.ready} when ready)`);
      shop = kills < KILLS ? spawnShop(env) : await startShop(env);
      state = watchState(shop, base);
    }
    await sleep(3000);
    stopping = true;
  })();

  const counts = { checkouts: 0, 'of which by BLIK': 0, abandoned: 0 };
  // A BLIK order is paid only once the bank confirms (the webhook, or the waiting page reading the payment).
  const problems: string[] = [];
  const workers = customers.map(async (customer, w) => {
    for (let n = w; !stopping; n++) {
      const byBlik = w % 2 === 1;
      const result = await checkOut(customer, productIds[n % productIds.length], byBlik);
      if (result === 'paid') {
        counts.checkouts++;
        if (byBlik) counts['of which by BLIK']++;
      }
      else {
        counts.abandoned++;
        if (problems.length < 20) problems.push(result);
      }
    }
  });
  const firstWalk = walkAway(walkers[0], productIds[0]);
  await killer;
  await Promise.all(workers);
  const walks = [await firstWalk, await walkAway(walkers[1], productIds[1 % productIds.length])];
  const loadEnded = Date.now();
  log(`${database}: ${counts.checkouts} checkouts, ${counts.abandoned} abandoned; settling`);

  // Settle: every BLIK payment confirmed in its "banking app", every webhook delivered and every queued mail sent.
  const { db, close } = openDatabase(shopDatabase);
  const settleBy = Date.now() + 90_000;
  let settled = false;
  while (Date.now() < settleBy) {
    const state = await stripeState();
    const queued = await db.selectFrom('mail_outbox').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'queued').executeTakeFirstOrThrow();
    const toKsef = await db.selectFrom('ksef_submissions').select((eb) => eb.fn.countAll<number>().as('n')).where('status', 'in', ['waiting', 'queued', 'unsure', 'sent']).executeTakeFirstOrThrow();
    if (state.undelivered === 0 && Number(queued.n) === 0 && Number(toKsef.n) === 0 && !state.intents.some((i) => i.status === 'requires_action')) {
      settled = true;
      break;
    }
    await sleep(250);
  }
  // Every hold of a checkout that was not paid expires within its minute of the load's end, and the sweep lets it
  // go at most one interval later; an interval more of slack.
  const holdsGoneBy = loadEnded + RESERVATION_MINUTES * 60_000 + 2 * SWEEP_INTERVAL_MS;
  while (Date.now() < holdsGoneBy) {
    const live = await db.selectFrom('stock_reservations').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'live').executeTakeFirstOrThrow();
    if (Number(live.n) === 0) break;
    await sleep(500);
  }

  // Reconcile.
  const failures: string[] = [...helperDied];
  if (!settled) failures.push('webhooks, mail or invoices for KSeF still waiting 90 s after the load');
  if (killed.starting === 0) failures.push('no kill hit the shop while it was starting: the run did not test that fault');
  if (killed['warming up'] + killed.ready === 0) failures.push('no kill hit the shop while it was serving: the run did not test that fault');
  const state = await stripeState();
  const charges = state.intents.filter((i) => i.status === 'succeeded');
  const orders = await db.selectFrom('orders').select(['id', 'payment_status', 'payment_intent_id', 'user_email']).where('user_email', 'like', `${emailPrefix}%`).execute();
  const paid = orders.filter((o) => o.payment_status === 'succeeded');
  const ordersById = new Map(orders.map((o) => [o.id, o]));
  for (const charge of charges) {
    const order = ordersById.get(charge.metadata.order_id);
    if (!order) failures.push(`charge ${charge.id} has no order`);
    else if (order.payment_status !== 'succeeded') failures.push(`order ${order.id} is ${order.payment_status} although its charge ${charge.id} succeeded`);
    else if (order.payment_intent_id !== charge.id) failures.push(`order ${order.id} is paid by ${order.payment_intent_id}, not by its charge ${charge.id}`);
  }
  const charged = new Set(charges.map((c) => c.metadata.order_id));
  for (const order of paid) if (!charged.has(order.id)) failures.push(`order ${order.id} is paid without a charge`);
  if (paid.length !== charges.length) failures.push(`${charges.length} charges but ${paid.length} paid orders`);

  const bags = paid.length
    ? await db.selectFrom('order_lines').select(['order_id', (eb) => eb.fn.sum<number>('quantity').as('n')]).where('order_id', 'in', paid.map((o) => o.id)).groupBy('order_id').execute()
    : [];
  const doubled = bags.filter((b) => Number(b.n) !== 1);
  if (doubled.length) failures.push(`${doubled.length} paid orders hold more than the one bag added (e.g. ${doubled[0].order_id}: ${doubled[0].n})`);

  const outbox = await db.selectFrom('mail_outbox').select(['id', 'to_address', 'subject', 'status', 'attempts', 'last_error', 'next_attempt_at', 'claim_token', 'created_at']).execute();
  const received = fs.existsSync(mailLog)
    ? fs.readFileSync(mailLog, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as { messageId: string; to: string[]; at: number })
    : [];
  const timesReceived = new Map<string, number>();
  for (const mail of received) timesReceived.set(mail.messageId, (timesReceived.get(mail.messageId) ?? 0) + 1);
  const idOf = (mail: string) => /^<([^@>]+)@/.exec(mail)?.[1] ?? mail;
  const receivedIds = new Set([...timesReceived.keys()].map(idOf));
  const lost = outbox.filter((row) => !receivedIds.has(row.id));
  if (lost.length) {
    failures.push(`${lost.length} queued mails never arrived (at ${new Date().toISOString()}), e.g.:`);
    for (const row of lost.slice(0, 3)) failures.push(`  ${JSON.stringify(row)}`);
  }
  // An invoice's own mail (its subject names its number) is counted with the invoices below.
  const toCustomers = outbox.filter((row) => row.to_address.startsWith(emailPrefix) && !/\bFV\/\d{4}\//.test(row.subject)).length;
  const toShop = outbox.filter((row) => row.to_address === SHOP_ADDRESS).length;
  if (toCustomers !== paid.length) failures.push(`${paid.length} paid orders but ${toCustomers} confirmation mails`);
  if (toShop !== paid.length) failures.push(`${paid.length} paid orders but ${toShop} order notices to the shop`);
  const duplicates = [...timesReceived.values()].filter((n) => n > 1).length;
  // Paid → mail: from the message's queueing (in the transaction that marks the order paid) to its first arrival.
  const firstArrival = new Map<string, number>();
  for (const mail of received) firstArrival.set(idOf(mail.messageId), Math.min(firstArrival.get(idOf(mail.messageId)) ?? Infinity, mail.at));
  const latencies = outbox.flatMap((row) => (firstArrival.has(row.id) ? [firstArrival.get(row.id)! - Date.parse(row.created_at)] : [])).sort((a, b) => a - b);
  const percentile = (p: number) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] : 0);
  const stock = await reconcileStock(db, { emailPrefix, boughtProductIds: productIds, reservationMinutes: RESERVATION_MINUTES });
  failures.push(...stock.failures);
  const invoicing = await reconcileInvoices(db, paid.filter((o) => invoiceAsking.has(o.user_email)).map((o) => o.id));
  failures.push(...invoicing.failures);
  for (const [i, walk] of walks.entries()) {
    if (walk !== 'held') failures.push(`walker ${i} could not go to payment: ${walk}`);
    const holds = await db
      .selectFrom('stock_reservations')
      .select('status')
      .where('order_id', 'in', (eb) => eb.selectFrom('orders').select('id').where('user_email', '=', walkers[i].email))
      .execute();
    if (walk === 'held' && (holds.length === 0 || holds.some((h) => h.status !== 'released'))) {
      failures.push(`walker ${i} walked away from payment, but their holds are not all let go: ${holds.map((h) => h.status).join(', ') || 'none'}`);
    }
  }
  if (problems.length) log(`${database}: abandoned checkouts, first ones: ${problems.slice(0, 5).join('; ')}`);

  finished = true;
  await close();
  shop.kill('SIGTERM');
  await new Promise((resolve) => (shop.exitCode !== null ? resolve(null) : shop.once('exit', resolve)));
  stripe.kill();
  smtp.kill();
  ksef.kill();
  nbp.kill();
  return {
    database,
    failures,
    counts: {
      kills,
      'killed while starting': killed.starting,
      'killed while warming up': killed['warming up'],
      'killed when ready': killed.ready,
      seconds: Math.round((performance.now() - started) / 1000),
      checkouts: counts.checkouts,
      'paid by BLIK': counts['of which by BLIK'],
      abandoned: counts.abandoned,
      charges: charges.length,
      'paid orders': paid.length,
      'pending orders': orders.length - paid.length,
      'walked away from payment': walks.filter((w) => w === 'held').length,
      'mails queued': outbox.length,
      'mails received': received.length,
      'received twice (same Message-ID)': duplicates,
      'paid → mail p50 ms': percentile(50),
      'paid → mail p99 ms': percentile(99),
      'paid → mail max ms': latencies.at(-1) ?? 0,
      ...stock.counts,
      ...invoicing.counts,
    },
  };

  /** Goes to payment (which holds the coffee) and walks away; 'held' or what stopped it. */
  async function walkAway(customer: Customer, productId: string): Promise<string> {
    const add = await untilAnswered(() => customer.post('/cart', { intent: 'add', productId, quantity: '1', redirectTo: '/cart', requestKey: randomBytes(16).toString('base64url') }));
    if (add.status !== 302) return `add to cart answered ${add.status}`;
    const proceed = await untilAnswered(() => customer.post('/checkout', { intent: 'proceed', ...ADDRESS }));
    return proceed.status === 200 && /pi_\w+?_secret_/.test(proceed.body) ? 'held' : `proceed answered ${proceed.status}`;
  }

  /** One checkout as a browser would retry it; 'paid' (for BLIK: confirmed, the webhook to come) or what stopped it. */
  async function checkOut(customer: Customer, productId: string, byBlik: boolean): Promise<string> {
    const requestKey = randomBytes(16).toString('base64url');
    const add = await untilAnswered(() => customer.post('/cart', { intent: 'add', productId, quantity: '1', redirectTo: '/cart', requestKey }));
    if (add.status !== 302) return `add to cart answered ${add.status}`;
    // A café's invoice, its billing address the delivery one.
    const invoice: Record<string, string> = invoiceAsking.has(customer.email) ? { invoice: 'on', invoiceName: 'Kawiarnia Ziarno sp. z o.o.', invoiceTaxId: '7250018200', invoiceCountry: 'PL' } : {};
    const proceed = await untilAnswered(() => customer.post('/checkout', { intent: 'proceed', ...ADDRESS, ...invoice }));
    const paymentId = /(pi_\w+?)_secret_/.exec(proceed.body)?.[1];
    if (proceed.status !== 200 || !paymentId) return `proceed answered ${proceed.status}`;
    // The Payment Element confirms with Stripe directly (the stand-in outlives the kills).
    if (byBlik) {
      const intent = (await (await fetch(`http://127.0.0.1:${ports.stripe}/__blik/${paymentId}`, { method: 'POST' })).json()) as { status?: string; metadata: { order_id: string } };
      if (intent.status !== 'requires_action') return `BLIK confirmation answered ${intent.status ?? 'an error'}`;
      // The waiting page, as the browser asks it, until it sends the customer on (paid by the webhook, or by the
      // PaymentIntent's own status when the page asked first).
      const waiting = `/checkout?step=waiting&order=${encodeURIComponent(intent.metadata.order_id)}&method=blik`;
      for (const giveUp = Date.now() + 60_000; Date.now() < giveUp; await sleep(500)) {
        const answer = await untilAnswered(() => customer.get(waiting));
        if (answer.status === 302) return answer.location.includes('step=done') ? 'paid' : `the waiting page sent the customer to ${answer.location}`;
        if (answer.status !== 200) return `waiting page answered ${answer.status}`;
      }
      return 'still waiting for the bank after a minute';
    }
    const intent = (await (await fetch(`http://127.0.0.1:${ports.stripe}/__confirm/${paymentId}`, { method: 'POST' })).json()) as { metadata: { order_id: string } };
    const done = await untilAnswered(() => customer.get(`/success?order=${encodeURIComponent(intent.metadata.order_id)}&payment_intent=${paymentId}`));
    return done.status === 200 ? 'paid' : `success page answered ${done.status}`;
  }

  /** Every paid order that asked for one has one invoice, each with one KSeF number, none sent twice. */
  async function reconcileInvoices(db: ReturnType<typeof openDatabase>['db'], orderIds: string[]) {
    const failed: string[] = [];
    const invoices = orderIds.length
      ? await db
          .selectFrom('invoices')
          .leftJoin('ksef_submissions as s', 's.invoice_id', 'invoices.id')
          .select(['invoices.id', 'invoices.number', 'invoices.order_id', 'invoices.ksef_number', 's.status', 's.ksef_number as submitted'])
          .where('invoices.order_id', 'in', orderIds)
          .where('invoices.kind', '=', 'invoice')
          .execute()
      : [];
    const perOrder = new Map<string, number>();
    for (const invoice of invoices) perOrder.set(invoice.order_id, (perOrder.get(invoice.order_id) ?? 0) + 1);
    const without = orderIds.filter((id) => !perOrder.has(id));
    if (without.length) failed.push(`${without.length} paid orders that asked for an invoice have none (e.g. ${without[0]})`);
    const twice = [...perOrder.entries()].filter(([, n]) => n > 1);
    if (twice.length) failed.push(`${twice.length} orders have more than one invoice (e.g. ${twice[0]![0]})`);
    const unnumbered = invoices.filter((i) => i.status !== 'accepted' || !i.ksef_number || !isKsefNumber(i.ksef_number) || i.ksef_number !== i.submitted);
    if (unnumbered.length) failed.push(`${unnumbered.length} invoices have no KSeF number (e.g. ${JSON.stringify(unnumbered[0])})`);
    const numbers = new Set(invoices.map((i) => i.ksef_number));
    if (numbers.size !== invoices.length) failed.push(`${invoices.length} invoices but ${numbers.size} distinct KSeF numbers`);
    const { sends } = (await (await fetch(`http://127.0.0.1:${ports.ksef}/__requests`)).json()) as { sends: Record<string, number> };
    const resent = Object.entries(sends).filter(([, n]) => n > 1);
    if (resent.length) failed.push(`KSeF received ${resent.length} invoices more than once (e.g. ${resent[0]![0]}: ${resent[0]![1]} times)`);
    return { failures: failed, counts: { invoices: invoices.length, 'KSeF numbers': numbers.size, 'invoices sent to KSeF twice': resent.length } };
  }

  async function stripeState() {
    const response = await fetch(`http://127.0.0.1:${ports.stripe}/__state`);
    return (await response.json()) as { intents: Array<{ id: string; status: string; metadata: Record<string, string> }>; undelivered: number };
  }

  async function signUp(customer: Customer): Promise<Customer> {
    const answer = await untilAnswered(() =>
      customer.post('/auth?mode=signup', { intent: 'signup', name: 'Crash Customer', email: customer.email, password: 'crash-password-123', redirectTo: '/' }),
    );
    if (answer.status !== 302 || !customer.signedIn) throw new Error(`sign-up of ${customer.email} failed (${answer.status})`);
    return customer;
  }
}

/** Repeats a request while the shop is down (refused, reset, 502/503), as a browser's user would; 120 s at most. */
async function untilAnswered<T extends { status: number }>(request: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      const answer = await request();
      if ((answer.status !== 502 && answer.status !== 503) || Date.now() > deadline) return answer;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    await sleep(200);
  }
}

const spawnShop = (env: Record<string, string>) => spawn(process.execPath, ['server.js'], { env, stdio: ['ignore', 'inherit', 'inherit'] });

/**
 * Asks the shop's /readyz every 100 ms from its start; the function tells what the shop is doing: not listening yet
 * ("starting"), answering but warming up (503), or ready.
 */
function watchState(child: ChildProcess, base: string): () => 'starting' | 'warming up' | 'ready' {
  let state: 'starting' | 'warming up' | 'ready' = 'starting';
  (async () => {
    while (state !== 'ready' && child.exitCode === null && child.signalCode === null) {
      const status = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(1000) }).then((r) => r.status, () => 0);
      if (status === 200) state = 'ready';
      else if (status === 503) state = 'warming up';
      else await sleep(100);
      if (state === 'warming up') await sleep(100);
    }
  })();
  return () => state;
}

/** Starts the production server and waits for /readyz. */
async function startShop(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawnShop(env);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the shop exited with code ${child.exitCode}`);
    try {
      const response = await fetch(`${env.PUBLIC_URL}/readyz`);
      if (response.ok) return child;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error('the shop did not become ready within 60 s');
}

/** A helper process (the Stripe stand-in, the SMTP server), ready when it says so. */
async function startHelper(file: string, args: string[]): Promise<ChildProcess> {
  const child = fork(path.resolve('tests/crash', file), args, { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`${file} exited with code ${code}`)));
  });
  return child;
}

await main();
