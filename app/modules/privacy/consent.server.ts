/**
 * The cookie banner's choices, kept as the proof of consent the GDPR asks for (Art. 7(1)): each choice is a new
 * row with its time and the banner's version, for the browser's visitor id and the signed-in customer, never
 * overwritten. The latest row of a visitor id decides whether the server still takes its analytics.
 */
import type { Executor } from '~/db/database.server';
import { newId } from '~/db/ids.server';

export type ConsentInput = {
  /** The browser's analytics id; null for a decline made before any id existed. */
  visitorId: string | null;
  userId: string | null;
  analytics: boolean;
  /** The banner's version the choice was made on. */
  version: string;
  now?: Date;
};

export type Consent = { analytics: boolean; version: string; visitorId: string | null; createdAt: string };

/** Appends one choice. The input must already be validated (the route's schema). */
export async function recordConsent(db: Executor, input: ConsentInput): Promise<string> {
  const id = newId();
  await db
    .insertInto('consents')
    .values({
      id,
      visitor_id: input.visitorId,
      user_id: input.userId,
      analytics: input.analytics ? 1 : 0,
      version: input.version,
      created_at: (input.now ?? new Date()).toISOString(),
    })
    .execute();
  return id;
}

/** The visitor id's latest choice, or null when none was recorded. */
export async function latestConsent(db: Executor, visitorId: string): Promise<Consent | null> {
  const row = await db
    .selectFrom('consents')
    .select(['analytics', 'version', 'visitor_id', 'created_at'])
    .where('visitor_id', '=', visitorId)
    .orderBy('created_at', 'desc')
    // Two choices in the same millisecond: the decline wins.
    .orderBy('analytics', 'asc')
    .limit(1)
    .executeTakeFirst();
  return row ? toConsent(row) : null;
}

/**
 * Whether the server may record analytics for this visitor id: not once its latest choice is a decline or a
 * withdrawal. An id with no recorded choice is allowed, since only a browser that accepted has one (a choice
 * made before choices were recorded, or whose record was lost on the way).
 */
export async function analyticsAllowed(db: Executor, visitorId: string): Promise<boolean> {
  return (await latestConsent(db, visitorId))?.analytics ?? true;
}

/** Every choice made while signed in to this account, oldest first (the customer's data export). */
export async function consentsOf(db: Executor, userId: string): Promise<Consent[]> {
  const rows = await db
    .selectFrom('consents')
    .select(['analytics', 'version', 'visitor_id', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
  return rows.map(toConsent);
}

const toConsent = (row: { analytics: number; version: string; visitor_id: string | null; created_at: string }): Consent => ({
  analytics: Number(row.analytics) === 1,
  version: row.version,
  visitorId: row.visitor_id,
  createdAt: row.created_at,
});
