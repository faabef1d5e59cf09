import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DB } from '~/db/database.server';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { LIMITS } from '~/modules/limits/index.server';
import {
  checkResetToken,
  createSession,
  getSessionUser,
  logIn,
  requestPasswordReset,
  resetPassword,
  signUp,
} from './index.server';
import { resetLink } from './password-reset.server';
import { hashToken } from './secrets.server';

const publicUrl = new URL('https://shop.example.com');
const hour = 60 * 60_000;
let counter = 0;

describe('reset links', () => {
  it('point at /auth/reset on the public URL, keeping a path prefix', () => {
    expect(resetLink(new URL('https://shop.example.com'), 'abc')).toBe('https://shop.example.com/auth/reset?token=abc');
    expect(resetLink(new URL('https://example.com/kopi/'), 'abc')).toBe('https://example.com/kopi/auth/reset?token=abc');
    expect(resetLink(new URL('https://example.com/kopi/'), 'abc', 'pl')).toBe('https://example.com/kopi/pl/auth/reset?token=abc');
  });
});

describe.each(testDatabases())('password reset on %s', (_kind, open) => {
  let handle: TestDatabase;
  let db: DB;
  beforeAll(async () => {
    handle = await open();
    db = handle.db;
  });
  afterAll(() => handle.close());
  beforeEach(async () => {
    await db.deleteFrom('mail_outbox').execute();
  });

  async function newAccount(name = 'Ola') {
    const email = `reset.${++counter}@example.com`;
    const result = await signUp(db, { name, email, password: 'old password' });
    if (!result.ok) throw new Error('sign-up failed');
    return { email, userId: result.userId };
  }
  const ip = () => `10.3.${counter}.${Math.floor(Math.random() * 250)}`;
  const outbox = () => db.selectFrom('mail_outbox').selectAll().orderBy('created_at').execute();
  const tokenFrom = (text: string) => /token=([A-Za-z0-9_-]{43})/.exec(text)?.[1] ?? '';

  async function requestToken(email: string, locale: 'en' | 'pl' = 'en', now?: Date) {
    expect(await requestPasswordReset(db, { email, ip: ip(), locale, publicUrl, now })).toEqual({ ok: true });
    const mails = await outbox();
    return tokenFrom(mails.at(-1)?.text_body ?? '');
  }

  it("queues a mail in the visitor's language with a single-use link, storing only the token's hash", async () => {
    const { email } = await newAccount('Ola <b>');
    expect(await requestPasswordReset(db, { email: email.toUpperCase(), ip: ip(), locale: 'pl', publicUrl })).toEqual({ ok: true });
    const [mail] = await outbox();
    expect(mail).toMatchObject({ to_address: email, subject: 'Zresetuj hasło do Kopi', status: 'queued' });
    expect(mail.text_body).toContain('Cześć Ola <b>,');
    expect(mail.text_body, 'the Polish page of the form').toMatch(/https:\/\/shop\.example\.com\/pl\/auth\/reset\?token=[A-Za-z0-9_-]{43}\n/);
    expect(mail.text_body).toContain('wygasa po godzinie');
    expect(mail.html_body).toContain('Ola &lt;b&gt;');
    expect(mail.html_body).toContain('href="https://shop.example.com/pl/auth/reset?token=');
    const token = tokenFrom(mail.text_body);
    const rows = await db.selectFrom('password_reset_tokens').selectAll().execute();
    expect(rows.map((r) => r.id)).toContain(hashToken(token));
    expect(JSON.stringify(rows)).not.toContain(token);

    const english = await newAccount();
    await requestToken(english.email, 'en');
    expect((await outbox()).at(-1)).toMatchObject({ subject: 'Reset your Kopi password' });
  });

  it('answers the same for an unknown email, and sends nothing', async () => {
    expect(await requestPasswordReset(db, { email: 'nobody.here@example.com', ip: ip(), locale: 'en', publicUrl })).toEqual({ ok: true });
    expect(await outbox()).toEqual([]);
  });

  it('also sends a link to an account without a password (Google only), but not to a disabled one', async () => {
    const googleOnly = `google.${++counter}@example.com`;
    await db
      .insertInto('users')
      .values({ id: `g${counter}`, email: googleOnly, display_name: 'G', password_hash: null, created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z' })
      .execute();
    const token = await requestToken(googleOnly);
    expect(await resetPassword(db, { token, password: 'now with a password' })).toEqual({ ok: true, userId: `g${counter}` });
    expect(await logIn(db, { email: googleOnly, password: 'now with a password', ip: null })).toEqual({ ok: true, userId: `g${counter}` });

    await db.deleteFrom('mail_outbox').execute();
    const { email, userId } = await newAccount();
    await db.updateTable('users').set({ disabled: 1 }).where('id', '=', userId).execute();
    expect(await requestPasswordReset(db, { email, ip: ip(), locale: 'en', publicUrl })).toEqual({ ok: true });
    expect(await outbox()).toEqual([]);
  });

  it('sets the new password once: the token is spent, every session ends, other links die', async () => {
    const { email, userId } = await newAccount();
    const sessions = [await createSession(db, userId), await createSession(db, userId)];
    const first = await requestToken(email);
    const second = await requestToken(email);
    expect(await checkResetToken(db, first)).toBe(true);

    expect(await resetPassword(db, { token: first, password: 'brand new password' })).toEqual({ ok: true, userId });
    for (const token of sessions) expect(await getSessionUser(db, token)).toBeNull();
    expect(await logIn(db, { email, password: 'old password', ip: null })).toEqual({ ok: false, reason: 'invalid_credentials' });
    expect(await logIn(db, { email, password: 'brand new password', ip: null })).toEqual({ ok: true, userId });

    expect(await checkResetToken(db, first)).toBe(false);
    expect(await resetPassword(db, { token: first, password: 'another password' })).toEqual({ ok: false, reason: 'invalid_token' });
    expect(await resetPassword(db, { token: second, password: 'another password' })).toEqual({ ok: false, reason: 'invalid_token' });
    expect(await logIn(db, { email, password: 'brand new password', ip: null })).toEqual({ ok: true, userId });
  });

  it('lets only one of two simultaneous uses of a token through', async () => {
    const { email } = await newAccount();
    const token = await requestToken(email);
    const results = await Promise.all([
      resetPassword(db, { token, password: 'first new password' }),
      resetPassword(db, { token, password: 'second new password' }),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
  });

  it('expires a link after one hour', async () => {
    const { email, userId } = await newAccount();
    const issued = new Date(Date.now() - hour + 60_000);
    const token = await requestToken(email, 'en', issued);
    expect(await checkResetToken(db, token)).toBe(true);
    expect(await checkResetToken(db, token, new Date(issued.getTime() + hour))).toBe(false);
    expect(await resetPassword(db, { token, password: 'too late password', now: new Date(issued.getTime() + hour + 1) })).toEqual({
      ok: false,
      reason: 'invalid_token',
    });
    // And with the expiry in the past in the database.
    await db.updateTable('password_reset_tokens').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('user_id', '=', userId).execute();
    expect(await resetPassword(db, { token, password: 'too late password' })).toEqual({ ok: false, reason: 'invalid_token' });
    expect(await logIn(db, { email, password: 'old password', ip: null })).toEqual({ ok: true, userId });
  });

  it('refuses unknown and malformed tokens', async () => {
    for (const token of ['', 'short', 'A'.repeat(43), `${'A'.repeat(42)}!`]) {
      expect(await checkResetToken(db, token)).toBe(false);
      expect(await resetPassword(db, { token, password: 'whatever password' })).toEqual({ ok: false, reason: 'invalid_token' });
    }
  });

  it('lifts the login locks of the account after a reset, at every address', async () => {
    const { email, userId } = await newAccount();
    for (const ip of [null, '203.0.113.5']) {
      for (let i = 0; i < LIMITS.login.perPair; i++) await logIn(db, { email, password: 'wrong password', ip });
      expect(await logIn(db, { email, password: 'old password', ip })).toEqual({ ok: false, reason: 'rate_limited' });
    }
    const token = await requestToken(email);
    await resetPassword(db, { token, password: 'fresh password' });
    expect(await logIn(db, { email, password: 'fresh password', ip: null })).toEqual({ ok: true, userId });
    expect(await logIn(db, { email, password: 'fresh password', ip: '203.0.113.5' })).toEqual({ ok: true, userId });
  });

  it(`limits requests to ${LIMITS.reset.perEmail} per email (any case) and ${LIMITS.reset.perAddress} per address (customers behind one NAT) an hour, known account or not`, async () => {
    const { email } = await newAccount();
    for (let i = 0; i < LIMITS.reset.perEmail; i++) {
      expect(await requestPasswordReset(db, { email, ip: ip(), locale: 'en', publicUrl })).toEqual({ ok: true });
    }
    const limited = { ok: false, reason: 'rate_limited' };
    expect(await requestPasswordReset(db, { email: email.toUpperCase(), ip: ip(), locale: 'en', publicUrl })).toEqual(limited);
    expect(await outbox()).toHaveLength(LIMITS.reset.perEmail);

    const unknown = `nobody.${counter}@example.com`;
    for (let i = 0; i < LIMITS.reset.perEmail; i++) await requestPasswordReset(db, { email: unknown, ip: ip(), locale: 'en', publicUrl });
    expect(await requestPasswordReset(db, { email: unknown, ip: ip(), locale: 'en', publicUrl })).toEqual(limited);

    const address = '198.51.100.7';
    for (let i = 0; i < LIMITS.reset.perAddress; i++) {
      expect(await requestPasswordReset(db, { email: `spray.${i}.${counter}@example.com`, ip: address, locale: 'en', publicUrl })).toEqual({ ok: true });
    }
    expect(await requestPasswordReset(db, { email: `spray.x.${counter}@example.com`, ip: address, locale: 'en', publicUrl })).toEqual(limited);

    // An hour later, requests are welcome again.
    const later = new Date(Date.now() + hour + 1000);
    expect(await requestPasswordReset(db, { email, ip: address, locale: 'en', publicUrl, now: later })).toEqual({ ok: true });
  });

  it(`stops at ${LIMITS.reset.shopWide} requests an hour across the whole shop, from any number of addresses; the next sends nothing`, async () => {
    const { email } = await newAccount();
    // A day from now, so the other tests' requests are outside the window.
    const now = new Date(Date.now() + 24 * hour);
    for (let i = 0; i < LIMITS.reset.shopWide; i++) {
      expect(await requestPasswordReset(db, { email: `scan.${i}.${counter}@example.com`, ip: `10.1.${i}.1`, locale: 'en', publicUrl, now })).toEqual({ ok: true });
    }
    expect(await requestPasswordReset(db, { email, ip: '10.2.0.1', locale: 'en', publicUrl, now })).toEqual({ ok: false, reason: 'rate_limited' });
    expect(await outbox()).toHaveLength(0);
  });
});
