import { sql } from 'kysely';
import type { Executor } from '~/db/database.server';
import { newId } from '~/db/ids.server';

/**
 * Abuse limits, counted in the database (`rate_events`) so they hold across restarts and app nodes. An
 * attempt is recorded BEFORE the work it guards (a password check, a mail) and counted together with the
 * earlier ones, so a burst of parallel requests cannot all slip through before the first is written.
 */
export type LimitKind = 'login' | 'reset' | 'signup' | 'contact' | 'withdrawal' | 'stockAlert' | 'discountCode' | 'dataExport' | 'lockerSearch';

/** A counted scope; without `limit` it is only counted (the login's per-email slow-down). */
export type Scope = { key: string; limit?: number };

/**
 * The shop's limits, within each kind's window. Each says what it stops:
 * - per email, strict: one person's inbox or account, whoever is asking and from wherever;
 * - per client address, generous: a mobile carrier's NAT puts thousands of phones behind one address, and an
 *   office or a café's Wi-Fi dozens, so it only stops one machine running a script (a small shop's real
 *   customers never come 50 sign-ups an hour from one address);
 * - shop-wide, a ceiling a small shop never reaches legitimately: a scan spread over many addresses is still
 *   cut off, counted in the database so it holds across nodes.
 *
 * signup: 3 attempts per email, 50 per address, 200 in the whole shop an hour;
 * reset: 3 requests per email, 30 per address, 100 in the whole shop an hour (each may send a mail);
 * contact: 3 messages per email, 20 per address, 50 in the whole shop in 10 minutes (each is a mail to the shop);
 * stockAlert: 5 "notify me" requests per email, 20 per address, 200 in the whole shop in 10 minutes (a new one
 *   sends a confirmation to the address given);
 * withdrawal: 10 look-ups or confirmations per email and 50 per address in 10 minutes (an order number cannot
 *   be guessed by trying them all); no shop-wide ceiling: a look-up needs an order's number and email, writes
 *   nothing without them, and a ceiling would let anyone shut the statutory withdrawal function for everyone;
 * login: 5 failures per email from one address lock that pair; 30 failures from one address over any emails
 *   lock that address; from many addresses, 20 failures per email only slow its logins down, so an outsider
 *   cannot lock anyone out. Login keeps its per-address lock: it counts failures only (a right password
 *   forgets the attempt), and 30 failures over many emails from one address in 15 minutes is password
 *   spraying, which nothing else stops (the per-email slow-down never sees one try per email). There is no
 *   shop-wide ceiling for logins: it would let anyone lock every customer out.
 * discountCode: 10 codes tried per cart and 30 per address in 15 minutes (a code that applies is forgotten): a
 *   code cannot be found by trying them, and a shopper mistyping one is never stopped;
 * dataExport: 5 downloads of one's data per account an hour (each reads everything the shop holds about them);
 * lockerSearch: 20 new places searched for lockers per cart and 60 per address in 10 minutes (each is a call to
 *   InPost's API, on the shop's quota; a place searched before is answered from memory and not counted). No
 *   shop-wide ceiling: it would let anyone stop every shopper from finding a locker;
 * RATE_LIMIT_FACTOR scales every count, the shop-wide ceilings too.
 */
export const LIMITS = {
  login: { perPair: 5, perAddress: 30, slowAfterPerEmail: 20, windowMs: 15 * 60_000 },
  reset: { perEmail: 3, perAddress: 30, shopWide: 100, windowMs: 60 * 60_000 },
  signup: { perEmail: 3, perAddress: 50, shopWide: 200, windowMs: 60 * 60_000 },
  contact: { perEmail: 3, perAddress: 20, shopWide: 50, windowMs: 10 * 60_000 },
  withdrawal: { perEmail: 10, perAddress: 50, windowMs: 10 * 60_000 },
  stockAlert: { perEmail: 5, perAddress: 20, shopWide: 200, windowMs: 10 * 60_000 },
  discountCode: { perCart: 10, perAddress: 30, windowMs: 15 * 60_000 },
  dataExport: { perAccount: 5, windowMs: 60 * 60_000 },
  lockerSearch: { perCart: 20, perAddress: 60, windowMs: 10 * 60_000 },
} as const;
export type Limits = { [K in keyof typeof LIMITS]: { [F in keyof (typeof LIMITS)[K]]: number } };

/** The limits with every count multiplied by `factor` (RATE_LIMIT_FACTOR; windows stay). */
export function scaledLimits(factor: number): Limits {
  const scale = <T extends Record<string, number>>(rule: T): T =>
    Object.fromEntries(Object.entries(rule).map(([k, v]) => [k, k === 'windowMs' ? v : Math.max(1, Math.round(v * factor))])) as T;
  return {
    login: scale(LIMITS.login),
    reset: scale(LIMITS.reset),
    signup: scale(LIMITS.signup),
    contact: scale(LIMITS.contact),
    withdrawal: scale(LIMITS.withdrawal),
    stockAlert: scale(LIMITS.stockAlert),
    discountCode: scale(LIMITS.discountCode),
    dataExport: scale(LIMITS.dataExport),
    lockerSearch: scale(LIMITS.lockerSearch),
  };
}

const MAX_WINDOW_MS = Math.max(...Object.values(LIMITS).map((rule) => rule.windowMs));

/** `email:<normalized>`; the normalized form is what makes "Ola@X.pl" and "ola@x.pl" one scope. */
export const emailScope = (normalizedEmail: string) => `email:${normalizedEmail.slice(0, 320)}`;

/**
 * Every attempt of a kind, whoever and wherever from: the shop-wide ceiling's scope. It is one more row per
 * attempt, so the ceiling is counted through the (kind, scope_key, created_at) index like any other scope,
 * at most a ceiling's worth of index entries, never a scan of the kind's rows.
 */
export const SHOP_SCOPE = 'shop';

/**
 * The scopes of one attempt by an email (already normalized) from a client address: the email, the address
 * when it is known, and the whole shop when the kind has a ceiling.
 */
export function customerScopes(rule: { perEmail: number; perAddress: number; shopWide?: number }, normalizedEmail: string, ip: string | null | undefined): Scope[] {
  const scopes: Scope[] = [{ key: emailScope(normalizedEmail), limit: rule.perEmail }];
  const address = ipScope(ip);
  if (address) scopes.push({ key: address, limit: rule.perAddress });
  if (rule.shopWide !== undefined) scopes.push({ key: SHOP_SCOPE, limit: rule.shopWide });
  return scopes;
}

/** One email from one client address. */
export const pairScope = (email: string, ip: string) => `${email}|${ip}`;

/**
 * `ip:<address>`. IPv4-mapped IPv6 addresses count as their IPv4 address; other IPv6 addresses by their
 * /64 prefix (one subscriber usually holds a whole /64). Null when the address is unknown or not an IP
 * address (so "unknown" clients do not all share one bucket).
 */
export function ipScope(ip: string | null | undefined): string | null {
  const value = ip?.trim() ?? '';
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(value);
  if (mapped) return `ip:${mapped[1]}`;
  if (/^\d{1,3}(?:\.\d{1,3}){3}$/.test(value)) return `ip:${value}`;
  if (value.includes(':') && /^[0-9a-f:.]{2,45}(?:%[\w.-]{1,32})?$/i.test(value)) return `ip:${ipv6Prefix64(value)}`;
  return null;
}

function ipv6Prefix64(address: string): string {
  const clean = address.replace(/%.*$/, '').toLowerCase();
  const [head, tail] = clean.split('::');
  const headParts = head ? head.split(':') : [];
  const tailParts = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const missing = tail === undefined ? 0 : 8 - headParts.length - tailParts.length;
  const groups = [...headParts, ...Array(Math.max(0, missing)).fill('0'), ...tailParts];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

export type Attempt = {
  /** True when a scope with a limit is over it (this attempt included); the attempt's rows are then removed. */
  limited: boolean;
  /** The attempt's rows, for `forgetAttempt`. */
  ids: string[];
  /** How many attempts each scope holds within the window, this one included. */
  counts: Map<string, number>;
};

/**
 * Records one attempt for every scope and tells whether any limited scope is now over its limit. Over the
 * limit, the attempt's own rows are removed again: a refused attempt does not extend the lock-out.
 */
export async function recordAttempt(db: Executor, kind: LimitKind, scopes: Scope[], windowMs: number, now = new Date()): Promise<Attempt> {
  const at = now.toISOString();
  const rows = scopes.map((s) => ({ id: newId(), kind, scope_key: s.key, created_at: at }));
  if (rows.length === 0) return { limited: false, ids: [], counts: new Map() };
  await db.insertInto('rate_events').values(rows).execute();
  const since = new Date(now.getTime() - windowMs).toISOString();
  const found = await db
    .selectFrom('rate_events')
    .select(['scope_key', (eb) => eb.fn.countAll<number>().as('count')])
    .where('kind', '=', kind)
    .where(
      'scope_key',
      'in',
      scopes.map((s) => s.key),
    )
    .where('created_at', '>', since)
    .groupBy('scope_key')
    .execute();
  const counts = new Map(found.map((c) => [c.scope_key, Number(c.count)]));
  const ids = rows.map((r) => r.id);
  const limited = scopes.some((s) => s.limit !== undefined && (counts.get(s.key) ?? 0) > s.limit);
  if (limited) await forgetAttempt(db, ids);
  return { limited, ids, counts };
}

/** Removes an attempt's rows (a login that succeeded is not a failure). Earlier attempts stay. */
export async function forgetAttempt(db: Executor, ids: string[]): Promise<void> {
  if (ids.length > 0) await db.deleteFrom('rate_events').where('id', 'in', ids).execute();
}

/** Forgets every attempt of one email, alone or paired with an address (after a password reset). */
export async function clearEmailScopes(db: Executor, kind: LimitKind, normalizedEmail: string): Promise<void> {
  const key = emailScope(normalizedEmail);
  const paired = `${key}|`;
  await db
    .deleteFrom('rate_events')
    .where('kind', '=', kind)
    .where((eb) => eb.or([eb('scope_key', '=', key), eb(sql<string>`substr(scope_key, 1, ${paired.length})`, '=', paired)]))
    .execute();
}

/** Deletes rows older than the longest window. */
export async function pruneAttempts(db: Executor, now = new Date()): Promise<number> {
  const result = await db
    .deleteFrom('rate_events')
    .where('created_at', '<', new Date(now.getTime() - MAX_WINDOW_MS).toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
