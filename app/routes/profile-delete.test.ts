/**
 * The deletion page's confirmation (on SQLite and PostgreSQL): an account with a password needs it (a wrong one is
 * refused and changes nothing); an account that only signs in with Google needs a sign-in asked for again at Google
 * in the last 10 minutes (an ordinary one, however recent, does not count);
 * an admin is refused; a deletion clears this browser's session and cart cookies.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { routeArgs } from '~/http/test-args';
import { createSession, getSessionUser, hasPassword, signUp } from '~/modules/accounts/index.server';
import { scaledLimits } from '~/modules/limits/index.server';
import { DEFAULT_RETENTION } from '~/modules/privacy/index.server';
import { action, loader } from './profile-delete';

const password = 'correct horse battery';
const log = pino({ level: 'silent' });
let counter = 0;
const email = (name: string) => `${name}.${Date.now().toString(36)}.${++counter}@example.test`;

describe.each(testDatabases())('the account deletion page on %s', (_kind, open) => {
  let handle: TestDatabase;
  beforeAll(async () => {
    handle = await open();
  });
  afterAll(() => handle.close());

  async function customer({ withPassword = true, signedInAgo = 0, admin = false, confirmed = false } = {}) {
    const address = email('ola');
    let userId: string;
    if (withPassword) {
      const made = await signUp(handle.db, { name: 'Ola', email: address, password });
      if (!made.ok) throw new Error(made.reason);
      userId = made.userId;
    } else {
      userId = `google-${++counter}`;
      const at = new Date().toISOString();
      await handle.db.insertInto('users').values({ id: userId, email: address, display_name: 'Ola', password_hash: null, photo_url: null, created_at: at, updated_at: at }).execute();
    }
    if (admin) await handle.db.updateTable('users').set({ is_admin: 1 }).where('id', '=', userId).execute();
    const token = await createSession(handle.db, userId, new Date(Date.now() - signedInAgo), { confirmed });
    const session = (await getSessionUser(handle.db, token))!;
    return { userId, email: address, token, user: session.user };
  }

  function call(who: Awaited<ReturnType<typeof customer>>, fields: Record<string, string> | null) {
    const request = fields
      ? new Request('http://localhost/profile/delete', { method: 'POST', body: new URLSearchParams(fields) })
      : new Request('http://localhost/profile/delete');
    const args = routeArgs(request, {
      app: { db: handle.db, log, limits: scaledLimits(1), clientIp: '127.0.0.1', kickMail: () => {}, config: { oidc: { issuer: 'http://127.0.0.1:1' }, retention: DEFAULT_RETENTION } as never },
      shopper: { user: who.user, sessionToken: who.token },
    });
    return { args, cookies: args.context };
  }
  const post = async (who: Awaited<ReturnType<typeof customer>>, fields: Record<string, string>) =>
    (await action(call(who, fields).args as never)) as unknown as { data: { status: string; problems: string[]; fieldErrors: Record<string, string> }; init: { status: number } | null };
  const deleted = async (userId: string) => (await handle.db.selectFrom('users').select('deleted_at').where('id', '=', userId).executeTakeFirstOrThrow()).deleted_at !== null;

  it('asks for the password; a wrong one is refused and changes nothing; the right one deletes', async () => {
    const ola = await customer();
    expect(await loader(call(ola, null).args as never)).toMatchObject({ password: true });
    const wrong = await post(ola, { reviews: 'keep', confirm: 'yes', password: 'not it' });
    expect(wrong.init?.status).toBe(400);
    expect(wrong.data.fieldErrors).toEqual({ password: 'privacy.delete.errors.password' });
    const unticked = await post(ola, { reviews: 'keep', password });
    expect(unticked.data.fieldErrors).toEqual({ confirm: 'privacy.delete.errors.confirm' });
    const noChoice = await post(ola, { reviews: 'maybe', confirm: 'yes', password });
    expect(noChoice.data.fieldErrors).toEqual({ reviews: 'privacy.delete.errors.reviews' });
    expect(await deleted(ola.userId)).toBe(false);
    expect(await hasPassword(handle.db, ola.userId)).toBe(true);

    const { args } = call(ola, { reviews: 'remove', confirm: 'yes', password });
    const done = (await action(args as never)) as unknown as { data: { status: string } };
    expect(done.data.status).toBe('deleted');
    expect(await deleted(ola.userId)).toBe(true);
    expect(await getSessionUser(handle.db, ola.token)).toBeNull();
  });

  it('a Google-only account confirms with a sign-in asked for again in the last 10 minutes, not an older one nor an ordinary one', async () => {
    // An ordinary "Continue with Google" a minute ago (it may have passed straight through Google's session).
    const ordinary = await customer({ withPassword: false, signedInAgo: 60_000 });
    expect(await loader(call(ordinary, null).args as never)).toMatchObject({ password: false, fresh: false });
    expect((await post(ordinary, { reviews: 'keep', confirm: 'yes' })).data.problems).toEqual(['reauth']);
    expect(await deleted(ordinary.userId)).toBe(false);

    const stale = await customer({ withPassword: false, signedInAgo: 11 * 60_000, confirmed: true });
    expect(await loader(call(stale, null).args as never)).toMatchObject({ password: false, fresh: false });
    const refused = await post(stale, { reviews: 'keep', confirm: 'yes' });
    expect(refused.data.problems).toEqual(['reauth']);
    expect(await deleted(stale.userId)).toBe(false);

    const fresh = await customer({ withPassword: false, signedInAgo: 60_000, confirmed: true });
    expect(await loader(call(fresh, null).args as never)).toMatchObject({ password: false, fresh: true });
    expect((await post(fresh, { reviews: 'keep', confirm: 'yes' })).data.status).toBe('deleted');
    expect(await deleted(fresh.userId)).toBe(true);
  });

  it('refuses an admin, with the password right', async () => {
    const admin = await customer({ admin: true });
    const refused = await post(admin, { reviews: 'keep', confirm: 'yes', password });
    expect(refused.init?.status).toBe(409);
    expect(refused.data.problems).toEqual(['admin']);
    expect(await deleted(admin.userId)).toBe(false);
  });
});
