/**
 * The worker that sends queued invoices to KSeF, on every node (they share the queue through leases, and the
 * token and session through `ksef_contexts`): a pass every few seconds, and at once when an invoice was issued.
 * Without a KSeF token it sends nothing and says so, at start and on the back office's pages: never a silent
 * switch-off.
 */
import type { Logger } from 'pino';
import type { KsefConfig } from '~/config/env.server';
import type { DB, Executor } from '~/db/database.server';
import { createKsefApi } from './api.server';
import { type KsefContext, createKsefContext } from './context.server';
import { certificateValidAt } from './certificate.server';
import { type AcceptedInvoice, type HandedOverInvoice, type KsefDeps, sendDueInvoices } from './submissions.server';

const INTERVAL_MS = 3_000;
const BATCH = 20;

export type KsefWorker = {
  kick(): void;
  stop(): Promise<void>;
  /** The shared standing with KSeF; null when the shop has no token (or no seller NIP) to send with. */
  context: KsefContext | null;
};

export function startKsefWorker({
  db,
  config,
  sellerNip,
  log,
  onAccepted,
  onHandedOver,
  intervalMs = INTERVAL_MS,
}: {
  db: DB;
  config: KsefConfig;
  sellerNip: string | null;
  log: Logger;
  onAccepted: (trx: Executor, accepted: AcceptedInvoice) => Promise<void>;
  /** An invoice handed to its buyer offline (with the offline certificate): its PDF with both codes, its mail. */
  onHandedOver: (trx: Executor, handed: HandedOverInvoice) => Promise<void>;
  intervalMs?: number;
}): KsefWorker {
  if (config.sender !== 'kopi') return { kick() {}, stop: async () => {}, context: null };
  if (!config.token || !sellerNip) {
    log.error(
      !config.token
        ? 'KSEF_SENDER=kopi but KSEF_TOKEN is not set: invoices to businesses are issued and wait for KSeF, none is sent until the token is given'
        : 'KSEF_SENDER=kopi but the seller has no valid NIP (SHOP_TAX_ID): nothing can be sent to KSeF',
    );
    return { kick() {}, stop: async () => {}, context: null };
  }
  // KSeF's limits: production's in production and demo, ten times them in the test environment (and on a stand-in).
  const api = createKsefApi({ baseUrl: config.apiUrl, limitScale: config.environment === 'production' || config.environment === 'demo' ? 1 : 10 });
  const context = createKsefContext({ db, api, baseUrl: config.apiUrl, nip: sellerNip, token: config.token, log });
  log.info({ environment: config.environment, apiUrl: config.apiUrl }, 'invoices are sent to KSeF by the shop');
  const certificate = config.offlineCertificate;
  if (!certificate) log.info('no offline KSeF certificate (KSEF_OFFLINE_CERTIFICATE): an invoice KSeF has not numbered yet waits for it before its buyer gets it');
  else if (!certificateValidAt(certificate, new Date())) log.error({ validFrom: certificate.validFrom, validTo: certificate.validTo }, 'the offline KSeF certificate is not valid today: invoices wait for KSeF before their buyers get them, as without one');
  else log.info({ serialNumber: certificate.serialNumber, validTo: certificate.validTo }, 'offline KSeF certificate: an invoice KSeF has not numbered within a minute goes to its buyer offline, with KOD II');
  const deps: KsefDeps = { db, api, context, log, qrUrl: config.qrUrl, sellerNip, onAccepted, offline: certificate ? { certificate, onHandedOver } : undefined };

  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  async function loop() {
    do {
      again = false;
      try {
        const outcome = await sendDueInvoices(deps, { limit: BATCH });
        if (outcome.handled >= BATCH && !outcome.pausedUntil) again = true;
      } catch (error) {
        log.error({ err: error }, 'KSeF worker pass failed');
      }
    } while (again && !stopped);
  }

  function kick() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    clearTimeout(timer);
    running = loop().finally(() => {
      running = null;
      if (stopped) return;
      timer = setTimeout(kick, intervalMs);
      timer.unref();
    });
  }

  kick();
  return {
    kick,
    context,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
