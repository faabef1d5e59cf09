import * as z from 'zod/mini';
import { visitorIdSchema } from '~/modules/analytics/analytics.schema';

/** The banner's version: a short label such as a date ('2026-11-28'). */
const version = z.string().check(z.regex(/^[\w.-]{1,32}$/));

/**
 * What the cookie banner sends to /api/consent. An accept always comes with the visitor id it creates; a decline
 * or a withdrawal with the id the browser had until then, or null when it never had one.
 */
export const consentChoiceSchema = z.discriminatedUnion('analytics', [
  z.object({ analytics: z.literal(true), version, visitorId: visitorIdSchema }),
  z.object({ analytics: z.literal(false), version, visitorId: z.nullable(visitorIdSchema) }),
]);

export type ConsentChoice = z.infer<typeof consentChoiceSchema>;
