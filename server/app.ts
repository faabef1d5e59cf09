import { randomUUID } from 'node:crypto';
import path from 'node:path';
import zlib from 'node:zlib';
import compression from 'compression';
import express, { type NextFunction, type Request as ExpressRequest, type Response as ExpressResponse } from 'express';
import helmet from 'helmet';
import { sql } from 'kysely';
import pino, { type Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { type ServerBuild, createRequestHandler } from 'react-router';
import { type AppContext, createRouterContext } from '~/context';
import { type Config, loadConfig, prepareDataDir, requireSharedSecret } from '~/config/env.server';
import { maskAddresses } from '~/lib/mask-addresses';
import { migrateToLatest, openDatabase } from '~/db/database.server';
import { newId } from '~/db/ids.server';
import { seedDemoCatalogue } from '~/demo/seed.server';
import { getSessionUser, pruneAccountData } from '~/modules/accounts/index.server';
import { pruneCartRequests } from '~/modules/cart/index.server';
import { pruneRestockAlerts } from '~/modules/alerts/index.server';
import { runDailyRetention } from '~/modules/privacy/index.server';
import { createNbpRates, invoiceAcceptedByKsef, invoiceHandedOverOffline, sellerOf, sellerProblem } from '~/modules/invoices/index.server';
import { recordKsefPolicy, startKsefWorker } from '~/modules/ksef/index.server';
import { catalogVersion, watchCatalogVersion } from '~/modules/catalog/index.server';
import { localePath } from '~/modules/i18n/paths';
import { scaledLimits } from '~/modules/limits/index.server';
import { createMailTransport, startMailWorker } from '~/modules/mail/index.server';
import { SWEEP_INTERVAL_MS, paymentServices, sweepPayments } from '~/modules/checkout/index.server';
import { createPaymentProvider } from '~/modules/payments/index.server';
import { createLockerDirectory } from '~/modules/delivery/index.server';
import { createShipx } from '~/modules/fulfilment/index.server';
import { createStorage } from '~/modules/storage/index.server';
import { FORM_LIMIT_BYTES, UPLOAD_LIMIT_BYTES } from '~/http/body.server';
import { createKopiCookies, readCookie } from '~/http/cookies.server';
import { bodyLimit } from './body-limit';
import { errorHandler, refuseOtherMethods, sendFailure } from './errors';
import { imagesRouter } from './images';
import { toFetchRequest, sendFetchResponse } from './fetch-bridge';
import { PageCache, isCacheableRequest, isStorableResponse, withTokens } from '~/http/page-cache.server';
import { sharedPageHit } from '~/http/shared-pages.server';
import { rateLimit } from './rate-limit';
import { isCrossSiteWrite } from './same-origin';
import { stripeWebhookRouter } from './webhooks';

export type ServerOptions = {
  /** The React Router build, or a getter (the dev server reloads it through Vite). */
  build?: ServerBuild | (() => Promise<ServerBuild>);
  /** Where the built browser assets are (production only; in development Vite serves them). */
  clientDir?: string;
  config?: Config;
  logger?: Logger;
};

export type KopiServer = {
  app: express.Express;
  config: Config;
  logger: Logger;
  /** Renders the storefront at `base` (this server, listening) while /readyz answers 503. */
  warmUp: (base: string) => Promise<void>;
  close: () => Promise<void>;
};

export async function createServerApp(options: ServerOptions = {}): Promise<KopiServer> {
  const loaded = options.config ?? loadConfig();
  requireSharedSecret(loaded);
  const config = prepareDataDir(loaded);
  const logger =
    options.logger ??
    pino({
      level: config.logLevel,
      redact: LOG_REDACT,
      ...(config.env === 'development' ? { transport: { target: 'pino-pretty' } } : {}),
    });

  const storage = createStorage(config);
  // A bucket that cannot be reached stops the start with a message naming it, before anything else is opened.
  await storage.check();
  const database = openDatabase(config.database);
  database.startingUp?.(true);
  try {
    await migrateToLatest(database.db);
    if (config.seedDemo) await seedDemoCatalogue(database.db, storage, logger);
  } finally {
    database.startingUp?.(false);
  }

  const payments = createPaymentProvider(config, database.db);
  const lockers = createLockerDirectory({ baseUrl: config.inpostApiUrl, log: logger });
  const shipx = config.shipx ? createShipx(config.shipx, { log: logger }) : null;
  const rates = createNbpRates({ baseUrl: config.nbpApiUrl, log: logger });
  const transport = createMailTransport(config, logger);
  // Invoicing set up but not usable (a NIP that fails its checksum, a detail missing): said now, not found out later.
  const seller = sellerProblem(config.seller);
  if (seller) logger.error({ problem: seller }, seller === 'taxId' ? 'SHOP_TAX_ID is not a valid NIP (its checksum fails): checkout offers no invoices and none can be issued until it is corrected' : 'SHOP_LEGAL_NAME, SHOP_ADDRESS and SHOP_TAX_ID must all be set for invoices: checkout offers none until they are');
  const mailWorker = startMailWorker({ db: database.db, transport, from: config.mailFrom, log: logger, concurrency: config.mailConcurrency });
  // Who sends invoices to KSeF is recorded for issuing to read; with KSEF_SENDER=kopi this node sends them too.
  await recordKsefPolicy(database.db, config.ksef);
  const ksefWorker = startKsefWorker({
    db: database.db,
    config: config.ksef,
    sellerNip: sellerOf(config.seller)?.taxId ?? null,
    log: logger,
    onAccepted: async (trx, accepted) => {
      await invoiceAcceptedByKsef(trx, accepted);
      setImmediate(() => mailWorker.kick());
    },
    onHandedOver: async (trx, handed) => {
      await invoiceHandedOverOffline(trx, handed);
      setImmediate(() => mailWorker.kick());
    },
  });
  // Expired sessions, used reset links, old rate-limit records, day-old cart request keys and spent back-in-stock notices are removed hourly;
  // the retention job (personal data past its period) runs once a day, on whichever node asks first that day.
  const prune = () =>
    Promise.all([
      pruneAccountData(database.db),
      pruneCartRequests(database.db),
      pruneRestockAlerts(database.db),
      runDailyRetention(database.db, config.retention, { log: logger }),
    ]).catch((error) => logger.warn({ err: error }, 'clean-up failed'));
  const pruneTimer = setInterval(prune, 60 * 60 * 1000);
  pruneTimer.unref();
  void prune();
  // Stock held for abandoned payments is let go, refunds of orders paid too late are retried, notify-me mails go out.
  const sweep = () =>
    sweepPayments({ ...paymentServices({ db: database.db, payments, kickMail: () => mailWorker.kick(), config, rates }), log: logger }).catch((error) =>
      logger.warn({ err: error }, 'payment sweep failed'),
    );
  const sweepTimer = setInterval(sweep, SWEEP_INTERVAL_MS);
  sweepTimer.unref();
  // Once at start too: a node that restarts more often than the interval still lets expired holds go.
  void sweep();
  const build = options.build ?? (await import('virtual:react-router/server-build'));
  const handleRequest = createRequestHandler(build as ServerBuild, config.env);
  const pageCache = new PageCache(catalogVersion);
  const sharedPages = new PageCache(catalogVersion, 1000);
  // A catalogue change made on another node (the stored version moved) empties this node's page cache too.
  const stopWatching = watchCatalogVersion(database.db, { onError: (error) => logger.warn({ err: error }, 'catalogue version unavailable') });
  const origin = config.publicUrl.origin;
  const cookies = createKopiCookies(config);
  const limits = scaledLimits(config.rateLimitFactor);
  const isAdminRequest = async (cookieHeader: string | undefined) => {
    const token = await readCookie(cookies.session, cookieHeader ?? null, (v): v is string => typeof v === 'string');
    return token !== null && (await getSessionUser(database.db, token))?.user.isAdmin === true;
  };

  // Stripe's Payment Element loads from Stripe's own hosts; nothing else leaves the shop's origin.
  const stripe =
    payments.name === 'stripe'
      ? { scripts: ['https://js.stripe.com'], frames: ['https://js.stripe.com', 'https://hooks.stripe.com'], connect: ['https://api.stripe.com'] }
      : { scripts: [], frames: [], connect: [] };

  let warming = false;
  const app = express();
  app.disable('x-powered-by');
  // Which proxies may say who the client is (X-Forwarded-For); by default none, so nobody can claim an address.
  app.set('trust proxy', config.trustProxy);

  app.use((req, res, next) => {
    const incoming = req.get('x-request-id');
    res.locals.requestId = incoming && /^[\w.-]{8,100}$/.test(incoming) ? incoming : randomUUID();
    // 128 random bits each, from the ids' pool (base64url is valid in a CSP nonce).
    res.locals.nonce = newId();
    res.locals.formKey = newId();
    res.setHeader('x-request-id', res.locals.requestId);
    next();
  });
  app.use(
    pinoHttp({
      logger,
      genReqId: (_req, res) => (res as ExpressResponse).locals.requestId,
      // Health checks, assets and the start-up warm-up (from this machine) are not logged one by one.
      autoLogging: {
        ignore: (req) =>
          /^\/(healthz|readyz|assets\/)/.test(req.url ?? '') || (req.headers['x-kopi-warm-up'] === '1' && isLoopback(req.socket.remoteAddress)),
      },
      quietReqLogger: true,
      // One short line per request: no headers (cookies, tokens) in the logs.
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: withoutSecrets(req.url) }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    }),
  );
  // A page is made for each request, so compressing it adds to every render: pages are compressed at gzip level 3
  // and brotli quality 3 (half and two thirds of the default levels' time, for about 2 kB and 0.8 kB more on a
  // 110 kB page); the built files, each asked for once and kept by the browser, keep the defaults.
  const isPage = (res: ExpressResponse) => String(res.getHeader('content-type') ?? '').startsWith('text/html');
  app.use(
    compression({
      level: 3,
      brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 3 } },
      filter: (req, res) => isPage(res as ExpressResponse) && compression.filter(req, res),
    }),
  );
  app.use(compression({ filter: (req, res) => !isPage(res as ExpressResponse) && compression.filter(req, res) }));
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", (_req, res) => `'nonce-${(res as ExpressResponse).locals.nonce}'`, ...stripe.scripts],
          frameSrc: ["'self'", ...stripe.frames],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:', ...(config.s3?.publicUrl ? [new URL(config.s3.publicUrl).origin] : [])],
          fontSrc: ["'self'"],
          connectSrc: ["'self'", ...stripe.connect],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          upgradeInsecureRequests: config.secureCookies ? [] : null,
        },
      },
      // The default no-referrer makes browsers send `Origin: null` on plain form posts, which the
      // cross-site check (and React Router's own) must refuse; this keeps the real Origin on our own posts.
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      // A shop on shop.example.pl must not force HTTPS on example.pl's other hosts unless the owner says so.
      strictTransportSecurity: config.secureCookies ? { maxAge: 365 * 24 * 60 * 60, includeSubDomains: config.hstsIncludeSubDomains } : false,
      crossOriginEmbedderPolicy: false,
      // The sign-in popup must keep its link to the page that opened it to report back.
      crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    }),
  );
  app.use((_req, res, next) => {
    res.setHeader('Permissions-Policy', permissionsPolicy(payments.name === 'stripe'));
    next();
  });
  // The OpenID Connect callback runs in that popup after a visit to the provider's origin; with any other
  // opener policy the browser would sever window.opener and the shop page would never hear the outcome.
  app.use('/auth/google/callback', (_req, res, next) => {
    res.setHeader('Cross-Origin-Opener-Policy', 'unsafe-none');
    next();
  });

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    if (warming) {
      res.status(503).json({ status: 'starting', database: database.kind });
      return;
    }
    try {
      await Promise.race([
        sql`select 1`.execute(database.db),
        new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 2000)),
      ]);
      res.json({ status: 'ready', database: database.kind });
    } catch (error) {
      logger.warn({ err: error }, 'readiness check failed');
      res.status(503).json({ status: 'unavailable', database: database.kind });
    }
  });

  // A path that does not decode (`/%ff`, a lone surrogate such as `/product/%ED%A0%80`) names nothing here.
  app.use((req, res, next) => {
    try {
      decodeURIComponent(req.path);
    } catch {
      sendFailure(req, res, 'invalid');
      return;
    }
    next();
  });
  app.use(refuseOtherMethods);

  app.use(
    bodyLimit(async (req) => {
      if (req.path.startsWith('/webhooks/')) return WEBHOOK_LIMIT_BYTES;
      // Pictures (up to 8 × 10 MB) only to the product forms, and only from an admin's session.
      if (isUploadPath(req.path) && (await isAdminRequest(req.get('cookie')))) return UPLOAD_LIMIT_BYTES;
      return FORM_LIMIT_BYTES;
    }),
  );

  app.use(stripeWebhookRouter({ ...paymentServices({ db: database.db, payments, kickMail: () => mailWorker.kick(), config, rates }), log: logger }));

  app.use(imagesRouter(config, storage, path.join(config.dataDir, 'uploads')));
  if (options.clientDir) {
    app.use('/assets', express.static(path.join(options.clientDir, 'assets'), { immutable: true, maxAge: '1y', index: false }));
  }

  // Cookie-less page hits are answered from memory before anything else runs.
  app.use((req, res, next) => {
    if (!config.pageCache || !isCacheableRequest(req.method, req.path, req.get('cookie'))) return next();
    const page = pageCache.get(req.originalUrl);
    if (!page) return next();
    const body = withTokens(page, { nonce: res.locals.nonce, formKey: res.locals.formKey });
    res.status(page.status);
    for (const [key, value] of page.headers) res.setHeader(key, value);
    res.setHeader('content-length', body.length);
    res.setHeader('x-page-cache', 'hit');
    res.end(req.method === 'HEAD' ? undefined : body);
  });

  // Then the pages shoppers with a cookie share (app/http/shared-pages.server.ts), when one is kept for them.
  app.use(async (req, res, next) => {
    const cookie = req.get('cookie');
    if (!config.pageCache || req.method !== 'GET' || !cookie) return next();
    try {
      const shared = await sharedPageHit(
        { db: database.db, cookies, sharedPages, nonce: res.locals.nonce, formKey: res.locals.formKey },
        new URL(req.originalUrl, origin),
        cookie,
      );
      if (!shared) return next();
      res.status(shared.status);
      for (const [key, value] of shared.headers) res.setHeader(key, value);
      res.setHeader('content-length', shared.body.length);
      res.end(shared.body);
    } catch (error) {
      next(error);
    }
  });

  if (options.clientDir) app.use(express.static(options.clientDir, { maxAge: '1h', index: false }));

  app.use((req, res, next) => {
    if (isCrossSiteWrite(req.method, req.get('origin'), req.get('sec-fetch-site'), origin, requestOrigin(req), req.path)) {
      sendFailure(req, res, 'forbidden');
      return;
    }
    next();
  });

  app.use('/api/events', rateLimit({ limit: 120, windowMs: 60_000 }));
  // A visitor chooses once or twice; a script filling the consents table is cut off.
  app.use('/api/consent', rateLimit({ limit: 20, windowMs: 60_000 }));

  app.all('/{*splat}', async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    const context: AppContext = {
      config,
      db: database.db,
      storage,
      payments,
      lockers,
      shipx,
      rates,
      log: req.log,
      requestId: res.locals.requestId,
      clientIp: req.ip ?? 'unknown',
      nonce: res.locals.nonce,
      formKey: res.locals.formKey,
      cookies,
      limits,
      kickMail: mailWorker.kick,
      ksef: ksefWorker,
      sharedPages: config.pageCache && req.method === 'GET' && !req.path.endsWith('.data') ? sharedPages : undefined,
    };
    try {
      const cacheable = config.pageCache && isCacheableRequest(req.method, req.path, req.get('cookie')) && req.method === 'GET';
      const version = catalogVersion();
      const response = await handleRequest(toFetchRequest(req, res, origin), createRouterContext(context));
      if (cacheable && isStorableResponse(response)) {
        const body = await response.text();
        pageCache.set(req.originalUrl, { status: 200, headers: [...response.headers], body, tokens: { nonce: context.nonce, formKey: context.formKey } }, version);
        await sendFetchResponse(res, response, body);
      } else {
        await sendFetchResponse(res, response);
      }
    } catch (error) {
      next(error);
    }
  });

  app.use(errorHandler);

  return {
    app,
    config,
    logger,
    /**
     * Renders the storefront before /readyz says ready: a new process pays for its first renders (modules
     * initialised, code not yet optimised, statements not yet prepared) with requests of 100–400 ms; here
     * its own requests pay instead, and the page cache starts full.
     */
    async warmUp(base: string) {
      warming = true;
      const started = performance.now();
      try {
        await warmUpPages(base);
        logger.info({ ms: Math.round(performance.now() - started) }, 'warmed up');
      } catch (error) {
        logger.warn({ err: error }, 'warm-up failed; serving anyway');
      } finally {
        warming = false;
      }
    },
    close: async () => {
      clearInterval(pruneTimer);
      clearInterval(sweepTimer);
      stopWatching();
      await Promise.all([mailWorker.stop(), ksefWorker.stop()]);
      transport.close();
      await database.close();
    },
  };
}

/** Stripe's events stay well under 1 MB. */
const WEBHOOK_LIMIT_BYTES = 1024 * 1024;

/** The product forms, as documents and as React Router's data requests. */
const isUploadPath = (path: string) => /^\/(add-product|edit-product\/[A-Za-z0-9_-]{1,64})(\.data|\/_\.data)?$/.test(path);

/** Features the shop never uses are switched off for it and for anything it embeds. */
function permissionsPolicy(stripe: boolean): string {
  const off = ['accelerometer', 'autoplay', 'camera', 'display-capture', 'geolocation', 'gyroscope', 'magnetometer', 'microphone', 'midi', 'usb', 'browsing-topics'];
  return [...off.map((feature) => `${feature}=()`), stripe ? 'payment=(self "https://js.stripe.com")' : 'payment=()'].join(', ');
}

function requestOrigin(req: ExpressRequest): string {
  return `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}

/**
 * The pages shoppers ask for most, each as a first visitor (filling the page cache), as a shopper with a
 * cookie (the rendered path), in both languages, a few rounds, four at a time.
 */
async function warmUpPages(base: string): Promise<void> {
  const home = await (await fetch(`${base}/`, { headers: { 'x-kopi-warm-up': '1' } })).text();
  const products = [...new Set([...home.matchAll(/href="(\/product\/[\w-]+)"/g)].map((m) => m[1]))].slice(0, 4);
  const english = ['/', ...products, '/categories', '/categories?category=wholeBean', '/?q=coffee', '/about', '/contact', '/cart', '/auth', '/profile'];
  const paths = [...english, ...english.map((path) => localePath('pl', path))];
  const variants = [undefined, 'kopi_warm_up=1'];
  const requests = [1, 2, 3].flatMap(() => paths.flatMap((path) => variants.map((cookie) => ({ path, cookie }))));
  let next = 0;
  const lane = async () => {
    while (next < requests.length) {
      const { path, cookie } = requests[next++];
      const response = await fetch(base + path, { headers: { 'x-kopi-warm-up': '1', ...(cookie ? { cookie } : {}) }, redirect: 'manual' });
      await response.arrayBuffer();
    }
  };
  await Promise.all([lane(), lane(), lane(), lane()]);
}

const isLoopback = (address: string | undefined) => address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';

/** Whatever a log line carries by mistake: no passwords, tokens, cookies or whole addresses (pino's redaction). */
export const LOG_REDACT = {
  paths: [
    'req.headers.cookie',
    'req.headers.authorization',
    'res.headers["set-cookie"]',
    ...['password', 'token', 'secret', 'email', 'to', 'to_address', 'replyTo'].flatMap((key) => [key, `*.${key}`]),
  ],
  censor: '[redacted]',
};

/**
 * A URL as the logs keep it: no secrets and no one's address. A guest order's key, a reset or unsubscribe token,
 * OpenID Connect's code and state, and a payment's client secret (also inside an encoded `redirectTo`) become "…";
 * an email address keeps only its first letter and its domain ("o…@example.com").
 */
export function withoutSecrets(url: string): string {
  return maskAddresses(url.replace(/((?:^|[?&]|%3F|%26)(?:key|token|code|state|payment_intent_client_secret|session_id)(?:=|%3D))(?:[^&#%]|%(?!26|23)[0-9A-Fa-f]{2})*/gi, '$1…'));
}
