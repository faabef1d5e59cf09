import { type Executor, inTransaction } from '~/db/database.server';
import { type Locale, getT } from '~/modules/i18n/index.server';
import { type OutgoingMail, queueMail } from '~/modules/mail/index.server';
import { hashPassword } from './passwords.server';
import { LIMITS, type Limits, clearEmailScopes, customerScopes, recordAttempt } from '~/modules/limits/index.server';
import { hashToken, newSecretToken, normalizeEmail, tokenPattern } from './secrets.server';
import { deleteUserSessions } from './sessions.server';
import { localePath, siteUrlOf } from '~/modules/i18n/paths';

/** A reset link works once, within an hour. */
export const RESET_TOKEN_TTL_MS = 60 * 60_000;

export type RequestPasswordResetResult = { ok: true } | { ok: false; reason: 'rate_limited' };
export type ResetPasswordResult = { ok: true; userId: string } | { ok: false; reason: 'invalid_token' };

/**
 * Sends a reset link when the email belongs to an account (with or without a password: a Google-only
 * customer may add one this way; disabled accounts get nothing). The answer is the same whether or not the
 * account exists, and so is the work apart from two inserts; requests count against the rate limits
 * (LIMITS.reset: per email, per address and across the shop) either way. The token and the mail are written
 * in one transaction.
 */
export async function requestPasswordReset(
  db: Executor,
  /** `welcome`: an account just made from a guest's order, whose first password this sets. */
  input: { email: string; ip?: string | null; locale: Locale; publicUrl: URL; now?: Date; mail?: 'reset' | 'welcome' },
  limits: Pick<Limits, 'reset'> = LIMITS,
): Promise<RequestPasswordResetResult> {
  const now = input.now ?? new Date();
  const email = normalizeEmail(input.email);
  const rule = limits.reset;
  const attempt = await recordAttempt(db, 'reset', customerScopes(rule, email, input.ip), rule.windowMs, now);
  if (attempt.limited) return { ok: false, reason: 'rate_limited' };

  const user = await db
    .selectFrom('users')
    .select(['id', 'email', 'display_name', 'disabled'])
    .where('email', '=', email)
    .executeTakeFirst();
  if (!user || Number(user.disabled) === 1) return { ok: true };

  const token = newSecretToken();
  await inTransaction(db, async (trx) => {
    await trx
      .insertInto('password_reset_tokens')
      .values({
        id: hashToken(token),
        user_id: user.id,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + RESET_TOKEN_TTL_MS).toISOString(),
        used_at: null,
      })
      .execute();
    await queueMail(trx, resetMail({ to: user.email, name: user.display_name, link: resetLink(input.publicUrl, token, input.locale), locale: input.locale, kind: input.mail }));
  });
  return { ok: true };
}

/** Whether a link's token can still be used (to show the form or the "invalid link" message). */
export async function checkResetToken(db: Executor, token: string, now = new Date()): Promise<boolean> {
  return (await findUsableToken(db, token, now)) !== null;
}

/**
 * Sets a new password with a reset token. In one transaction: the token is spent (only one caller can
 * spend it), the password changes, the account's other reset links die, every session of the account ends,
 * and the account's login lock (failed attempts by email) is lifted.
 */
export async function resetPassword(
  db: Executor,
  input: { token: string; password: string; now?: Date },
): Promise<ResetPasswordResult> {
  const now = input.now ?? new Date();
  const found = await findUsableToken(db, input.token, now);
  if (!found) return { ok: false, reason: 'invalid_token' };
  const passwordHash = await hashPassword(input.password);
  const at = now.toISOString();
  return inTransaction(db, async (trx): Promise<ResetPasswordResult> => {
    const spent = await trx
      .updateTable('password_reset_tokens')
      .set({ used_at: at })
      .where('id', '=', found.id)
      .where('used_at', 'is', null)
      .where('expires_at', '>', at)
      .executeTakeFirst();
    if (Number(spent.numUpdatedRows) !== 1) return { ok: false, reason: 'invalid_token' };
    await trx.updateTable('users').set({ password_hash: passwordHash, updated_at: at }).where('id', '=', found.userId).execute();
    await trx
      .updateTable('password_reset_tokens')
      .set({ used_at: at })
      .where('user_id', '=', found.userId)
      .where('used_at', 'is', null)
      .execute();
    await deleteUserSessions(trx, found.userId);
    await clearEmailScopes(trx, 'login', found.email);
    return { ok: true, userId: found.userId };
  });
}

/** Deletes reset tokens that expired more than a day ago (for a periodic clean-up). */
export async function pruneResetTokens(db: Executor, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - 24 * 60 * 60_000).toISOString();
  const result = await db.deleteFrom('password_reset_tokens').where('expires_at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}

async function findUsableToken(db: Executor, token: string, now: Date) {
  if (typeof token !== 'string' || !tokenPattern.test(token)) return null;
  const id = hashToken(token);
  const row = await db
    .selectFrom('password_reset_tokens')
    .innerJoin('users', 'users.id', 'password_reset_tokens.user_id')
    .select(['password_reset_tokens.user_id', 'users.email'])
    .where('password_reset_tokens.id', '=', id)
    .where('password_reset_tokens.used_at', 'is', null)
    .where('password_reset_tokens.expires_at', '>', now.toISOString())
    .executeTakeFirst();
  return row ? { id, userId: row.user_id, email: row.email } : null;
}

/** `${PUBLIC_URL}/auth/reset?token=…` (`/pl/auth/reset…` in Polish), keeping a path prefix of PUBLIC_URL if it has one. */
export function resetLink(publicUrl: URL, token: string, locale: Locale = 'en'): string {
  return `${siteUrlOf(publicUrl)}${localePath(locale, '/auth/reset')}?token=${encodeURIComponent(token)}`;
}

/** The reset mail in the visitor's language: plain text and a simple HTML version. */
export function resetMail({ to, name, link, locale, kind = 'reset' }: { to: string; name: string; link: string; locale: Locale; kind?: 'reset' | 'welcome' }): OutgoingMail {
  const t = getT(locale);
  const m = (key: string) => t(`auth.${kind}Mail.${key}`, { name });
  const text = [m('greeting'), '', m('intro'), '', link, '', m('expiry'), m('ignore'), '', m('signature'), ''].join('\n');
  const html = [
    `<!doctype html><html lang="${locale}"><body style="font-family:sans-serif;line-height:1.5">`,
    `<p>${escapeHtml(m('greeting'))}</p>`,
    `<p>${escapeHtml(m('intro'))}</p>`,
    `<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 18px;background:#2f5d3a;color:#fff;border-radius:999px;text-decoration:none">${escapeHtml(m('action'))}</a></p>`,
    `<p style="word-break:break-all;color:#555">${escapeHtml(link)}</p>`,
    `<p>${escapeHtml(m('expiry'))}<br>${escapeHtml(m('ignore'))}</p>`,
    `<p>${escapeHtml(m('signature'))}</p>`,
    '</body></html>',
  ].join('\n');
  return { to, subject: m('subject'), text, html };
}

const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => entities[c]);
