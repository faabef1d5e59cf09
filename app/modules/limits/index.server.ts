/** Abuse limits (sign-up, contact, login, reset, withdrawal), counted in the database: the module's public server API. */
export {
  LIMITS,
  SHOP_SCOPE,
  clearEmailScopes,
  customerScopes,
  emailScope,
  forgetAttempt,
  ipScope,
  pairScope,
  pruneAttempts,
  recordAttempt,
  scaledLimits,
  type Attempt,
  type LimitKind,
  type Limits,
  type Scope,
} from './limits.server';
