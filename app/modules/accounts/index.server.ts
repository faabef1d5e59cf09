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
export { OIDC_STATE_TTL_MS, isOidcState, newOidcState, type OidcState } from './oidc-state.server';
export { hashPassword, verifyPassword } from './passwords.server';
export {
  RESET_TOKEN_TTL_MS,
  checkResetToken,
  requestPasswordReset,
  resetPassword,
  type RequestPasswordResetResult,
  type ResetPasswordResult,
} from './password-reset.server';
export { getCheckoutDetails, getProfile, saveCheckoutDetails, updateProfile, type Profile } from './profiles.server';
export { pruneAccountData } from './maintenance.server';
export {
  SESSION_TTL_MS,
  createSession,
  deleteSession,
  deleteUserSessions,
  getSessionUser,
  sessionConfirmedAt,
  type SessionLookup,
} from './sessions.server';
export { completeSignIn } from './sign-in.server';
export { claimGuestOrder, type ClaimOutcome } from './guest-orders.server';
export {
  MAX_LOGIN_SLOWDOWN_MS,
  findUserByEmail,
  getUser,
  hasPassword,
  logIn,
  signUp,
  type LogInResult,
  type SessionUser,
  type SignUpResult,
} from './users.server';
export * from './accounts.schema';
