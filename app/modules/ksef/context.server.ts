/**
 * The shop's standing with KSeF for one API address and seller NIP, shared by every node through `ksef_contexts`:
 * an access token (authenticated with the owner's KSeF token as `uwierzytelnianie.md` describes — challenge, the
 * token and the challenge's timestamp encrypted with the Ministry's key, polling until authenticated, redeeming —
 * and refreshed with the refresh token before it expires), the open interactive session with its key, and the
 * moment KSeF asked everyone to wait until. Authenticating and opening a session happen under a short lease, so
 * one node does it and the others use the result: one authentication serves all nodes.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { DB } from '~/db/database.server';
import { type KsefApi, KsefError, type PublicKeyCertificate } from './api.server';
import { type SessionKey, encryptKsefToken, newSessionKey, publicKeyOf, rsaOaepEncrypt } from './crypto.server';
import { createSealer } from './seal.server';

/** A token or a session is used only while it has at least this long to live. */
const MARGIN_MS = 60_000;
const SESSION_MARGIN_MS = 10 * 60_000;
/** How long one node may hold the right to authenticate or open a session before another may try. */
const LEASE_MS = 30_000;
const CERTIFICATES_MS = 60 * 60_000;
/** Polling GET /auth/{ref}: KSeF answers "in progress" (100) for a moment, longer for certificates. */
const AUTH_POLLS = 40;
/** A token KSeF refused is not tried again sooner (KSeF watches for repeated failed authentications). */
const REFUSED_TOKEN_PAUSE_MS = 10 * 60_000;

export type KsefContext = ReturnType<typeof createKsefContext>;

export function createKsefContext({ db, api, baseUrl, nip, token, log }: { db: DB; api: KsefApi; baseUrl: string; nip: string; token: string; log: Logger }) {
  const id = `${baseUrl} ${nip}`;
  const sealer = createSealer(token);
  const fingerprint = createHash('sha256').update(`kopi ksef token ${token}`).digest('base64url').slice(0, 16);
  let certificates: { at: number; list: PublicKeyCertificate[] } | null = null;

  // The row is made once per process (a write every pass of every node would be a write for nothing).
  let made = false;
  const row = async () => {
    if (!made) {
      await db.insertInto('ksef_contexts').values({ id, updated_at: new Date().toISOString() }).onConflict((oc) => oc.column('id').doNothing()).execute();
      made = true;
    }
    return db.selectFrom('ksef_contexts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  };
  const update = (values: Record<string, string | null>) => db.updateTable('ksef_contexts').set({ ...values, updated_at: new Date().toISOString() }).where('id', '=', id).execute();
  const living = (until: string | null, margin: number) => until !== null && Date.parse(until) - margin > Date.now();

  async function publicKey(usage: PublicKeyCertificate['usage'][number]) {
    if (!certificates || Date.now() - certificates.at > CERTIFICATES_MS) certificates = { at: Date.now(), list: await api.publicKeyCertificates() };
    const now = Date.now();
    const certificate = certificates.list.find((c) => c.usage.includes(usage) && Date.parse(c.validFrom) <= now && now < Date.parse(c.validTo));
    if (!certificate) throw new KsefError('unavailable', `KSeF lists no valid public key for ${usage}`);
    return publicKeyOf(certificate.certificate);
  }

  /**
   * Runs `work` holding the context's lease, or waits for the node that holds it and returns null once it has let
   * go (the caller reads what that node stored). A lease whose holder died lapses after LEASE_MS.
   */
  async function underLease<T>(work: () => Promise<T>): Promise<T | null> {
    await row();
    const lease = randomBytes(12).toString('base64url');
    const now = new Date();
    const taken = await db
      .updateTable('ksef_contexts')
      .set({ lease_token: lease, lease_until: new Date(now.getTime() + LEASE_MS).toISOString() })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now.toISOString())]))
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 1) {
      try {
        return await work();
      } finally {
        await db.updateTable('ksef_contexts').set({ lease_token: null, lease_until: null }).where('id', '=', id).where('lease_token', '=', lease).execute();
      }
    }
    for (let waited = 0; waited < LEASE_MS + 5_000; waited += 100) {
      await new Promise((r) => setTimeout(r, 100));
      const current = await row();
      if (!current.lease_until || Date.parse(current.lease_until) < Date.now()) return null;
    }
    throw new KsefError('unavailable', 'another node is still talking to KSeF');
  }

  async function authenticate(): Promise<void> {
    const key = await publicKey('KsefTokenEncryption');
    const { challenge, timestampMs } = await api.challenge();
    const started = await api.authenticateWithToken({ challenge, nip, encryptedToken: encryptKsefToken(key, token, timestampMs) });
    for (let poll = 0; ; poll++) {
      const { status } = await api.authStatus(started.referenceNumber, started.authenticationToken.token);
      if (status.code === 200) break;
      if (status.code !== 100) {
        const words = [status.description, ...(status.details ?? [])].join(': ');
        await update({ problem: `${status.code} ${words}`, problem_at: new Date().toISOString(), problem_token: fingerprint });
        log.error({ code: status.code, description: words }, 'KSeF refused the KSeF token: invoices wait until the owner gives a valid one (KSEF_TOKEN)');
        throw new KsefError('refused', `KSeF refused the KSeF token (${status.code}): ${words}`, { code: status.code, description: words });
      }
      if (poll >= AUTH_POLLS) throw new KsefError('unavailable', 'KSeF did not finish authenticating');
      await new Promise((r) => setTimeout(r, Math.min(100 * (poll + 1), 1_000)));
    }
    const tokens = await api.redeem(started.authenticationToken.token);
    await update({
      access_token: sealer.seal(tokens.accessToken.token),
      access_valid_until: tokens.accessToken.validUntil,
      refresh_token: sealer.seal(tokens.refreshToken.token),
      refresh_valid_until: tokens.refreshToken.validUntil,
      problem: null,
      problem_at: null,
      problem_token: null,
    });
    log.info('authenticated with KSeF');
  }

  async function renew(): Promise<void> {
    const current = await row();
    if (living(current.access_valid_until, MARGIN_MS) && sealer.open(current.access_token)) return; // another node just did
    const refresh = sealer.open(current.refresh_token);
    if (refresh && living(current.refresh_valid_until, MARGIN_MS)) {
      try {
        const { accessToken } = await api.refresh(refresh);
        await update({ access_token: sealer.seal(accessToken.token), access_valid_until: accessToken.validUntil });
        return;
      } catch (error) {
        if (!(error instanceof KsefError && (error.kind === 'unauthorized' || error.kind === 'refused'))) throw error;
        // The refresh token is no longer honoured (revoked, or the authentication was ended): authenticate afresh.
      }
    }
    await authenticate();
  }

  return {
    id,

    /** A valid access token, from what the nodes share or by refreshing or authenticating (one node at a time). */
    async accessToken(): Promise<string> {
      for (let round = 0; round < 3; round++) {
        const current = await row();
        const access = sealer.open(current.access_token);
        if (access && living(current.access_valid_until, MARGIN_MS)) return access;
        await underLease(renew);
      }
      throw new KsefError('unavailable', 'KSeF gave no access token');
    },

    /** The shop's interactive session (opened once, used by every node until shortly before it expires). */
    async session(accessToken: string): Promise<{ reference: string; key: SessionKey }> {
      for (let round = 0; round < 3; round++) {
        const current = await row();
        const sealed = sealer.open(current.session_key);
        if (current.session_reference && sealed && living(current.session_valid_until, SESSION_MARGIN_MS)) {
          const { key, iv } = JSON.parse(sealed) as { key: string; iv: string };
          return { reference: current.session_reference, key: { key: Buffer.from(key, 'base64'), iv: Buffer.from(iv, 'base64') } };
        }
        await underLease(async () => {
          const again = await row();
          if (again.session_reference && sealer.open(again.session_key) && living(again.session_valid_until, SESSION_MARGIN_MS)) return;
          const key = newSessionKey();
          const encryptedSymmetricKey = rsaOaepEncrypt(await publicKey('SymmetricKeyEncryption'), key.key).toString('base64');
          const opened = await api.openOnlineSession(accessToken, { encryptedSymmetricKey, initializationVector: key.iv.toString('base64') });
          await update({
            session_reference: opened.referenceNumber,
            session_key: sealer.seal(JSON.stringify({ key: key.key.toString('base64'), iv: key.iv.toString('base64') })),
            session_valid_until: opened.validUntil,
          });
        });
      }
      throw new KsefError('unavailable', 'KSeF opened no session');
    },

    /** KSeF no longer honours the access token (401): the next call authenticates again. */
    async forgetAccess(): Promise<void> {
      await update({ access_token: null, access_valid_until: null });
    },

    /** The session cannot take invoices any more (closed, expired): the next send opens another. */
    async forgetSession(reference: string): Promise<void> {
      await db.updateTable('ksef_contexts').set({ session_reference: null, session_key: null, session_valid_until: null }).where('id', '=', id).where('session_reference', '=', reference).execute();
    },

    /** No node calls KSeF before `until` (a 429's Retry-After, maintenance). */
    async pause(until: Date): Promise<void> {
      await row();
      await db
        .updateTable('ksef_contexts')
        .set({ paused_until: until.toISOString() })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('paused_until', 'is', null), eb('paused_until', '<', until.toISOString())]))
        .execute();
    },

    async state(): Promise<{ pausedUntil: Date | null; problem: string | null; problemAt: string | null; authenticated: boolean }> {
      const current = await row();
      const paused = current.paused_until ? Date.parse(current.paused_until) : 0;
      // This very token was refused a moment ago: not tried again before the pause is over.
      const refused = current.problem_token === fingerprint && current.problem_at ? Date.parse(current.problem_at) + REFUSED_TOKEN_PAUSE_MS : 0;
      const until = Math.max(paused, refused);
      return {
        pausedUntil: until > Date.now() ? new Date(until) : null,
        problem: current.problem,
        problemAt: current.problem_at,
        authenticated: Boolean(sealer.open(current.refresh_token)) && living(current.refresh_valid_until, 0),
      };
    },
  };
}
