/** The owner's inbox on SQLite and PostgreSQL: newest first, unread count, handled (once), unread again, deleted. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '~/db/database.server';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { countUnreadMessages, deleteMessage, listMessages, markMessage, submitContactMessage } from './index.server';

const owner = { id: 'owner-1', email: 'owner@kopi.test' };
const other = { id: 'owner-2', email: 'other@kopi.test' };

describe.each(testDatabases())('the inbox on %s', (_kind, open) => {
  let handle: TestDatabase;
  let db: DB;
  const ids: string[] = [];

  beforeAll(async () => {
    handle = await open();
    db = handle.db;
    for (const i of [1, 2, 3]) {
      const sent = await submitContactMessage(db, { input: { name: `Ola ${i}`, email: `ola${i}@example.com`, subject: `Question ${i}`, message: `Hello ${i}` }, locale: i === 2 ? 'pl' : 'en', contactTo: 'shop@kopi.test' });
      if (!sent.ok) throw new Error(sent.reason);
      ids.push(sent.id);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  });
  afterAll(() => handle.close());

  const activity = () => db.selectFrom('activity_log').select(['action', 'subject_label', 'actor_email']).where('subject_type', '=', 'message').orderBy('created_at').execute();

  it('lists newest first and counts the unread', async () => {
    const { messages, total } = await listMessages(db);
    expect(total).toBe(3);
    expect(messages.map((m) => m.subject)).toEqual(['Question 3', 'Question 2', 'Question 1']);
    expect(messages[1]).toMatchObject({ name: 'Ola 2', email: 'ola2@example.com', message: 'Hello 2', locale: 'pl', handledAt: null });
    expect(await countUnreadMessages(db)).toBe(3);
  });

  it('marks handled once (two admins at once log it once), and unread again', async () => {
    const results = await Promise.all([markMessage(db, owner, ids[0], true), markMessage(db, other, ids[0], true)]);
    expect(results).toEqual([{ ok: true }, { ok: true }]);
    expect(await countUnreadMessages(db)).toBe(2);
    expect((await listMessages(db, { unreadOnly: true })).messages.map((m) => m.id)).toEqual([ids[2], ids[1]]);
    expect(await activity()).toHaveLength(1);
    expect(await markMessage(db, owner, ids[0], false)).toEqual({ ok: true });
    expect(await countUnreadMessages(db)).toBe(3);
    expect(await markMessage(db, owner, 'missing', true)).toEqual({ ok: false, reason: 'not_found' });
    expect(await markMessage(db, owner, "' or 1=1 --", true)).toEqual({ ok: false, reason: 'not_found' });
  });

  it('deletes a message for good, once', async () => {
    expect(await deleteMessage(db, owner, ids[1])).toEqual({ ok: true });
    expect(await deleteMessage(db, owner, ids[1])).toEqual({ ok: false, reason: 'not_found' });
    expect((await listMessages(db)).total).toBe(2);
    expect((await activity()).map((a) => [a.action, a.subject_label])).toEqual([
      ['message.handled', 'Question 1'],
      ['message.deleted', 'Question 2'],
    ]);
  });
});
