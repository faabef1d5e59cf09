/**
 * What the browser carries from "Continue with Google" to the callback: state, nonce and PKCE verifier,
 * where to go afterwards and whether it runs in a popup. It travels in the signed, httpOnly `kopi_oidc`
 * cookie (app/http/cookies.server.ts) and is valid for 10 minutes. It is not encrypted: none of it is useful
 * without the provider's code, which only the provider's redirect to this browser delivers.
 */
export const OIDC_STATE_TTL_MS = 10 * 60_000;

/** `reauth`: a sign-in asked for to confirm who the customer is (the provider asks for the password again). */
export type OidcState = { state: string; nonce: string; codeVerifier: string; redirectTo: string; popup: boolean; reauth?: boolean; expiresAt: number };

export function newOidcState(value: Omit<OidcState, 'expiresAt'>, now = new Date()): OidcState {
  return { ...value, expiresAt: now.getTime() + OIDC_STATE_TTL_MS };
}

/** Whether a cookie's (verified) value is a sign-in state that has not expired. */
export function isOidcState(value: unknown, now = new Date()): value is OidcState {
  const v = value as Record<string, unknown> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.state === 'string' &&
    typeof v.nonce === 'string' &&
    typeof v.codeVerifier === 'string' &&
    typeof v.redirectTo === 'string' &&
    typeof v.popup === 'boolean' &&
    (v.reauth === undefined || typeof v.reauth === 'boolean') &&
    typeof v.expiresAt === 'number' &&
    v.expiresAt > now.getTime()
  );
}
