import { type LimitGroup, createLimiter } from './limits';

/**
 * KSeF API 2.0's calls that sending invoices needs (`open-api.json`), as one small typed client over fetch. Every
 * failure becomes a KsefError saying what the caller may do about it: wait and try again (`rate_limited`, with
 * KSeF's Retry-After; `unavailable`: a 5xx, maintenance, a timeout or no connection), authenticate again
 * (`unauthorized`), or stop and show KSeF's own words (`refused`).
 */

export type KsefStatus = { code: number; description: string; details?: string[] | null; extensions?: Record<string, unknown> | null };

export type KsefErrorKind = 'rate_limited' | 'unavailable' | 'unauthorized' | 'refused';

export class KsefError extends Error {
  constructor(
    readonly kind: KsefErrorKind,
    message: string,
    readonly details: { status?: number; code?: number; description?: string; retryAfterMs?: number } = {},
  ) {
    super(message);
    this.name = 'KsefError';
  }
}

export type PublicKeyCertificate = { certificate: string; publicKeyId: string; validFrom: string; validTo: string; usage: Array<'KsefTokenEncryption' | 'SymmetricKeyEncryption'> };
export type TokenInfo = { token: string; validUntil: string };
export type AuthStatus = { status: KsefStatus };
export type SessionInvoiceStatus = {
  ordinalNumber: number;
  invoiceNumber?: string | null;
  ksefNumber?: string | null;
  referenceNumber: string;
  invoiceHash: string;
  acquisitionDate?: string | null;
  /** When KSeF received it (for an interactive session, the moment it was sent). */
  invoicingDate: string;
  invoicingMode?: 'Online' | 'Offline';
  status: KsefStatus;
};
export type SendInvoiceRequest = {
  invoiceHash: string;
  invoiceSize: number;
  encryptedInvoiceHash: string;
  encryptedInvoiceSize: number;
  encryptedInvoiceContent: string;
  offlineMode?: boolean;
  hashOfCorrectedInvoice?: string;
};

export type KsefApi = ReturnType<typeof createKsefApi>;

/** KSeF answers within seconds; a call that takes longer is counted as unavailable and tried again later. */
const TIMEOUT_MS = 30_000;
/** When a 429 carries no Retry-After: KSeF's limits are per second and per minute. */
const DEFAULT_RETRY_AFTER_MS = 60_000;

export const FA3_FORM_CODE = { systemCode: 'FA (3)', schemaVersion: '1-0E', value: 'FA' } as const;

/**
 * `limitScale`: KSeF's production limits times this (1 in production and demo, 10 in the test environment and on a
 * stand-in); 0 turns the client's own limiting off.
 */
export function createKsefApi({ baseUrl, timeoutMs = TIMEOUT_MS, limitScale = 1 }: { baseUrl: string; timeoutMs?: number; limitScale?: number }) {
  const base = baseUrl.replace(/\/+$/, '');
  const limiter = limitScale > 0 ? createLimiter(limitScale) : null;

  async function call(method: 'GET' | 'POST', path: string, { bearer, body, accept = 'application/json', continuation, group }: { bearer?: string; body?: unknown; accept?: string; continuation?: string; group: LimitGroup }): Promise<Response> {
    const turn = limiter ? await limiter.take(group) : { ok: true as const };
    if (!turn.ok) throw new KsefError('rate_limited', `KSeF's limit for ${group} is reached: the shop waits before ${method} ${path}`, { retryAfterMs: turn.retryAfterMs });
    const headers: Record<string, string> = { accept };
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (continuation) headers['x-continuation-token'] = continuation;
    let response: Response | null = null;
    // A question (GET) whose connection failed before any answer is asked once more at once: a kept-alive
    // connection the other side had just closed is not KSeF being down. Nothing that sends is repeated blindly.
    for (let attempt = 0; response === null; attempt++) {
      try {
        response = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(timeoutMs) });
      } catch (error) {
        if (method === 'GET' && attempt === 0 && (error as Error).name !== 'TimeoutError') continue;
        const cause = (error as { cause?: { code?: string } }).cause?.code;
        throw new KsefError('unavailable', `KSeF did not answer ${method} ${path}: ${(error as Error).name === 'TimeoutError' ? 'timed out' : `${(error as Error).message}${cause ? ` (${cause})` : ''}`}`);
      }
    }
    if (response.ok) return response;
    const text = await response.text().catch(() => '');
    if (response.status === 429) {
      throw new KsefError('rate_limited', `KSeF asks to slow down (429) on ${method} ${path}`, { status: 429, retryAfterMs: retryAfterMs(response.headers.get('retry-after')) });
    }
    if (response.status >= 500) {
      const retry = response.headers.get('retry-after');
      throw new KsefError('unavailable', `KSeF answered ${response.status} on ${method} ${path}`, { status: response.status, ...(retry ? { retryAfterMs: retryAfterMs(retry) } : {}) });
    }
    const problem = problemOf(text);
    if (response.status === 401) throw new KsefError('unauthorized', `KSeF refused the credentials (401) on ${method} ${path}`, { status: 401, ...problem });
    throw new KsefError('refused', `KSeF refused ${method} ${path} (${response.status}${problem.code ? ` ${problem.code}` : ''}): ${problem.description ?? 'no reason given'}`, { status: response.status, ...problem });
  }

  const json = async <T>(response: Response): Promise<T> => {
    try {
      return (await response.json()) as T;
    } catch {
      throw new KsefError('unavailable', `KSeF's answer to ${response.url} was not JSON`);
    }
  };

  return {
    publicKeyCertificates: async () => json<PublicKeyCertificate[]>(await call('GET', '/security/public-key-certificates', { group: 'certificates' })),
    challenge: async () => json<{ challenge: string; timestamp: string; timestampMs: number }>(await call('POST', '/auth/challenge', { group: 'auth' })),
    authenticateWithToken: async (input: { challenge: string; nip: string; encryptedToken: string }) =>
      json<{ referenceNumber: string; authenticationToken: TokenInfo }>(
        await call('POST', '/auth/ksef-token', { group: 'auth', body: { challenge: input.challenge, contextIdentifier: { type: 'Nip', value: input.nip }, encryptedToken: input.encryptedToken } }),
      ),
    authStatus: async (referenceNumber: string, authenticationToken: string) => json<AuthStatus>(await call('GET', `/auth/${encodeURIComponent(referenceNumber)}`, { group: 'auth', bearer: authenticationToken })),
    redeem: async (authenticationToken: string) => json<{ accessToken: TokenInfo; refreshToken: TokenInfo }>(await call('POST', '/auth/token/redeem', { group: 'auth', bearer: authenticationToken })),
    refresh: async (refreshToken: string) => json<{ accessToken: TokenInfo }>(await call('POST', '/auth/token/refresh', { group: 'auth', bearer: refreshToken })),
    openOnlineSession: async (accessToken: string, encryption: { encryptedSymmetricKey: string; initializationVector: string }) =>
      json<{ referenceNumber: string; validUntil: string }>(await call('POST', '/sessions/online', { group: 'onlineSession', bearer: accessToken, body: { formCode: FA3_FORM_CODE, encryption } })),
    sendInvoice: async (accessToken: string, sessionReference: string, request: SendInvoiceRequest) =>
      json<{ referenceNumber: string }>(await call('POST', `/sessions/online/${encodeURIComponent(sessionReference)}/invoices`, { group: 'invoiceSend', bearer: accessToken, body: request })),
    invoiceStatus: async (accessToken: string, sessionReference: string, invoiceReference: string) =>
      json<SessionInvoiceStatus>(await call('GET', `/sessions/${encodeURIComponent(sessionReference)}/invoices/${encodeURIComponent(invoiceReference)}`, { group: 'invoiceStatus', bearer: accessToken })),
    /** Every invoice a session received, in pages of up to 1,000: how a sender finds out what became of a send whose answer it lost. */
    sessionInvoices: async (accessToken: string, sessionReference: string): Promise<SessionInvoiceStatus[]> => {
      const all: SessionInvoiceStatus[] = [];
      let continuation: string | null | undefined;
      do {
        const response = await call('GET', `/sessions/${encodeURIComponent(sessionReference)}/invoices?pageSize=1000`, { group: 'sessionInvoiceList', bearer: accessToken, continuation: continuation ?? undefined });
        const page = await json<{ continuationToken?: string | null; invoices: SessionInvoiceStatus[] }>(response);
        all.push(...page.invoices);
        continuation = page.continuationToken;
      } while (continuation);
      return all;
    },
    invoiceUpo: async (accessToken: string, sessionReference: string, invoiceReference: string) =>
      (await call('GET', `/sessions/${encodeURIComponent(sessionReference)}/invoices/${encodeURIComponent(invoiceReference)}/upo`, { group: 'sessionMisc', bearer: accessToken, accept: 'application/xml' })).text(),
    /** The UPO of an invoice KSeF knows by its number in a session (a duplicate's original). */
    invoiceUpoByKsefNumber: async (accessToken: string, sessionReference: string, ksefNumber: string) =>
      (await call('GET', `/sessions/${encodeURIComponent(sessionReference)}/invoices/ksef/${encodeURIComponent(ksefNumber)}/upo`, { group: 'sessionMisc', bearer: accessToken, accept: 'application/xml' })).text(),
    closeOnlineSession: async (accessToken: string, sessionReference: string) => {
      await call('POST', `/sessions/online/${encodeURIComponent(sessionReference)}/close`, { group: 'onlineSession', bearer: accessToken });
    },
  };
}

/** Retry-After in seconds or as an HTTP date; KSeF's default when it says nothing. */
export function retryAfterMs(header: string | null, now = Date.now()): number {
  if (!header) return DEFAULT_RETRY_AFTER_MS;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? DEFAULT_RETRY_AFTER_MS : Math.max(0, at - now);
}

/** KSeF's own code and words from an ExceptionResponse (or a Problem Details answer). */
function problemOf(text: string): { code?: number; description?: string } {
  try {
    const body = JSON.parse(text) as {
      exception?: { exceptionDetailList?: Array<{ exceptionCode?: number; exceptionDescription?: string | null; details?: string[] | null }> };
      detail?: string;
      title?: string;
      errors?: Array<{ code: number; description: string; details?: string[] }>;
    };
    const first = body.exception?.exceptionDetailList?.[0];
    if (first) return { code: first.exceptionCode, description: [first.exceptionDescription, ...(first.details ?? [])].filter(Boolean).join(' ') };
    const error = body.errors?.[0];
    if (error) return { code: error.code, description: [error.description, ...(error.details ?? [])].join(' ') };
    return { description: body.detail ?? body.title };
  } catch {
    return {};
  }
}
