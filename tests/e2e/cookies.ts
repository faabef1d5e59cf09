/**
 * The shop's cookies as the journeys see them: signed with the shop's secret (React Router's createCookie:
 * base64 JSON, a dot and an HMAC). `signedCookie` makes one; `cookieValue` reads the value of one.
 */
import { createCookie } from 'react-router';
import { E2E_SESSION_SECRET } from '../setup/e2e-secret.js';

export async function signedCookie(name: string, value: unknown): Promise<string> {
  const header = await createCookie(name, { secrets: [E2E_SESSION_SECRET] }).serialize(value);
  return header.split(';')[0].slice(name.length + 1);
}

/** What a signed cookie holds (its signature is the shop's business). */
export function cookieValue(raw: string | undefined): unknown {
  if (!raw) return undefined;
  const [body] = decodeURIComponent(raw).split('.');
  return JSON.parse(Buffer.from(body, 'base64').toString('utf8'));
}
