import { type Executor, now } from '~/db/database.server';
import { newId } from '~/db/ids.server';
import type { AnalyticsEventName, EventProps } from './analytics.schema';

export type RecordEventInput<N extends AnalyticsEventName = AnalyticsEventName> = {
  name: N;
  props: EventProps<N>;
  path?: string | null;
  visitorId?: string | null;
  userId?: string | null;
};

/** Stores one event. Props must already be validated (analyticsEventSchema) or built by the server itself. */
export async function recordEvent<N extends AnalyticsEventName>(db: Executor, event: RecordEventInput<N>): Promise<string> {
  const id = newId();
  await db
    .insertInto('analytics_events')
    .values({
      id,
      name: event.name,
      props: JSON.stringify(event.props),
      path: event.path ?? null,
      visitor_id: event.visitorId ?? null,
      user_id: event.userId ?? null,
      created_at: now(),
    })
    .execute();
  return id;
}

/** How many events were recorded, of one name or of all. */
export async function countEvents(db: Executor, name?: AnalyticsEventName): Promise<number> {
  let query = db.selectFrom('analytics_events').select((eb) => eb.fn.countAll<number>().as('count'));
  if (name) query = query.where('name', '=', name);
  const { count } = await query.executeTakeFirstOrThrow();
  return Number(count);
}
