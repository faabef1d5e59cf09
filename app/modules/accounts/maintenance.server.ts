import type { Executor } from '~/db/database.server';
import { pruneResetTokens } from './password-reset.server';
import { pruneAttempts } from '~/modules/limits/index.server';
import { pruneExpiredSessions } from './sessions.server';

/** Deletes expired sessions, spent-and-old reset tokens and rate-limit rows outside every window. Run now and then. */
export async function pruneAccountData(
  db: Executor,
  now = new Date(),
): Promise<{ sessions: number; resetTokens: number; attempts: number }> {
  return {
    sessions: await pruneExpiredSessions(db, now),
    resetTokens: await pruneResetTokens(db, now),
    attempts: await pruneAttempts(db, now),
  };
}
