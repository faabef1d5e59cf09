import type { Logger } from 'pino';
import { RouterContextProvider, createContext } from 'react-router';
import type { Config } from '~/config/env.server';
import type { DB } from '~/db/database.server';
import type { KopiCookies } from '~/http/cookies.server';
import type { PageCache } from '~/http/page-cache.server';
import type { LockerDirectory } from '~/modules/delivery/lockers.server';
import type { ExchangeRates } from '~/modules/invoices/nbp.server';
import type { KsefWorker } from '~/modules/ksef/worker.server';
import type { Shipx } from '~/modules/fulfilment/shipx.server';
import type { Limits } from '~/modules/limits/index.server';
import type { PaymentProvider } from '~/modules/payments/provider.server';
import type { Storage } from '~/modules/storage/storage.server';

/** What every loader, action and middleware reads from the router context, built per request in server/app.ts. */
export type AppContext = {
  config: Config;
  db: DB;
  storage: Storage;
  /** The payment service chosen by PAYMENT_PROVIDER (one per process). */
  payments: PaymentProvider;
  /** InPost's lockers (INPOST_API_URL), answers kept briefly (one per process). */
  lockers: LockerDirectory;
  /** InPost shipments and labels through ShipX; null when the shop has no ShipX token (the owner types tracking numbers). */
  shipx: Shipx | null;
  /** NBP's average rates (NBP_API_URL) for invoices in euros, known ones kept (one per process). */
  rates: ExchangeRates;
  log: Logger;
  requestId: string;
  /** The client's address (behind a proxy, from X-Forwarded-For via Express's trust proxy). */
  clientIp: string;
  nonce: string;
  /** Unique to this response (also when it comes from the page cache): keys the "Add to cart" forms without JS. */
  formKey: string;
  /** The shop's cookies (made once per process with the configured secrets). */
  cookies: KopiCookies;
  /** The abuse limits (sign-up, contact, login, reset), scaled by RATE_LIMIT_FACTOR. */
  limits: Limits;
  /** Wakes the mail worker after something was queued (it also polls). */
  kickMail: () => void;
  /** Sends invoices to KSeF (KSEF_SENDER=kopi); its `context` is null when it sends nothing. */
  ksef: KsefWorker;
  /**
   * The catalogue pages shoppers with a cookie share (app/http/shared-pages.server.ts); only on a GET of a
   * document, and only with PAGE_CACHE on.
   */
  sharedPages?: PageCache;
};

export const appContext = createContext<AppContext>();

/** The router context for one request: `context.get(appContext)` in loaders, actions and middleware. */
export function createRouterContext(app: AppContext): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(appContext, app);
  return context;
}
