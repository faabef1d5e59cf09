/**
 * One node of the KSeF bench (bench/ksef.ts): a process of its own with its own database connections that does
 * what every app node does with KSEF_SENDER=kopi — runs the KSeF worker — until it is killed.
 *   node --import tsx bench/ksef-node.ts <sqlite file | postgres URL> <KSeF API address> <seller NIP> <token>
 */
import pino from 'pino';
import { openDatabase } from '~/db/database.server';
import { invoiceAcceptedByKsef, invoiceHandedOverOffline } from '~/modules/invoices/index.server';
import { startKsefWorker } from '~/modules/ksef/index.server';

const [database, apiUrl, nip, token] = process.argv.slice(2) as [string, string, string, string];
const handle = openDatabase(database.startsWith('postgres') ? { kind: 'postgres', url: database } : { kind: 'sqlite', file: database });
const log = pino({ level: 'warn' });
startKsefWorker({
  db: handle.db,
  config: { sender: 'kopi', environment: 'custom', apiUrl, qrUrl: 'https://qr-test.ksef.mf.gov.pl', token, consumerInvoices: false },
  sellerNip: nip,
  log,
  onAccepted: invoiceAcceptedByKsef,
  onHandedOver: invoiceHandedOverOffline,
  intervalMs: 200,
});
// The worker's timers do not hold a process open (a shop's server does): this one stays until it is killed.
setInterval(() => {}, 60_000);
process.on('SIGTERM', () => process.exit(0));
