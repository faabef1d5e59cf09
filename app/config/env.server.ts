import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { type OfflineCertificate, readOfflineCertificate } from '~/modules/ksef/certificate.server';

/** The only reader of process.env. Parsed once at start-up; a bad value stops the process with a readable list. */
const booleanish = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    PUBLIC_URL: z.url({ message: 'must be a full URL such as https://shop.example.com' }).default('http://localhost:3000'),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z.string().optional(),
    SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    SESSION_SECRET_PREVIOUS: z.string().optional(),
    TRUST_PROXY: z.string().optional(),
    RATE_LIMIT_FACTOR: z.coerce.number().positive('must be a positive number').max(1_000_000).default(1),
    SEED_DEMO: booleanish.default(true),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
      .optional(),
    MAIL_FROM: z.string().default('Kopi <hello@kopi.local>'),
    MAIL_CONCURRENCY: z.coerce.number().int('must be a whole number').min(1).max(32).default(4),
    CONTACT_TO: z.string().default('shop@kopi.local'),
    STOCK_RESERVATION_MINUTES: z.coerce.number().int('must be a whole number').min(1).max(1440).default(15),
    RETENTION_CART_DAYS: z.coerce.number().int('must be a whole number').min(7).max(730).default(60),
    RETENTION_ANALYTICS_MONTHS: z.coerce.number().int('must be a whole number').min(1).max(25).default(13),
    RETENTION_MESSAGE_DAYS: z.coerce.number().int('must be a whole number').min(30).max(1095).default(365),
    RETENTION_MAIL_DAYS: z.coerce.number().int('must be a whole number').min(7).max(365).default(30),
    RETENTION_TAX_YEARS: z.coerce.number().int('must be a whole number').min(5, 'must be at least 5: Polish tax law keeps records 5 years').max(10).default(5),
    PAYMENT_PROVIDER: z.enum(['test', 'stripe']).default('test'),
    STRIPE_SECRET_KEY: z.string().optional(),
    STRIPE_PUBLISHABLE_KEY: z.string().optional(),
    STRIPE_WEBHOOK_SECRET: z.string().optional(),
    STRIPE_API_URL: z.url().optional(),
    INPOST_API_URL: z.url().default('https://api-shipx-pl.easypack24.net'),
    NBP_API_URL: z.url().default('https://api.nbp.pl'),
    SHIPX_API_URL: z.url().default('https://api-shipx-pl.easypack24.net'),
    SHIPX_TOKEN: z.string().optional(),
    SHIPX_ORGANIZATION_ID: z.string().regex(/^\d{1,12}$/, 'must be the organisation number from InPost Manager').optional(),
    SHIPX_SENDING_METHOD: z.enum(['dispatch_order', 'parcel_locker', 'pop', 'any_point']).default('dispatch_order'),
    GOOGLE_CLIENT_ID: z.string().optional(),
    GOOGLE_CLIENT_SECRET: z.string().optional(),
    OIDC_ISSUER: z.url().default('https://accounts.google.com'),
    S3_BUCKET: z.string().optional(),
    S3_ENDPOINT: z.url().optional(),
    S3_REGION: z.string().optional(),
    S3_PUBLIC_URL: z.url().optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    PAGE_CACHE: booleanish.default(true),
    HSTS_INCLUDE_SUBDOMAINS: booleanish.default(false),
    SHOP_LEGAL_NAME: z.string().trim().max(200).optional(),
    SHOP_ADDRESS: z.string().trim().max(300).optional(),
    SHOP_TAX_ID: z.string().trim().max(60).optional(),
    SHOP_EMAIL: z.email({ message: 'must be an email address' }).optional(),
    SHOP_PHONE: z.string().trim().max(60).optional(),
    LEGAL_DIR: z.string().min(1).optional(),
    KSEF_SENDER: z.enum(['accounting', 'kopi'], { message: 'must be kopi (the shop sends invoices to KSeF) or accounting (your accounting software does)' }).default('accounting'),
    KSEF_ENV: z
      .string()
      .trim()
      .refine((v) => ['test', 'demo', 'production'].includes(v) || /^https?:\/\/\S+$/.test(v), 'must be test, demo, production or the API address (http… ending in /v2)')
      .optional(),
    KSEF_TOKEN: z.string().trim().optional(),
    KSEF_CONSUMER_INVOICES: booleanish.default(false),
    KSEF_OFFLINE_CERTIFICATE: z.string().trim().optional(),
    KSEF_OFFLINE_KEY: z.string().trim().optional(),
    KSEF_OFFLINE_KEY_PASSPHRASE: z.string().optional(),
  })
  .superRefine((env, ctx) => {
    for (const [i, secret] of splitList(env.SESSION_SECRET_PREVIOUS).entries()) {
      if (secret.length < 32) ctx.addIssue({ code: 'custom', path: ['SESSION_SECRET_PREVIOUS'], message: `secret ${i + 1} must be at least 32 characters` });
    }
    if (env.TRUST_PROXY !== undefined && parseTrustProxy(env.TRUST_PROXY) === null) {
      ctx.addIssue({
        code: 'custom',
        path: ['TRUST_PROXY'],
        message: 'must be false, a number of proxy hops (1), or proxy addresses and subnets separated by commas (127.0.0.1, 10.0.0.0/8, loopback)',
      });
    }
    if (env.PAYMENT_PROVIDER === 'stripe') {
      for (const key of ['STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY', 'STRIPE_WEBHOOK_SECRET'] as const) {
        if (!env[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'is required when PAYMENT_PROVIDER=stripe' });
      }
    }
    if (env.GOOGLE_CLIENT_ID && !env.GOOGLE_CLIENT_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['GOOGLE_CLIENT_SECRET'], message: 'is required when GOOGLE_CLIENT_ID is set' });
    }
    if (env.SHIPX_TOKEN && !env.SHIPX_ORGANIZATION_ID) ctx.addIssue({ code: 'custom', path: ['SHIPX_ORGANIZATION_ID'], message: 'is required when SHIPX_TOKEN is set' });
    if (env.SHIPX_ORGANIZATION_ID && !env.SHIPX_TOKEN) ctx.addIssue({ code: 'custom', path: ['SHIPX_TOKEN'], message: 'is required when SHIPX_ORGANIZATION_ID is set' });
    if (env.S3_BUCKET && !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(env.S3_BUCKET)) {
      ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: 'must be a bucket name (3–63 lower-case letters, digits, dots and hyphens)' });
    }
    for (const key of ['S3_ENDPOINT', 'S3_REGION', 'S3_PUBLIC_URL'] as const) {
      if (env[key] && !env.S3_BUCKET) ctx.addIssue({ code: 'custom', path: [key], message: 'is set but S3_BUCKET is not' });
    }
    // Sent to the wrong environment, an invoice is not issued in law (test) or is issued for real (production): no default.
    if (env.KSEF_SENDER === 'kopi' && !env.KSEF_ENV) ctx.addIssue({ code: 'custom', path: ['KSEF_ENV'], message: 'is required when KSEF_SENDER=kopi: test, demo or production' });
    // KOD II needs both: the certificate names its serial number, the key signs.
    if (env.KSEF_OFFLINE_CERTIFICATE && !env.KSEF_OFFLINE_KEY) ctx.addIssue({ code: 'custom', path: ['KSEF_OFFLINE_KEY'], message: 'is required when KSEF_OFFLINE_CERTIFICATE is set (the private key of the offline certificate, PEM)' });
    if (env.KSEF_OFFLINE_KEY && !env.KSEF_OFFLINE_CERTIFICATE) ctx.addIssue({ code: 'custom', path: ['KSEF_OFFLINE_CERTIFICATE'], message: 'is required when KSEF_OFFLINE_KEY is set (the offline KSeF certificate, PEM)' });
    if (env.KSEF_OFFLINE_KEY_PASSPHRASE && !env.KSEF_OFFLINE_KEY) ctx.addIssue({ code: 'custom', path: ['KSEF_OFFLINE_KEY'], message: 'is required when KSEF_OFFLINE_KEY_PASSPHRASE is set' });
    if (env.KSEF_TOKEN !== undefined && !isKsefTokenShape(env.KSEF_TOKEN)) {
      ctx.addIssue({ code: 'custom', path: ['KSEF_TOKEN'], message: 'is not a KSeF token: it looks like 20261204-EC-…|nip-1234567890|… (copy it whole from KSeF)' });
    }
    if (env.DATABASE_URL && !/^(postgres(ql)?:\/\/|file:|sqlite:)/.test(env.DATABASE_URL) && !env.DATABASE_URL.endsWith('.db')) {
      ctx.addIssue({
        code: 'custom',
        path: ['DATABASE_URL'],
        message: 'must be a postgres:// URL or a SQLite file (file:path/kopi.db)',
      });
    }
  });

export type Config = {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  publicUrl: URL;
  secureCookies: boolean;
  /** With an https PUBLIC_URL: whether Strict-Transport-Security covers every subdomain of the shop's host too. */
  hstsIncludeSubDomains: boolean;
  dataDir: string;
  database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };
  /** Signs cookies; `sessionSecrets[0]` signs, every one of them still verifies (rotation). */
  sessionSecret: string;
  sessionSecrets: string[];
  /** Express's `trust proxy`: which hops may tell the client's address (X-Forwarded-For). False: none. */
  trustProxy: boolean | number | string[];
  /** Multiplies every abuse limit (sign-up, contact, login, reset); tests raise it. */
  rateLimitFactor: number;
  seedDemo: boolean;
  smtpUrl?: string;
  mailFrom: string;
  /** Messages in flight at once per node (and pooled SMTP connections). */
  mailConcurrency: number;
  contactTo: string;
  /** How long going to payment holds the order's coffee for it (docs/decisions/0020). */
  stockReservationMinutes: number;
  /** How long personal data is kept (docs/decisions/0029); the daily retention job enforces it. */
  retention: Retention;
  payments: {
    provider: 'test' | 'stripe';
    stripeSecretKey?: string;
    stripePublishableKey?: string;
    stripeWebhookSecret?: string;
    stripeApiUrl?: string;
  };
  oidc: { clientId?: string; clientSecret?: string; issuer: string };
  /** InPost's Points API (lockers), ShipX's `GET /v1/points`; a stand-in's address in tests and offline demos. */
  inpostApiUrl: string;
  /** The National Bank of Poland's Web API: the average rate an invoice in euros converts its VAT to złoty at. */
  nbpApiUrl: string;
  /**
   * InPost shipments and labels through ShipX (SHIPX_TOKEN and SHIPX_ORGANIZATION_ID); without them the owner
   * types tracking numbers. `sendingMethod`: how parcels reach InPost (a courier collects them, by default).
   */
  shipx?: { apiUrl: string; token: string; organizationId: string; sendingMethod: 'dispatch_order' | 'parcel_locker' | 'pop' | 'any_point' };
  /** S3-compatible picture storage; without it pictures live in DATA_DIR/uploads. */
  s3?: { bucket: string; endpoint?: string; region: string; publicUrl?: string };
  logLevel: string;
  pageCache: boolean;
  /** Who sells: shown on the legal pages (SHOP_LEGAL_NAME …); an unset detail is shown as not set. */
  seller: { legalName?: string; address?: string; taxId?: string; email?: string; phone?: string };
  /** The owner's own legal texts, {locale}/{page}.md; without a file the shipped template is used. */
  legalDir: string;
  /**
   * Who sends invoices to KSeF (docs/decisions/0034): `kopi` (with the owner's KSeF token, to `apiUrl`) or
   * `accounting` (the owner's accounting software: Kopi offers the XML and takes the number typed in, sends nothing).
   */
  ksef: KsefConfig;
};

export type KsefConfig = {
  sender: 'accounting' | 'kopi';
  /** test | demo | production, or `custom` for an address given in KSEF_ENV (a stand-in: QR links as the test environment's). */
  environment: 'test' | 'demo' | 'production' | 'custom';
  apiUrl: string;
  /** Where the verification QR codes point (kody-qr.md). */
  qrUrl: string;
  /** The owner's KSeF token; a secret (never logged, never shown). */
  token?: string;
  /** Invoices to consumers (no NIP) are sent too. */
  consumerInvoices: boolean;
  /**
   * The owner's offline KSeF certificate (KSEF_OFFLINE_CERTIFICATE and KSEF_OFFLINE_KEY): with it an invoice KSeF has
   * not numbered within a minute is handed to its buyer at once, offline, with KOD II; without it the buyer waits.
   */
  offlineCertificate?: OfflineCertificate;
};

const KSEF_ADDRESSES = {
  test: { apiUrl: 'https://api-test.ksef.mf.gov.pl/v2', qrUrl: 'https://qr-test.ksef.mf.gov.pl' },
  demo: { apiUrl: 'https://api-demo.ksef.mf.gov.pl/v2', qrUrl: 'https://qr-demo.ksef.mf.gov.pl' },
  production: { apiUrl: 'https://api.ksef.mf.gov.pl/v2', qrUrl: 'https://qr.ksef.mf.gov.pl' },
} as const;

/**
 * A KSeF token as KSeF hands it out: three parts joined by `|` — its reference, the context (`nip-1234567890`)
 * and the secret. Only the shape is checked here (a pasted half, a space inside); KSeF judges the rest.
 */
export function isKsefTokenShape(token: string): boolean {
  return token.length <= 512 && /^[^|\s]{6,}\|[a-zA-Z]+-[^|\s]+\|[^|\s]{16,}$/.test(token);
}

type KsefEnv = { KSEF_SENDER: 'accounting' | 'kopi'; KSEF_ENV?: string; KSEF_TOKEN?: string; KSEF_CONSUMER_INVOICES: boolean; KSEF_OFFLINE_CERTIFICATE?: string; KSEF_OFFLINE_KEY?: string; KSEF_OFFLINE_KEY_PASSPHRASE?: string };

function ksefConfigOf(env: KsefEnv): KsefConfig {
  const named = env.KSEF_ENV === 'test' || env.KSEF_ENV === 'demo' || env.KSEF_ENV === 'production' ? env.KSEF_ENV : null;
  const addresses = named ? KSEF_ADDRESSES[named] : { apiUrl: (env.KSEF_ENV ?? KSEF_ADDRESSES.test.apiUrl).replace(/\/+$/, ''), qrUrl: KSEF_ADDRESSES.test.qrUrl };
  return {
    sender: env.KSEF_SENDER,
    environment: named ?? (env.KSEF_ENV ? 'custom' : 'test'),
    ...addresses,
    token: env.KSEF_TOKEN,
    consumerInvoices: env.KSEF_CONSUMER_INVOICES,
    offlineCertificate: offlineCertificateOf(env),
  };
}

/** The offline certificate and key, read and checked now: a wrong file stops the start with what is wrong. */
function offlineCertificateOf(env: KsefEnv): OfflineCertificate | undefined {
  if (!env.KSEF_OFFLINE_CERTIFICATE || !env.KSEF_OFFLINE_KEY) return undefined;
  try {
    return readOfflineCertificate({ certificate: env.KSEF_OFFLINE_CERTIFICATE, key: env.KSEF_OFFLINE_KEY, passphrase: env.KSEF_OFFLINE_KEY_PASSPHRASE }, (file) => fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError([(error as Error).message]);
  }
}

export type Retention = {
  /** Guest carts untouched, and checkouts never paid, for this many days. */
  cartDays: number;
  analyticsMonths: number;
  /** Contact messages this many days after they were handled. */
  messageDays: number;
  /** The text of mails this many days after they were sent. */
  mailDays: number;
  /** Orders and invoices: years after the end of the year the tax became due (OSS sales: at least 10). */
  taxYears: number;
};

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Kopi cannot start, the configuration has problems:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads `.env` (if present) and the environment; throws ConfigError listing every problem. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env, { readDotEnv = true } = {}): Config {
  if (readDotEnv && source === process.env && fs.existsSync('.env')) process.loadEnvFile('.env');
  const input = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(input);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || 'environment'} ${i.message}`));
  }
  const env = parsed.data;
  const dataDir = path.resolve(env.DATA_DIR);
  const publicUrl = new URL(env.PUBLIC_URL);
  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    publicUrl,
    secureCookies: publicUrl.protocol === 'https:',
    hstsIncludeSubDomains: env.HSTS_INCLUDE_SUBDOMAINS,
    dataDir,
    database: parseDatabaseUrl(env.DATABASE_URL, dataDir),
    sessionSecret: env.SESSION_SECRET ?? '',
    sessionSecrets: [env.SESSION_SECRET ?? '', ...splitList(env.SESSION_SECRET_PREVIOUS)].filter(Boolean),
    trustProxy: env.TRUST_PROXY === undefined ? false : parseTrustProxy(env.TRUST_PROXY)!,
    rateLimitFactor: env.RATE_LIMIT_FACTOR,
    seedDemo: env.SEED_DEMO,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    mailConcurrency: env.MAIL_CONCURRENCY,
    contactTo: env.CONTACT_TO,
    stockReservationMinutes: env.STOCK_RESERVATION_MINUTES,
    retention: {
      cartDays: env.RETENTION_CART_DAYS,
      analyticsMonths: env.RETENTION_ANALYTICS_MONTHS,
      messageDays: env.RETENTION_MESSAGE_DAYS,
      mailDays: env.RETENTION_MAIL_DAYS,
      taxYears: env.RETENTION_TAX_YEARS,
    },
    payments: {
      provider: env.PAYMENT_PROVIDER,
      stripeSecretKey: env.STRIPE_SECRET_KEY,
      stripePublishableKey: env.STRIPE_PUBLISHABLE_KEY,
      stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET,
      stripeApiUrl: env.STRIPE_API_URL,
    },
    oidc: { clientId: env.GOOGLE_CLIENT_ID, clientSecret: env.GOOGLE_CLIENT_SECRET, issuer: env.OIDC_ISSUER },
    inpostApiUrl: env.INPOST_API_URL.replace(/\/+$/, ''),
    nbpApiUrl: env.NBP_API_URL.replace(/\/+$/, ''),
    shipx:
      env.SHIPX_TOKEN && env.SHIPX_ORGANIZATION_ID
        ? { apiUrl: env.SHIPX_API_URL.replace(/\/+$/, ''), token: env.SHIPX_TOKEN, organizationId: env.SHIPX_ORGANIZATION_ID, sendingMethod: env.SHIPX_SENDING_METHOD }
        : undefined,
    s3: env.S3_BUCKET
      ? { bucket: env.S3_BUCKET, endpoint: env.S3_ENDPOINT, region: env.S3_REGION ?? 'us-east-1', publicUrl: env.S3_PUBLIC_URL }
      : undefined,
    logLevel: env.LOG_LEVEL,
    pageCache: env.PAGE_CACHE,
    seller: { legalName: env.SHOP_LEGAL_NAME, address: env.SHOP_ADDRESS, taxId: env.SHOP_TAX_ID, email: env.SHOP_EMAIL, phone: env.SHOP_PHONE },
    legalDir: path.resolve(env.LEGAL_DIR ?? path.join(dataDir, 'legal')),
    ksef: ksefConfigOf(env),
  };
}

const splitList = (value: string | undefined) => (value ?? '').split(',').map((v) => v.trim()).filter(Boolean);

const addressOrSubnet = /^(?:loopback|linklocal|uniquelocal|\d{1,3}(?:\.\d{1,3}){3}(?:\/\d{1,2})?|[0-9a-f:]*:[0-9a-f:.]*(?:\/\d{1,3})?)$/i;

/** TRUST_PROXY: `false`, a hop count, or a list of proxy addresses/subnets; null when it is none of those. */
export function parseTrustProxy(value: string): boolean | number | string[] | null {
  const text = value.trim().toLowerCase();
  if (text === '' || text === 'false' || text === '0' || text === 'no') return false;
  if (/^\d{1,2}$/.test(text)) return Number(text);
  const list = splitList(text);
  return list.length > 0 && list.every((entry) => addressOrSubnet.test(entry)) ? list : null;
}

function parseDatabaseUrl(url: string | undefined, dataDir: string): Config['database'] {
  if (!url) return { kind: 'sqlite', file: path.join(dataDir, 'kopi.db') };
  if (/^postgres(ql)?:\/\//.test(url)) return { kind: 'postgres', url };
  const file = url.replace(/^(file:|sqlite:)(\/\/)?/, '');
  return { kind: 'sqlite', file: path.resolve(file) };
}

/** Creates DATA_DIR and, when SESSION_SECRET is unset, a secret persisted in it (so sessions survive restarts). */
/**
 * With PostgreSQL a shop may run on several nodes, and a cookie signed by one must verify on the others: the
 * secret is then the operator's to set, the same on every node (docs/decisions/0010). With SQLite there is
 * one node, and a secret generated into DATA_DIR is enough.
 */
export function requireSharedSecret(config: Config): void {
  if (config.database.kind === 'postgres' && !config.sessionSecret) {
    throw new ConfigError([
      'SESSION_SECRET is required with PostgreSQL: every node must sign cookies with the same secret (for example `openssl rand -base64 32`)',
    ]);
  }
}

export function prepareDataDir(config: Config): Config {
  fs.mkdirSync(config.dataDir, { recursive: true });
  if (config.sessionSecret) return config;
  const file = path.join(config.dataDir, 'session-secret');
  if (!fs.existsSync(file)) fs.writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600 });
  const sessionSecret = fs.readFileSync(file, 'utf8').trim();
  return { ...config, sessionSecret, sessionSecrets: [sessionSecret, ...config.sessionSecrets] };
}
