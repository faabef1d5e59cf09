import type { Executor } from '~/db/database.server';
import { newId } from '~/db/ids.server';

/**
 * Failure counting for the login and password-reset rate limits, in `auth_failures`. An attempt is
 * recorded BEFORE the slow work (password verification) and counted together with the earlier ones, so
 * a burst of parallel requests cannot all slip through before the first failure is written.
 */
export type LimitKind = 'login' | 'reset';
export type Scope = { key: string; limit: number };

const MAX_WINDOW_MS = 60 * 60_000;

/** `email:<normalized>`; the normalized form is what makes "Ola@X.pl" and "ola@x.pl" one scope. */
export const emailScope = (normalizedEmail: string) => `email:${normalizedEmail.slice(0, 320)}`;

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

/**
 * Records one attempt for every scope and tells whether any scope is now over its limit (the attempt
 * included). Over the limit, the attempt's own rows are removed again (a refused attempt does not extend the
 * lock-out) and `limited` is true. Otherwise the returned `ids` identify the rows, for `forgetAttempt`.
 */
export async function recordAttempt(
  db: Executor,
  kind: LimitKind,
  scopes: Scope[],
  windowMs: number,
  now = new Date(),
): Promise<{ limited: boolean; ids: string[] }> {
  const at = now.toISOString();
  const rows = scopes.map((s) => ({ id: newId(), kind, scope_key: s.key, created_at: at }));
  if (rows.length === 0) return { limited: false, ids: [] };
  await db.insertInto('auth_failures').values(rows).execute();
  const since = new Date(now.getTime() - windowMs).toISOString();
  const counts = await db
    .selectFrom('auth_failures')
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
  const countOf = new Map(counts.map((c) => [c.scope_key, Number(c.count)]));
  const ids = rows.map((r) => r.id);
  const limited = scopes.some((s) => (countOf.get(s.key) ?? 0) > s.limit);
  if (limited) await forgetAttempt(db, ids);
  return { limited, ids };
}

/** Removes an attempt's rows (a login that succeeded is not a failure). Earlier failures stay. */
export async function forgetAttempt(db: Executor, ids: string[]): Promise<void> {
  if (ids.length > 0) await db.deleteFrom('auth_failures').where('id', 'in', ids).execute();
}

/** Forgets the recorded failures of one scope (after a password reset, the account's login lock ends). */
export async function clearScope(db: Executor, kind: LimitKind, key: string): Promise<void> {
  await db.deleteFrom('auth_failures').where('kind', '=', kind).where('scope_key', '=', key).execute();
}

/** Deletes rows older than the longest window. */
export async function pruneAttempts(db: Executor, now = new Date()): Promise<number> {
  const result = await db
    .deleteFrom('auth_failures')
    .where('created_at', '<', new Date(now.getTime() - MAX_WINDOW_MS).toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
