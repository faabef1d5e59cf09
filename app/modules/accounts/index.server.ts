/** The accounts module's public server API: the only file routes and other modules import (besides the schema). */
export { createAdmin, setAdmin } from './admin.server';
export {
  OIDC_SCOPE,
  finishOidcSignIn,
  oidcEnabled,
  startOidcSignIn,
  type FinishOidcSignInResult,
  type StartedOidcSignIn,
} from './oidc.server';
export {
  OIDC_COOKIE,
  clearOidcStateCookie,
  oidcStateCookie,
  openOidcState,
  readOidcStateCookie,
  sealOidcState,
  type OidcState,
} from './oidc-state.server';
export { hashPassword, verifyPassword } from './passwords.server';
export {
  RESET_TOKEN_TTL_MS,
  checkResetToken,
  requestPasswordReset,
  resetPassword,
  type RequestPasswordResetResult,
  type ResetPasswordResult,
} from './password-reset.server';
export { getProfile, updateProfile, type Profile } from './profiles.server';
export { pruneAccountData } from './maintenance.server';
export { getRequestUser, refreshedSessionCookie, requireAdmin, requireUser } from './request.server';
export {
  SESSION_COOKIE,
  SESSION_TTL_MS,
  clearSessionCookie,
  createSession,
  deleteSession,
  deleteUserSessions,
  getSessionUser,
  readSessionToken,
  sessionCookie,
  type SessionLookup,
} from './sessions.server';
export { completeSignIn } from './sign-in.server';
export {
  LOGIN_RATE_LIMIT,
  RESET_RATE_LIMIT,
  findUserByEmail,
  getUser,
  logIn,
  signUp,
  type LogInResult,
  type SessionUser,
  type SignUpResult,
} from './users.server';
export * from './accounts.schema';
