import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DB } from '~/db/database.server';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { LIMITS, ipScope } from '~/modules/limits/index.server';
import {
  MAX_LOGIN_SLOWDOWN_MS,
  createAdmin,
  findUserByEmail,
  getCheckoutDetails,
  getProfile,
  getSessionUser,
  getUser,
  hashPassword,
  logIn,
  setAdmin,
  signUp,
  updateProfile,
  verifyPassword,
  createSession,
} from './index.server';
import * as passwords from './passwords.server';

vi.mock('./passwords.server', async (importOriginal) => {
  const original = await importOriginal<typeof import('./passwords.server')>();
  return { ...original, verifyPassword: vi.fn(original.verifyPassword), burnVerification: vi.fn(original.burnVerification) };
});

let counter = 0;
const uniqueEmail = (name = 'ola') => `${name}.${Date.now().toString(36)}.${++counter}@example.com`;
const password = 'correct horse battery';

describe('passwords', () => {
  it('hashes with argon2id (m=19456, t=2, p=1) and verifies', async () => {
    const started = performance.now();
    const hash = await hashPassword(password);
    const ms = performance.now() - started;
    console.info(`argon2id hash took ${ms.toFixed(0)} ms`);
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(hash).not.toContain(password);
    expect(await verifyPassword(hash, password)).toBe(true);
    expect(await verifyPassword(hash, `${password}!`)).toBe(false);
    expect(await verifyPassword('not a hash', password)).toBe(false);
  });
});

describe('client address scopes', () => {
  it('groups IPv6 by /64 and unwraps IPv4-mapped addresses', () => {
    expect(ipScope('1.2.3.4')).toBe('ip:1.2.3.4');
    expect(ipScope('::ffff:1.2.3.4')).toBe('ip:1.2.3.4');
    expect(ipScope('2001:db8:1:2:aaaa::1')).toBe('ip:2001:db8:1:2::/64');
    expect(ipScope('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('ip:2001:db8:1:2::/64');
    expect(ipScope('2001:db8::1')).toBe('ip:2001:db8:0:0::/64');
    expect(ipScope('')).toBeNull();
    expect(ipScope(null)).toBeNull();
    expect(ipScope('unknown')).toBeNull();
  });
});

describe.each(testDatabases())('users on %s', (_kind, open) => {
  let handle: TestDatabase;
  let db: DB;
  beforeAll(async () => {
    handle = await open();
    db = handle.db;
  });
  afterAll(() => handle.close());

  async function newAccount(email = uniqueEmail()) {
    const result = await signUp(db, { name: 'Ola Nowak', email, password });
    if (!result.ok) throw new Error('sign-up failed');
    return { email, userId: result.userId };
  }
  const disable = (userId: string) => db.updateTable('users').set({ disabled: 1 }).where('id', '=', userId).execute();

  describe('sign-up', () => {
    it('creates a customer (not an admin) with the email lower-cased and the password hashed', async () => {
      const email = uniqueEmail('Ola.Mixed');
      const result = await signUp(db, { name: ' Ola ', email: `  ${email.toUpperCase()} `, password });
      expect(result).toEqual({ ok: true, userId: expect.any(String) });
      if (!result.ok) return;
      const row = await db.selectFrom('users').selectAll().where('id', '=', result.userId).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ email: email.toLowerCase(), display_name: 'Ola', is_admin: 0, disabled: 0, photo_url: null });
      expect(row.password_hash).toMatch(/^\$argon2id\$/);
      expect(await getUser(db, result.userId)).toEqual({
        id: result.userId,
        email: email.toLowerCase(),
        displayName: 'Ola',
        isAdmin: false,
        photoUrl: null,
      });
    });

    it('refuses an email already in use, whatever its case', async () => {
      const { email } = await newAccount();
      expect(await signUp(db, { name: 'Other', email: email.toUpperCase(), password: 'another password' })).toEqual({
        ok: false,
        reason: 'email_taken',
      });
      expect(await db.selectFrom('users').select('id').where('email', '=', email).execute()).toHaveLength(1);
    });

    it(`lets ${LIMITS.signup.perAddress} customers sign up from one shared address in an hour (a carrier's NAT, an office's Wi-Fi), then cuts that address off`, async () => {
      const ip = '198.51.100.7';
      for (let i = 0; i < LIMITS.signup.perAddress; i++) {
        expect(await signUp(db, { name: 'Ola', email: uniqueEmail('neighbour'), password, ip })).toMatchObject({ ok: true });
      }
      const limited = { ok: false, reason: 'rate_limited' };
      expect(await signUp(db, { name: 'Bot', email: uniqueEmail('bot'), password, ip })).toEqual(limited);
      expect(await signUp(db, { name: 'Ola', email: uniqueEmail(), password, ip: '198.51.100.8' })).toMatchObject({ ok: true });
    }, 60_000);

    it(`refuses attempt ${LIMITS.signup.perEmail + 1} for one email within the hour, from any address`, async () => {
      const email = uniqueEmail('taken');
      for (let i = 0; i < LIMITS.signup.perEmail; i++) await signUp(db, { name: 'Ola', email, password, ip: `198.51.100.${20 + i}` });
      expect(await signUp(db, { name: 'Ola', email: email.toUpperCase(), password, ip: '198.51.100.40' })).toEqual({ ok: false, reason: 'rate_limited' });
      expect(await db.selectFrom('users').select('id').where('email', '=', email).execute()).toHaveLength(1);
    }, 30_000);

    it('refuses sign-up N+1 from N different addresses once the shop-wide ceiling is reached, and writes nothing', async () => {
      // A shop of its own, where nobody else has signed up this hour; a ceiling of 5 stands for LIMITS.signup.shopWide.
      const shop = await open();
      try {
        const limits = { signup: { ...LIMITS.signup, shopWide: 5 } };
        const count = async (table: 'users' | 'rate_events') => Number((await shop.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
        for (let i = 0; i < 5; i++) {
          expect(await signUp(shop.db, { name: 'Ola', email: uniqueEmail(), password, ip: `192.0.2.${i + 1}` }, limits)).toMatchObject({ ok: true });
        }
        const [users, rows] = [await count('users'), await count('rate_events')];
        expect(await signUp(shop.db, { name: 'Ola', email: uniqueEmail(), password, ip: '192.0.2.100' }, limits)).toEqual({ ok: false, reason: 'rate_limited' });
        expect(await signUp(shop.db, { name: 'Ola', email: uniqueEmail(), password, ip: null }, limits)).toEqual({ ok: false, reason: 'rate_limited' });
        expect([await count('users'), await count('rate_events')]).toEqual([users, rows]);
      } finally {
        await shop.close();
      }
    }, 30_000);

    it('answers email_taken when two sign-ups race for one email', async () => {
      const email = uniqueEmail();
      const results = await Promise.all([
        signUp(db, { name: 'A', email, password }),
        signUp(db, { name: 'B', email: email.toUpperCase(), password }),
      ]);
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, reason: 'email_taken' }]);
    });
  });

  describe('login', () => {
    it('accepts the right password, with the email in any case and with spaces around it', async () => {
      const { email, userId } = await newAccount();
      expect(await logIn(db, { email: ` ${email.toUpperCase()} `, password, ip: '10.0.0.1' })).toEqual({ ok: true, userId });
    });

    it('answers invalid_credentials for a wrong password, an unknown email and a Google-only account alike', async () => {
      const { email } = await newAccount();
      const googleOnly = uniqueEmail('google');
      await db
        .insertInto('users')
        .values({ id: `g-${counter}`, email: googleOnly, display_name: 'G', password_hash: null, created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z' })
        .execute();
      const invalid = { ok: false, reason: 'invalid_credentials' };
      expect(await logIn(db, { email, password: 'wrong password', ip: '10.0.0.2' })).toEqual(invalid);
      expect(await logIn(db, { email: uniqueEmail('nobody'), password, ip: '10.0.0.2' })).toEqual(invalid);
      expect(await logIn(db, { email: googleOnly, password, ip: '10.0.0.2' })).toEqual(invalid);
      expect(await logIn(db, { email: googleOnly, password: '', ip: '10.0.0.2' })).toEqual(invalid);
    });

    it('spends one password verification on every checked attempt, known account or not (same timing)', async () => {
      const { email } = await newAccount();
      const spent = () => vi.mocked(passwords.verifyPassword).mock.calls.length + vi.mocked(passwords.burnVerification).mock.calls.length;
      for (const attempt of [
        { email, password: 'wrong password' },
        { email: uniqueEmail('nobody'), password },
        { email, password },
      ]) {
        const before = spent();
        await logIn(db, { ...attempt, ip: null });
        expect(spent() - before).toBe(1);
      }
    });

    const rule = LIMITS.login;

    it(`locks an email at one address after ${rule.perPair} failures, even for the right password and in another case`, async () => {
      const { email, userId } = await newAccount();
      for (let i = 0; i < rule.perPair; i++) {
        expect(await logIn(db, { email, password: `wrong ${i}`, ip: '10.1.0.1' })).toEqual({ ok: false, reason: 'invalid_credentials' });
      }
      const limited = { ok: false, reason: 'rate_limited' };
      expect(await logIn(db, { email, password, ip: '10.1.0.1' })).toEqual(limited);
      expect(await logIn(db, { email: email.toUpperCase(), password, ip: '10.1.0.1' })).toEqual(limited);
      expect(await logIn(db, { email: `  ${email.replace(/^o/, 'O')}`, password, ip: '::ffff:10.1.0.1' })).toEqual(limited);
      // The owner, anywhere else, is not locked out by someone else's guesses.
      expect(await logIn(db, { email, password, ip: '10.1.0.2' })).toEqual({ ok: true, userId });

      // Failures older than the window no longer count.
      const old = new Date(Date.now() - rule.windowMs - 1000).toISOString();
      await db.updateTable('rate_events').set({ created_at: old }).where('kind', '=', 'login').where('scope_key', 'like', `email:${email}%`).execute();
      expect(await logIn(db, { email, password, ip: '10.1.0.1' })).toEqual({ ok: true, userId });
    });

    it(`failures from many addresses only slow an email down (after ${rule.slowAfterPerEmail}, at most ${MAX_LOGIN_SLOWDOWN_MS} ms), never lock it`, async () => {
      const { email, userId } = await newAccount();
      const waits: number[] = [];
      const wait = async (ms: number) => void waits.push(ms);
      for (let i = 0; i < rule.slowAfterPerEmail + 20; i++) {
        expect(await logIn(db, { email, password: `wrong ${i}`, ip: `10.3.${i >> 8}.${i & 255}` }, { wait })).toEqual({
          ok: false,
          reason: 'invalid_credentials',
        });
      }
      expect(waits).toHaveLength(20);
      expect(waits[0]).toBeGreaterThan(0);
      expect(waits.at(-1)).toBe(MAX_LOGIN_SLOWDOWN_MS);
      expect(await logIn(db, { email, password, ip: '10.4.0.1' }, { wait })).toEqual({ ok: true, userId });
      expect(waits).toHaveLength(21);
    });

    it('counts a burst of parallel attempts from one address, so no more than the limit get through', async () => {
      const { email } = await newAccount();
      const results = await Promise.all(Array.from({ length: 12 }, (_, i) => logIn(db, { email, password: `wrong ${i}`, ip: '10.2.0.9' })));
      const checked = results.filter((r) => !r.ok && r.reason === 'invalid_credentials');
      expect(checked.length).toBeLessThanOrEqual(rule.perPair);
      expect(results.filter((r) => !r.ok && r.reason === 'rate_limited').length).toBeGreaterThanOrEqual(12 - rule.perPair);
    });

    it('does not count a successful login as a failure, and does not clear earlier failures', async () => {
      const { email, userId } = await newAccount();
      for (let i = 0; i < rule.perPair - 1; i++) await logIn(db, { email, password: 'wrong password', ip: null });
      for (let i = 0; i < 3; i++) expect(await logIn(db, { email, password, ip: null })).toEqual({ ok: true, userId });
      expect(await logIn(db, { email, password: 'wrong password', ip: null })).toEqual({ ok: false, reason: 'invalid_credentials' });
      expect(await logIn(db, { email, password, ip: null })).toEqual({ ok: false, reason: 'rate_limited' });
    });

    it(`locks a client address after ${rule.perAddress} failures over any emails`, async () => {
      const ip = '192.0.2.77';
      const { email, userId } = await newAccount();
      for (let i = 0; i < rule.perAddress; i++) {
        expect(await logIn(db, { email: uniqueEmail('spray'), password, ip })).toEqual({ ok: false, reason: 'invalid_credentials' });
      }
      expect(await logIn(db, { email, password, ip })).toEqual({ ok: false, reason: 'rate_limited' });
      expect(await logIn(db, { email, password, ip: '::ffff:192.0.2.77' })).toEqual({ ok: false, reason: 'rate_limited' });
      expect(await logIn(db, { email, password, ip: '192.0.2.78' })).toEqual({ ok: true, userId });
    }, 30_000);

    it('scales with RATE_LIMIT_FACTOR', async () => {
      const { email } = await newAccount();
      const limits = { login: { ...rule, perPair: 1 } };
      expect(await logIn(db, { email, password: 'wrong', ip: '10.5.0.1' }, { limits })).toEqual({ ok: false, reason: 'invalid_credentials' });
      expect(await logIn(db, { email, password, ip: '10.5.0.1' }, { limits })).toEqual({ ok: false, reason: 'rate_limited' });
    });

    it('says "disabled" only to someone who knows the password, and a disabled account has no session', async () => {
      const { email, userId } = await newAccount();
      const token = await createSession(db, userId);
      expect(await getSessionUser(db, token)).not.toBeNull();
      await disable(userId);
      expect(await logIn(db, { email, password: 'wrong password', ip: null })).toEqual({ ok: false, reason: 'invalid_credentials' });
      expect(await logIn(db, { email, password, ip: null })).toEqual({ ok: false, reason: 'disabled' });
      expect(await getSessionUser(db, token)).toBeNull();
    });
  });

  describe('lookups', () => {
    it('finds a user by email in any case and never returns the password hash', async () => {
      const { email, userId } = await newAccount();
      const found = await findUserByEmail(db, ` ${email.toUpperCase()}`);
      expect(found).toEqual({ id: userId, email, displayName: 'Ola Nowak', isAdmin: false, photoUrl: null });
      expect(Object.keys(found ?? {}).sort()).toEqual(['displayName', 'email', 'id', 'isAdmin', 'photoUrl']);
      expect(JSON.stringify(found)).not.toContain('argon2');
      expect(await findUserByEmail(db, uniqueEmail('nobody'))).toBeNull();
      expect(await getUser(db, 'no-such-user')).toBeNull();
    });
  });

  describe('admin role', () => {
    it('creates an admin, or promotes an existing account and sets its password (ending its sessions)', async () => {
      const email = uniqueEmail('admin');
      expect(await createAdmin(db, { email: email.toUpperCase(), password: 'admin password', name: 'Boss' })).toEqual({ created: true });
      const admin = await findUserByEmail(db, email);
      expect(admin).toMatchObject({ email, displayName: 'Boss', isAdmin: true });
      expect(await logIn(db, { email, password: 'admin password', ip: null })).toEqual({ ok: true, userId: admin?.id });

      const { email: customer, userId } = await newAccount();
      const token = await createSession(db, userId);
      expect(await createAdmin(db, { email: customer, password: 'new admin password' })).toEqual({ created: false });
      expect(await getUser(db, userId)).toMatchObject({ isAdmin: true, displayName: 'Ola Nowak' });
      expect(await logIn(db, { email: customer, password, ip: null })).toEqual({ ok: false, reason: 'invalid_credentials' });
      expect(await logIn(db, { email: customer, password: 'new admin password', ip: null })).toEqual({ ok: true, userId });
      expect(await getSessionUser(db, token)).toBeNull();
    });

    it('grants and revokes the role by email; false for an unknown email', async () => {
      const { email, userId } = await newAccount();
      expect(await setAdmin(db, email.toUpperCase(), true)).toBe(true);
      expect((await getUser(db, userId))?.isAdmin).toBe(true);
      expect(await setAdmin(db, email, false)).toBe(true);
      expect((await getUser(db, userId))?.isAdmin).toBe(false);
      expect(await setAdmin(db, uniqueEmail('nobody'), true)).toBe(false);
    });
  });

  describe('profiles', () => {
    it('reads an empty profile with creditCard, then saves and updates it', async () => {
      const { userId } = await newAccount();
      expect(await getProfile(db, userId)).toEqual({
        fullName: '',
        address: '',
        city: '',
        zipCode: '',
        deliveryAddress: '',
        deliveryCity: '',
        deliveryZipCode: '',
        paymentMethod: 'creditCard',
        phone: '',
      });
      const profile = {
        fullName: 'Ola Nowak',
        address: 'ul. Kwiatowa 1',
        city: 'Kraków',
        zipCode: '30-001',
        deliveryAddress: 'ul. Długa 5',
        deliveryCity: 'Gdańsk',
        deliveryZipCode: '80-001',
        paymentMethod: 'blik' as const,
        phone: '+48601234567',
      };
      await updateProfile(db, userId, profile);
      expect(await getProfile(db, userId)).toEqual(profile);
      await updateProfile(db, userId, { ...profile, city: 'Warszawa', paymentMethod: 'przelewy24' });
      expect(await getProfile(db, userId)).toEqual({ ...profile, city: 'Warszawa', paymentMethod: 'przelewy24' });
      expect(await db.selectFrom('profiles').select('user_id').where('user_id', '=', userId).execute()).toHaveLength(1);
      // The phone checkout saved is the profile's, and checkout offers the one saved here; left out, it is kept.
      expect((await getCheckoutDetails(db, userId)).phone).toBe('+48601234567');
      await updateProfile(db, userId, { ...profile, phone: undefined });
      expect((await getProfile(db, userId)).phone).toBe('+48601234567');
    });
  });

  describe('secrets', () => {
    it('never writes a password to the console or stores it in clear', async () => {
      const secret = `Sekret-${Date.now()}-hasło`;
      const written: string[] = [];
      const spies = [
        ...(['log', 'info', 'warn', 'error', 'debug'] as const).map((m) =>
          vi.spyOn(console, m).mockImplementation((...args: unknown[]) => void written.push(args.map(String).join(' '))),
        ),
        vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (written.push(String(chunk)), true)),
        vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (written.push(String(chunk)), true)),
      ];
      try {
        const email = uniqueEmail();
        const signed = await signUp(db, { name: 'Ola', email, password: secret });
        await signUp(db, { name: 'Ola', email, password: secret });
        await logIn(db, { email, password: secret, ip: '10.9.9.9' });
        await logIn(db, { email, password: `${secret}x`, ip: '10.9.9.9' });
        await createAdmin(db, { email: uniqueEmail('admin'), password: secret });
        expect(signed.ok).toBe(true);
      } finally {
        for (const spy of spies) spy.mockRestore();
      }
      expect(written.join('\n')).not.toContain(secret);
      const rows = await db.selectFrom('users').select(['password_hash', 'email', 'display_name']).execute();
      expect(JSON.stringify(rows)).not.toContain(secret);
      const failures = await db.selectFrom('rate_events').select('scope_key').execute();
      expect(JSON.stringify(failures)).not.toContain(secret);
    });
  });
});
