/**
 * Refuses state-changing requests that come from another site (CSRF defence in depth on top of
 * SameSite=Lax cookies). A request is allowed when its Origin is the shop's public origin or the origin it
 * was addressed to; browsers without an Origin header are judged by Sec-Fetch-Site. Webhooks are exempt:
 * they prove themselves with signatures.
 */
export function isCrossSiteWrite(
  method: string,
  originHeader: string | undefined,
  fetchSite: string | undefined,
  publicOrigin: string,
  requestOrigin: string,
  path = '',
): boolean {
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return false;
  if (path.startsWith('/webhooks/')) return false;
  if (originHeader && originHeader !== 'null') return originHeader !== publicOrigin && originHeader !== requestOrigin;
  if (originHeader === 'null') return true;
  return fetchSite === 'cross-site';
}
