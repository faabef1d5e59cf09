import type { Executor } from '~/db/database.server';
import { hashToken, newSecretToken, tokenPattern } from './secrets.server';
import { type SessionUser, toSessionUser } from './users.server';

/**
 * Sessions: an opaque random token in the signed, httpOnly `kopi_session` cookie (app/http/cookies.server.ts);
 * the database keeps only its SHA-256, so neither a database copy nor a log line can be replayed. Roles and
 * the disabled flag are read with every lookup.
 */
export const SESSION_TTL_MS = 30 * 24 * 60 * 60_000;
/** A session used again after this long gets a fresh 30-day expiry (at most one write a day per session). */
const REFRESH_AFTER_MS = 24 * 60 * 60_000;

export type SessionLookup = {
  user: SessionUser;
  /** The stored id (the token's hash), not the token. */
  sessionId: string;
  /** True when this lookup extended the expiry: re-send `sessionCookie(token)` so the browser's copy lasts as long. */
  refreshed: boolean;
  /** The customer's cart (null before the first), read with the session: every request needs both. */
  cartId: string | null;
};

/** Starts a session; returns the token for the cookie (only its hash is stored). */
/** `confirmed`: the sign-in confirmed who the customer is (asked again at the provider; see `sessionConfirmedAt`). */
export async function createSession(db: Executor, userId: string, now = new Date(), { confirmed = false }: { confirmed?: boolean } = {}): Promise<string> {
  const token = newSecretToken();
  const at = now.toISOString();
  await db
    .insertInto('sessions')
    .values({
      id: hashToken(token),
      user_id: userId,
      created_at: at,
      expires_at: new Date(now.getTime() + SESSION_TTL_MS).toISOString(),
      last_seen_at: at,
      confirmed_at: confirmed ? at : null,
    })
    .execute();
  // Tidy up this user's expired sessions while we are here.
  await db.deleteFrom('sessions').where('user_id', '=', userId).where('expires_at', '<=', at).execute();
  return token;
}

/**
 * The session's user, or null when the token is missing, unknown, expired, or the account is disabled.
 * `isAdmin` comes from the database on every call.
 */
export async function getSessionUser(db: Executor, token: string | null, now = new Date()): Promise<SessionLookup | null> {
  if (!token || !tokenPattern.test(token)) return null;
  const id = hashToken(token);
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .leftJoin('carts', 'carts.user_id', 'users.id')
    .select([
      'carts.id as cart_id',
      'sessions.expires_at',
      'sessions.last_seen_at',
      'users.id',
      'users.email',
      'users.display_name',
      'users.is_admin',
      'users.photo_url',
      'users.disabled',
    ])
    .where('sessions.id', '=', id)
    .executeTakeFirst();
  if (!row) return null;
  const at = now.toISOString();
  if (row.expires_at <= at) {
    await db.deleteFrom('sessions').where('id', '=', id).execute();
    return null;
  }
  if (Number(row.disabled) === 1) return null;

  let refreshed = false;
  if (now.getTime() - Date.parse(row.last_seen_at) >= REFRESH_AFTER_MS) {
    await db
      .updateTable('sessions')
      .set({ last_seen_at: at, expires_at: new Date(now.getTime() + SESSION_TTL_MS).toISOString() })
      .where('id', '=', id)
      .execute();
    refreshed = true;
  }
  return { user: toSessionUser(row), sessionId: id, refreshed, cartId: row.cart_id };
}

/**
 * When this session's sign-in confirmed who the customer is — a sign-in asked for again at the provider, not an
 * ordinary one that may pass straight through the browser's Google session — or null.
 */
export async function sessionConfirmedAt(db: Executor, token: string | null): Promise<Date | null> {
  if (!token || !tokenPattern.test(token)) return null;
  const row = await db.selectFrom('sessions').select('confirmed_at').where('id', '=', hashToken(token)).executeTakeFirst();
  return row?.confirmed_at ? new Date(row.confirmed_at) : null;
}

export async function deleteSession(db: Executor, token: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', hashToken(token)).execute();
}

/** Ends every session of the user (password reset, password set from the command line). */
export async function deleteUserSessions(db: Executor, userId: string): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
}

/** Deletes expired sessions (for a periodic clean-up). */
export async function pruneExpiredSessions(db: Executor, now = new Date()): Promise<number> {
  const result = await db.deleteFrom('sessions').where('expires_at', '<=', now.toISOString()).executeTakeFirst();
  return Number(result.numDeletedRows);
}
