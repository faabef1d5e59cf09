/** A Set-Cookie header carrying an event the browser should track (see usePendingServerEvent). */
export function pendingEventCookie(name: string, props: Record<string, string | number | boolean> = {}, secure = false): string {
  const value = encodeURIComponent(JSON.stringify({ name, props }));
  return `kopi_event=${value}; Path=/; Max-Age=120; SameSite=Lax${secure ? '; Secure' : ''}`;
}
