import * as client from 'openid-client';
import type { Logger } from 'pino';
import type { Config } from '~/config/env.server';
import { type Executor, inTransaction, now } from '~/db/database.server';
import { isUniqueViolation } from '~/db/errors.server';
import { normalizeEmail } from './secrets.server';
import { insertUser } from './users.server';

/**
 * "Continue with Google", and with any OpenID Connect provider (OIDC_ISSUER): the authorization-code flow
 * with PKCE (S256), state and nonce, verified by openid-client.
 */
type OidcConfig = Pick<Config, 'oidc'>;

export type StartedOidcSignIn = { url: string; state: string; nonce: string; codeVerifier: string };
export type FinishOidcSignInResult =
  | { ok: true; userId: string; created: boolean }
  | { ok: false; reason: 'cancelled' | 'failed' | 'disabled' };

export const OIDC_SCOPE = 'openid email profile';

export const oidcEnabled = (config: OidcConfig): boolean => Boolean(config.oidc.clientId);

/** The provider's sign-in page URL, plus the secrets the callback must check (keep them in the sealed cookie). */
/** How old a sign-in asked for with `reauth` may be when the provider answers (it was asked for one of age 0). */
export const REAUTH_MAX_AGE_S = 300;

/**
 * `reauth`: the customer confirms who they are (before deleting the account): the provider asks them to sign in
 * again rather than offering the account already signed in (`prompt=login`, `max_age=0`), and the ID token must
 * say so (`auth_time`, checked in `finishOidcSignIn`).
 */
export async function startOidcSignIn(config: OidcConfig, redirectUri: string, { reauth = false }: { reauth?: boolean } = {}): Promise<StartedOidcSignIn> {
  const configuration = await discover(config);
  const codeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(configuration, {
    redirect_uri: redirectUri,
    scope: OIDC_SCOPE,
    response_type: 'code',
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...(reauth ? { prompt: 'login', max_age: '0' } : { prompt: 'select_account' }),
  });
  return { url: url.href, state, nonce, codeVerifier };
}

/**
 * Handles the provider's redirect back. `error=access_denied` (the user said no) is "cancelled"; a wrong
 * state, nonce or PKCE verifier, a bad ID token or any provider error is "failed" (logged without codes,
 * tokens or secrets). Then the account: the identity's user; else, for a verified email, the account
 * with that email (linked, not duplicated); else a new customer account (never an admin). An account with
 * the same but unverified email is never taken over: that is "failed".
 */
export async function finishOidcSignIn(
  db: Executor,
  config: OidcConfig,
  input: { currentUrl: URL; state: string; nonce: string; codeVerifier: string; redirectUri: string; reauth?: boolean; log?: Pick<Logger, 'warn'> },
): Promise<FinishOidcSignInResult> {
  const { log } = input;
  const error = input.currentUrl.searchParams.get('error');
  if (error) {
    if (error === 'access_denied') return { ok: false, reason: 'cancelled' };
    log?.warn({ oidcError: error.slice(0, 100) }, 'OpenID Connect provider answered with an error');
    return { ok: false, reason: 'failed' };
  }

  let identity: OidcIdentity;
  try {
    const configuration = await discover(config);
    // The token request must name the registered redirect URI exactly, whatever host or scheme a proxy showed us.
    const callbackUrl = new URL(input.redirectUri);
    callbackUrl.search = input.currentUrl.search;
    const tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
      pkceCodeVerifier: input.codeVerifier,
      expectedState: input.state,
      expectedNonce: input.nonce,
      idTokenExpected: true,
      ...(input.reauth ? { maxAge: REAUTH_MAX_AGE_S } : {}),
    });
    const idClaims = tokens.claims();
    if (!idClaims) throw new Error('no ID token');
    let claims: Record<string, unknown> = { ...idClaims };
    if (typeof claims.email !== 'string') {
      // Some providers put email and profile claims only in the UserInfo response.
      claims = { ...(await client.fetchUserInfo(configuration, tokens.access_token, idClaims.sub)), ...claims };
    }
    identity = {
      issuer: configuration.serverMetadata().issuer,
      subject: idClaims.sub,
      email: typeof claims.email === 'string' ? claims.email : null,
      emailVerified: claims.email_verified === true || claims.email_verified === 'true',
      name: displayNameOf(claims),
      picture: pictureOf(claims.picture),
    };
  } catch (err) {
    const e = err as { name?: unknown; code?: unknown; message?: unknown; error?: unknown };
    log?.warn(
      {
        errorName: typeof e?.name === 'string' ? e.name : undefined,
        errorCode: typeof e?.code === 'string' ? e.code : undefined,
        oidcError: typeof e?.error === 'string' ? e.error : undefined,
        error: typeof e?.message === 'string' ? e.message.slice(0, 200) : undefined,
      },
      'OpenID Connect sign-in failed',
    );
    return { ok: false, reason: 'failed' };
  }

  try {
    return await signInWithIdentity(db, identity);
  } catch (err) {
    // Two first sign-ins of the same person at once: the second finds what the first created.
    if (isUniqueViolation(err)) return signInWithIdentity(db, identity);
    throw err;
  }
}

export type OidcIdentity = {
  /** The issuer URL: `user_identities.provider`. */
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
  picture: string | null;
};

/** Finds, links or creates the account for a verified identity (see `finishOidcSignIn`). */
export async function signInWithIdentity(db: Executor, identity: OidcIdentity): Promise<FinishOidcSignInResult> {
  return inTransaction(db, async (trx): Promise<FinishOidcSignInResult> => {
    const known = await trx
      .selectFrom('user_identities')
      .innerJoin('users', 'users.id', 'user_identities.user_id')
      .select(['users.id', 'users.disabled'])
      .where('user_identities.provider', '=', identity.issuer)
      .where('user_identities.subject', '=', identity.subject)
      .executeTakeFirst();
    if (known) return Number(known.disabled) === 1 ? { ok: false, reason: 'disabled' } : { ok: true, userId: known.id, created: false };

    if (!identity.email) return { ok: false, reason: 'failed' };
    const email = normalizeEmail(identity.email);
    const existing = await trx
      .selectFrom('users')
      .select(['id', 'disabled', 'photo_url'])
      .where('email', '=', email)
      .executeTakeFirst();
    if (existing) {
      if (!identity.emailVerified) return { ok: false, reason: 'failed' };
      if (Number(existing.disabled) === 1) return { ok: false, reason: 'disabled' };
      await addIdentity(trx, identity, existing.id, email);
      if (!existing.photo_url && identity.picture) {
        await trx.updateTable('users').set({ photo_url: identity.picture, updated_at: now() }).where('id', '=', existing.id).execute();
      }
      return { ok: true, userId: existing.id, created: false };
    }

    const userId = await insertUser(trx, {
      email,
      displayName: identity.name ?? '',
      passwordHash: null,
      isAdmin: false,
      photoUrl: identity.picture,
    });
    await addIdentity(trx, identity, userId, email);
    return { ok: true, userId, created: true };
  });
}

async function addIdentity(db: Executor, identity: OidcIdentity, userId: string, email: string) {
  await db
    .insertInto('user_identities')
    .values({ provider: identity.issuer, subject: identity.subject, user_id: userId, email, created_at: now() })
    .execute();
}

function displayNameOf(claims: Record<string, unknown>): string | null {
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  const name = text(claims.name) || [text(claims.given_name), text(claims.family_name)].filter(Boolean).join(' ');
  return name ? name.replace(/\s+/g, ' ').slice(0, 100) : null;
}

function pictureOf(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 2048) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

// --- discovery --------------------------------------------------------------------------------------

const configurations = new Map<string, Promise<client.Configuration>>();

/** The provider's metadata, fetched once per issuer and client (a failed discovery is retried next time). */
function discover(config: OidcConfig): Promise<client.Configuration> {
  const { issuer, clientId, clientSecret } = config.oidc;
  if (!clientId) throw new Error('OpenID Connect sign-in is not configured (GOOGLE_CLIENT_ID)');
  const key = JSON.stringify([issuer, clientId, clientSecret ?? null]);
  let pending = configurations.get(key);
  if (!pending) {
    const url = new URL(issuer);
    pending = client.discovery(url, clientId, clientSecret, clientSecret ? undefined : client.None(), {
      // Plain http only for a local test issuer; everything else must be https.
      execute: isLocalHttp(url) ? [client.allowInsecureRequests] : [],
      timeout: 10,
    });
    configurations.set(key, pending);
    pending.catch(() => configurations.delete(key));
  }
  return pending;
}

const isLocalHttp = (url: URL) => url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
