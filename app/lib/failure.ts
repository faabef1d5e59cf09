/**
 * The few ways a request can fail that are the client's doing or a passing outage, each with its status.
 * Thrown anywhere in a loader, action or middleware with `fail(kind)`, they reach the client as that status:
 * a translated error page (the root ErrorBoundary), or `{ error, message }` JSON for API routes and fetchers.
 * Anything else thrown is a bug: a logged 500 with the request id.
 */
export const failureStatus = {
  invalid: 400,
  forbidden: 403,
  not_found: 404,
  not_allowed: 405,
  conflict: 409,
  too_large: 413,
  unsupported: 415,
  too_many: 429,
  unavailable: 503,
} as const;

export type FailureKind = keyof typeof failureStatus;

/** Which texts explain each kind: `errors.${key}Title` and `errors.${key}Text` in the common catalogue. */
export const failureTextKey: Record<FailureKind, string> = {
  invalid: 'invalid',
  forbidden: 'forbidden',
  not_found: 'notFound',
  not_allowed: 'methodNotAllowed',
  conflict: 'conflict',
  too_large: 'tooLarge',
  unsupported: 'unsupported',
  too_many: 'tooMany',
  unavailable: 'unavailable',
};
export type FailureBody = { error: FailureKind; message?: string };

const kindByStatus = new Map(Object.entries(failureStatus).map(([kind, status]) => [status as number, kind as FailureKind]));

/** The failure kind of an HTTP status, or null for statuses that are not one of them. */
export const failureKindOf = (status: number): FailureKind | null => kindByStatus.get(status) ?? null;

/** The Response of a failure: JSON `{ error, message }`; `message` is an i18n key when there is one. */
export function failureResponse(kind: FailureKind, message?: string, headers?: HeadersInit): Response {
  const body: FailureBody = message ? { error: kind, message } : { error: kind };
  const response = Response.json(body, { status: failureStatus[kind], headers });
  response.headers.set('Cache-Control', 'no-store');
  return response;
}

/** Stops the request with a failure of this kind (see failureStatus). */
export function fail(kind: FailureKind, message?: string, headers?: HeadersInit): never {
  throw failureResponse(kind, message, headers);
}
