import { type Executor, now } from '~/db/database.server';
import { newId } from '~/db/ids.server';
import { burnVerification, hashPassword, verifyPassword } from './passwords.server';
import { isUniqueViolation } from '~/db/errors.server';
import { LIMITS, type Limits, type Scope, customerScopes, emailScope, forgetAttempt, ipScope, pairScope, recordAttempt } from '~/modules/limits/index.server';
import { normalizeEmail } from './secrets.server';

/** What the app knows about the signed-in user. Never carries the password hash. */
export type SessionUser = { id: string; email: string; displayName: string; isAdmin: boolean; photoUrl: string | null };

export type SignUpResult = { ok: true; userId: string } | { ok: false; reason: 'email_taken' | 'rate_limited' };
export type LogInResult = { ok: true; userId: string } | { ok: false; reason: 'invalid_credentials' | 'rate_limited' | 'disabled' };

/** The longest a login is held back when its email draws failures from many addresses. */
export const MAX_LOGIN_SLOWDOWN_MS = 3_000;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Creates a customer account (never an admin). Emails are unique whatever their case. Attempts count per
 * email, per client address and across the shop (LIMITS.signup): one email a few times, one address as many
 * as the customers behind a shared one, and the shop a ceiling that cuts off a scan from many addresses.
 * A refused attempt writes nothing.
 */
export async function signUp(
  db: Executor,
  input: { name: string; email: string; password: string; ip?: string | null },
  limits: Pick<Limits, 'signup'> = LIMITS,
): Promise<SignUpResult> {
  const email = normalizeEmail(input.email);
  const rule = limits.signup;
  if ((await recordAttempt(db, 'signup', customerScopes(rule, email, input.ip), rule.windowMs)).limited) return { ok: false, reason: 'rate_limited' };
  if (await findUserId(db, email)) return { ok: false, reason: 'email_taken' };
  const passwordHash = await hashPassword(input.password);
  try {
    const userId = await insertUser(db, { email, displayName: input.name.trim(), passwordHash });
    return { ok: true, userId };
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, reason: 'email_taken' };
    throw error;
  }
}

/**
 * Checks an email and password. Failed attempts are counted before the check (LIMITS.login): an email from
 * one client address is locked after a few failures, and so is an address failing over many emails; an
 * email failing from many addresses is only slowed down (up to MAX_LOGIN_SLOWDOWN_MS a try), so nobody
 * elsewhere can lock its owner out. An unknown email, a wrong password and an account without a password
 * (Google only) all answer invalid_credentials, in about the same time. "disabled" is only told to someone
 * who knows the password.
 */
export async function logIn(
  db: Executor,
  input: { email: string; password: string; ip?: string | null },
  { limits = LIMITS, wait = sleep }: { limits?: Pick<Limits, 'login'>; wait?: (ms: number) => Promise<void> } = {},
): Promise<LogInResult> {
  const email = normalizeEmail(input.email);
  const rule = limits.login;
  const emailKey = emailScope(email);
  const ip = ipScope(input.ip);
  // Without a known address, the email alone is the pair.
  const scopes: Scope[] = ip
    ? [{ key: pairScope(emailKey, ip), limit: rule.perPair }, { key: ip, limit: rule.perAddress }, { key: emailKey }]
    : [{ key: emailKey, limit: rule.perPair }];

  const attempt = await recordAttempt(db, 'login', scopes, rule.windowMs);
  if (attempt.limited) return { ok: false, reason: 'rate_limited' };
  const excess = (attempt.counts.get(emailKey) ?? 0) - rule.slowAfterPerEmail;
  if (ip && excess > 0) await wait(Math.min(MAX_LOGIN_SLOWDOWN_MS, excess * 250));

  const user = await db
    .selectFrom('users')
    .select(['id', 'password_hash', 'disabled'])
    .where('email', '=', email)
    .executeTakeFirst();
  if (!user?.password_hash) {
    await burnVerification(input.password);
    return { ok: false, reason: 'invalid_credentials' };
  }
  if (!(await verifyPassword(user.password_hash, input.password))) return { ok: false, reason: 'invalid_credentials' };

  await forgetAttempt(db, attempt.ids);
  if (user.disabled) return { ok: false, reason: 'disabled' };
  return { ok: true, userId: user.id };
}

/** Whether the account signs in with a password (else only with an identity provider). */
export async function hasPassword(db: Executor, userId: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirst();
  return Boolean(row?.password_hash);
}

export async function getUser(db: Executor, userId: string): Promise<SessionUser | null> {
  const row = await selectUser(db).where('id', '=', userId).executeTakeFirst();
  return row ? toSessionUser(row) : null;
}

/** The account with this email (any case), or null. */
export async function findUserByEmail(db: Executor, email: string): Promise<SessionUser | null> {
  const row = await selectUser(db).where('email', '=', normalizeEmail(email)).executeTakeFirst();
  return row ? toSessionUser(row) : null;
}

// --- shared within the module ------------------------------------------------------------------------

export async function findUserId(db: Executor, normalizedEmail: string): Promise<string | null> {
  const row = await db.selectFrom('users').select('id').where('email', '=', normalizedEmail).executeTakeFirst();
  return row?.id ?? null;
}

/** Inserts a user; throws the database's unique violation when the email is taken. */
export async function insertUser(
  db: Executor,
  user: { email: string; displayName: string; passwordHash: string | null; isAdmin?: boolean; photoUrl?: string | null },
): Promise<string> {
  const id = newId();
  const at = now();
  await db
    .insertInto('users')
    .values({
      id,
      email: normalizeEmail(user.email),
      display_name: user.displayName || normalizeEmail(user.email).split('@')[0],
      password_hash: user.passwordHash,
      is_admin: user.isAdmin ? 1 : 0,
      disabled: 0,
      photo_url: user.photoUrl ?? null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return id;
}

const selectUser = (db: Executor) =>
  db.selectFrom('users').select(['id', 'email', 'display_name', 'is_admin', 'photo_url']);

export const toSessionUser = (row: {
  id: string;
  email: string;
  display_name: string;
  is_admin: number;
  photo_url: string | null;
}): SessionUser => ({
  id: row.id,
  email: row.email,
  displayName: row.display_name,
  isAdmin: Number(row.is_admin) === 1,
  photoUrl: row.photo_url,
});
