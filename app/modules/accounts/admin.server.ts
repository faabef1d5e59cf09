import { type Executor, inTransaction, now } from '~/db/database.server';
import { hashPassword } from './passwords.server';
import { isUniqueViolation } from '~/db/errors.server';
import { normalizeEmail } from './secrets.server';
import { deleteUserSessions } from './sessions.server';
import { findUserId, insertUser } from './users.server';

/**
 * For the command line: creates an admin account, or makes an existing account an admin and sets its
 * password (which, like a reset, ends the account's sessions). Input is validated by the caller.
 */
export async function createAdmin(
  db: Executor,
  input: { email: string; password: string; name?: string },
): Promise<{ created: boolean }> {
  const email = normalizeEmail(input.email);
  const passwordHash = await hashPassword(input.password);
  const promote = async (userId: string) =>
    inTransaction(db, async (trx) => {
      await trx
        .updateTable('users')
        .set({
          is_admin: 1,
          password_hash: passwordHash,
          updated_at: now(),
          ...(input.name?.trim() ? { display_name: input.name.trim() } : {}),
        })
        .where('id', '=', userId)
        .execute();
      await deleteUserSessions(trx, userId);
      return { created: false };
    });

  const existing = await findUserId(db, email);
  if (existing) return promote(existing);
  try {
    await insertUser(db, { email, displayName: input.name?.trim() ?? '', passwordHash, isAdmin: true });
    return { created: true };
  } catch (error) {
    const raced = isUniqueViolation(error) ? await findUserId(db, email) : null;
    if (raced) return promote(raced);
    throw error;
  }
}

/** Grants or revokes the admin role. False when no account has this email. Takes effect on the next request. */
export async function setAdmin(db: Executor, email: string, isAdmin: boolean): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ is_admin: isAdmin ? 1 : 0, updated_at: now() })
    .where('email', '=', normalizeEmail(email))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
