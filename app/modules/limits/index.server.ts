/** Abuse limits (sign-up, contact, login, reset), counted in the database: the module's public server API. */
export {
  LIMITS,
  clearEmailScopes,
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
