import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { interactionPolicy } from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '~/db/database.server';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import {
  finishOidcSignIn,
  getSessionUser,
  getUser,
  completeSignIn,
  logIn,
  oidcEnabled,
  signUp,
  startOidcSignIn,
} from './index.server';

/**
 * A real OpenID Connect provider (oidc-provider) on a random local port. Its interaction step (account
 * chooser, login, consent) is answered by `nextInteraction`: sign in as an account, or refuse.
 */
type Account = { sub: string; email?: string; email_verified?: boolean; name?: string; picture?: string };
const accounts = new Map<string, Account>();
let nextInteraction: { accountId: string } | 'deny' = 'deny';
const seenParams: Array<Record<string, string>> = [];
const clientSecret = 'kopi-test-client-secret-0123456789';
const redirectUri = 'http://localhost:3000/auth/google/callback';

type TestProvider = { server: http.Server; issuer: string; config: { oidc: { clientId: string; clientSecret: string; issuer: string } } };

/** `conformIdTokenClaims: false` puts email and profile claims in the ID token, as Google does; true leaves them to UserInfo. */
async function startProvider(conformIdTokenClaims: boolean): Promise<TestProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const policy = interactionPolicy.base();
  policy.add(new interactionPolicy.Prompt({ name: 'select_account', requestable: true }), 0);
  const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'kopi',
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [{ ...key, kid: 'test', use: 'sig', alg: 'RS256' }] },
    cookies: { keys: ['test-cookie-key'] },
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'picture'] },
    conformIdTokenClaims,
    pkce: { required: () => true, methods: ['S256'] },
    features: { devInteractions: { enabled: false } },
    interactions: { policy, url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx: unknown, id: string) {
      const account = accounts.get(id);
      return account ? { accountId: id, claims: async () => ({ ...account }) } : undefined;
    },
  });
  const callback = provider.callback();
  server.on('request', async (req, res) => {
    if (!req.url?.startsWith('/interaction/')) return callback(req, res);
    try {
      const details = await provider.interactionDetails(req, res);
      seenParams.push(details.params);
      if (nextInteraction === 'deny') {
        await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'End-User aborted interaction' }, { mergeWithLastSubmission: false });
        return;
      }
      const { accountId } = nextInteraction;
      const grant = new provider.Grant({ accountId, clientId: details.params.client_id });
      grant.addOIDCScope(details.params.scope);
      const grantId = await grant.save();
      await provider.interactionFinished(req, res, { select_account: {}, login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
    } catch (error) {
      res.statusCode = 500;
      res.end(String(error));
    }
  });
  return { server, issuer, config: { oidc: { clientId: 'kopi', clientSecret, issuer } } };
}

let google: TestProvider;
let issuer: string;
let config: TestProvider['config'];
beforeAll(async () => {
  google = await startProvider(false);
  ({ issuer, config } = google);
});
afterAll(() => new Promise<void>((resolve) => google.server.close(() => resolve())));

/** Follows the provider's redirects like a browser (with its own cookie jar) until it comes back to us. */
async function authorize(url: string): Promise<URL> {
  const jar = new Map<string, string>();
  let next = url;
  for (let hop = 0; hop < 10; hop++) {
    const response = await fetch(next, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const eq = pair.indexOf('=');
      const value = pair.slice(eq + 1);
      if (value) jar.set(pair.slice(0, eq), value);
      else jar.delete(pair.slice(0, eq));
    }
    const location = response.headers.get('location');
    if (!location) throw new Error(`The provider stopped with ${response.status}: ${(await response.text()).slice(0, 300)}`);
    const target = new URL(location, next);
    if (target.href.startsWith(redirectUri)) return target;
    next = target.href;
  }
  throw new Error('Too many redirects');
}

/** A full round trip: start, sign in at the provider as `accountId` (or refuse), come back. */
async function signInAs(accountId: string | 'deny', at: TestProvider['config'] = config, { reauth = false } = {}) {
  nextInteraction = accountId === 'deny' ? 'deny' : { accountId };
  const started = await startOidcSignIn(at, redirectUri, { reauth });
  const currentUrl = await authorize(started.url);
  return { started, currentUrl };
}

let counter = 0;
const account = (overrides: Partial<Account> = {}): string => {
  const id = `sub-${++counter}-${Date.now()}`;
  accounts.set(id, { sub: id, email: `g.${counter}@gmail.example`, email_verified: true, name: `Google User ${counter}`, picture: `https://images.example/p${counter}.png`, ...overrides });
  return id;
};

describe('OpenID Connect start', () => {
  it('is enabled only with a client id', () => {
    expect(oidcEnabled({ oidc: { issuer: 'https://accounts.google.com' } })).toBe(false);
    expect(oidcEnabled({ oidc: { issuer: 'https://accounts.google.com', clientId: 'x', clientSecret: 'y' } })).toBe(true);
  });

  it('asks for the account chooser, the code flow with PKCE S256, state and nonce', async () => {
    const started = await startOidcSignIn(config, redirectUri);
    const url = new URL(started.url);
    expect(url.origin).toBe(issuer);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'kopi',
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid email profile',
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge_method: 'S256',
      state: started.state,
      nonce: started.nonce,
      prompt: 'select_account',
    });
    expect(started.codeVerifier).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    expect(url.searchParams.get('code_challenge')).not.toBe(started.codeVerifier);
    const again = await startOidcSignIn(config, redirectUri);
    expect(again.state).not.toBe(started.state);
    expect(again.nonce).not.toBe(started.nonce);
  });

  it('refuses a plain-http issuer that is not on this machine', async () => {
    await expect(startOidcSignIn({ oidc: { clientId: 'x', clientSecret: 'y', issuer: 'http://issuer.invalid' } }, redirectUri)).rejects.toThrow();
  });
});

describe.each(testDatabases())('OpenID Connect sign-in on %s', (_kind, open) => {
  let handle: TestDatabase;
  let db: DB;
  beforeAll(async () => {
    handle = await open();
    db = handle.db;
  });
  afterAll(() => handle.close());

  const finish = (flow: Awaited<ReturnType<typeof signInAs>>, overrides: Partial<{ state: string; nonce: string; codeVerifier: string; reauth: boolean }> = {}, log?: { warn: (...args: unknown[]) => void }) =>
    finishOidcSignIn(db, config, {
      currentUrl: flow.currentUrl,
      state: flow.started.state,
      nonce: flow.started.nonce,
      codeVerifier: flow.started.codeVerifier,
      redirectUri,
      log,
      ...overrides,
    });

  it('creates a customer (never an admin) on the first sign-in and finds it on the next', async () => {
    const id = account();
    const first = await finish(await signInAs(id));
    expect(first).toEqual({ ok: true, userId: expect.any(String), created: true });
    if (!first.ok) return;
    expect(seenParams.at(-1)).toMatchObject({ prompt: 'select_account', code_challenge_method: 'S256' });
    expect(await getUser(db, first.userId)).toEqual({
      id: first.userId,
      email: accounts.get(id)?.email,
      displayName: accounts.get(id)?.name,
      isAdmin: false,
      photoUrl: accounts.get(id)?.picture,
    });
    const row = await db.selectFrom('users').select(['password_hash', 'is_admin']).where('id', '=', first.userId).executeTakeFirstOrThrow();
    expect(row).toEqual({ password_hash: null, is_admin: 0 });
    expect(await db.selectFrom('user_identities').selectAll().where('user_id', '=', first.userId).execute()).toEqual([
      { provider: issuer, subject: id, user_id: first.userId, email: accounts.get(id)?.email, created_at: expect.any(String) },
    ]);

    // Email changed at the provider: still the same account (the identity, not the email, decides).
    accounts.set(id, { ...accounts.get(id)!, email: `renamed.${counter}@gmail.example` });
    expect(await finish(await signInAs(id))).toEqual({ ok: true, userId: first.userId, created: false });

    // A session from it works like any other; there is no password to log in with.
    const { sessionToken } = await completeSignIn(db, { userId: first.userId, previousSessionToken: null, guestCartId: null });
    expect((await getSessionUser(db, sessionToken))?.user.id).toBe(first.userId);
    expect(await logIn(db, { email: accounts.get(id)!.email!, password: 'anything at all', ip: null })).toMatchObject({ ok: false });
  });

  it('to confirm who it is (before deleting the account), asks the provider for a fresh sign-in and checks the token says so', async () => {
    const id = account();
    const first = await finish(await signInAs(id));
    if (!first.ok) throw new Error(first.reason);
    const again = await signInAs(id, config, { reauth: true });
    expect(seenParams.at(-1)).toMatchObject({ prompt: 'login' });
    expect(new URL(again.started.url).searchParams.get('max_age')).toBe('0');
    expect(await finish(again, { reauth: true })).toEqual({ ok: true, userId: first.userId, created: false });
    // An ordinary sign-in (no auth_time asked for) does not count as one.
    expect(await finish(await signInAs(id), { reauth: true })).toEqual({ ok: false, reason: 'failed' });
  });

  it('links a verified email to the existing password account instead of creating another', async () => {
    const email = `linked.${++counter}@example.com`;
    const signedUp = await signUp(db, { name: 'Ola', email, password: 'my own password' });
    if (!signedUp.ok) throw new Error('sign-up failed');
    const id = account({ email: email.toUpperCase(), email_verified: true });
    expect(await finish(await signInAs(id))).toEqual({ ok: true, userId: signedUp.userId, created: false });
    expect(await db.selectFrom('users').select('id').where('email', '=', email).execute()).toHaveLength(1);
    // The password still works, and the display name is the one chosen at sign-up.
    expect(await logIn(db, { email, password: 'my own password', ip: null })).toEqual({ ok: true, userId: signedUp.userId });
    expect(await getUser(db, signedUp.userId)).toMatchObject({ displayName: 'Ola', isAdmin: false });
  });

  it('never takes over an account on an unverified email', async () => {
    const email = `unverified.${++counter}@example.com`;
    const signedUp = await signUp(db, { name: 'Ola', email, password: 'my own password' });
    expect(signedUp.ok).toBe(true);
    const id = account({ email, email_verified: false });
    expect(await finish(await signInAs(id))).toEqual({ ok: false, reason: 'failed' });
    expect(await db.selectFrom('user_identities').selectAll().where('subject', '=', id).execute()).toEqual([]);

    // An unverified email nobody uses yet is fine for a new account.
    const fresh = account({ email_verified: false });
    expect(await finish(await signInAs(fresh))).toMatchObject({ ok: true, created: true });
  });

  it('fails on a wrong state, a wrong nonce or a wrong PKCE verifier, and logs no secrets', async () => {
    const lines: string[] = [];
    const log = { warn: (...args: unknown[]) => void lines.push(JSON.stringify(args)) };
    const flows = [];
    for (const overrides of [{ state: 'forged-state' }, { nonce: 'forged-nonce' }, { codeVerifier: 'x'.repeat(43) }]) {
      const flow = await signInAs(account());
      flows.push(flow);
      expect(await finish(flow, overrides, log)).toEqual({ ok: false, reason: 'failed' });
    }
    expect(lines).toHaveLength(3);
    const logged = lines.join('\n');
    for (const flow of flows) {
      expect(logged).not.toContain(flow.currentUrl.searchParams.get('code'));
      expect(logged).not.toContain(flow.started.codeVerifier);
    }
    expect(logged).not.toContain(clientSecret);
    // A code that was redeemed (the nonce check came after) cannot be replayed with the right nonce.
    expect(await finish(flows[1])).toEqual({ ok: false, reason: 'failed' });
  });

  it('answers "cancelled" when the user refuses at the provider', async () => {
    const flow = await signInAs('deny');
    expect(flow.currentUrl.searchParams.get('error')).toBe('access_denied');
    expect(await finish(flow)).toEqual({ ok: false, reason: 'cancelled' });
  });

  it('reads email and name from UserInfo when the ID token does not carry them', async () => {
    const strict = await startProvider(true);
    try {
      const id = account();
      const flow = await signInAs(id, strict.config);
      const result = await finishOidcSignIn(db, strict.config, {
        currentUrl: flow.currentUrl,
        state: flow.started.state,
        nonce: flow.started.nonce,
        codeVerifier: flow.started.codeVerifier,
        redirectUri,
      });
      expect(result).toMatchObject({ ok: true, created: true });
      if (!result.ok) return;
      expect(await getUser(db, result.userId)).toMatchObject({ email: accounts.get(id)?.email, displayName: accounts.get(id)?.name });
      // Another issuer is another identity provider: the same subject there is a different identity.
      expect((await db.selectFrom('user_identities').select('provider').where('subject', '=', id).execute()).map((r) => r.provider)).toEqual([strict.issuer]);
    } finally {
      await new Promise<void>((resolve) => strict.server.close(() => resolve()));
    }
  });

  it('answers "disabled" for a disabled account', async () => {
    const id = account();
    const first = await finish(await signInAs(id));
    if (!first.ok) throw new Error('sign-in failed');
    await db.updateTable('users').set({ disabled: 1 }).where('id', '=', first.userId).execute();
    expect(await finish(await signInAs(id))).toEqual({ ok: false, reason: 'disabled' });
  });
});
