/**
 * KSeF's request limits (`limity/limity-api.md`, each endpoint's 429 in `open-api.json`): per second, minute and hour
 * in a sliding window, for a context (NIP) and client address. Going over them gets a 429 whose block grows with
 * repeats, and is recorded as a possible abuse, so the client keeps under them itself: a call waits its turn when the
 * wait is short, and is refused as `rate_limited` (the worker then pauses, as after KSeF's own 429) when it is not.
 * The test environment's limits are ten times production's; a stand-in's address gets the test environment's.
 * Counted per process: nodes behind one address share KSeF's limit, and KSeF's 429 (shared by every node through
 * `ksef_contexts.paused_until`) covers what their sum may exceed.
 */
export type LimitGroup = 'auth' | 'certificates' | 'onlineSession' | 'invoiceSend' | 'invoiceStatus' | 'sessionInvoiceList' | 'sessionMisc';

/** [per second, per minute, per hour] in production (0: none). */
const PRODUCTION: Record<LimitGroup, [number, number, number]> = {
  auth: [60, 0, 0],
  certificates: [60, 0, 0],
  onlineSession: [10, 30, 120],
  invoiceSend: [10, 30, 180],
  invoiceStatus: [30, 120, 1200],
  sessionInvoiceList: [10, 20, 200],
  sessionMisc: [10, 120, 1200],
};
const WINDOWS = [1_000, 60_000, 3_600_000] as const;
/** A call waits this long for its turn at most; beyond it, it is refused and the worker pauses. */
const MAX_WAIT_MS = 3_000;

export type Limiter = { take: (group: LimitGroup) => Promise<{ ok: true } | { ok: false; retryAfterMs: number }> };

export function createLimiter(scale: number, now = () => Date.now()): Limiter {
  const calls = new Map<LimitGroup, number[]>();
  const waitFor = (group: LimitGroup, at: number): number => {
    const list = (calls.get(group) ?? []).filter((t) => at - t < WINDOWS[2]);
    calls.set(group, list);
    let wait = 0;
    PRODUCTION[group].forEach((limit, i) => {
      if (limit === 0) return;
      const inWindow = list.filter((t) => at - t < WINDOWS[i]!);
      const allowed = limit * scale;
      // The window frees a place when its oldest call in excess leaves it.
      if (inWindow.length >= allowed) wait = Math.max(wait, inWindow[inWindow.length - allowed]! + WINDOWS[i]! - at);
    });
    return wait;
  };
  return {
    async take(group) {
      for (;;) {
        const at = now();
        const wait = waitFor(group, at);
        if (wait === 0) {
          calls.get(group)!.push(at);
          return { ok: true };
        }
        if (wait > MAX_WAIT_MS) return { ok: false, retryAfterMs: wait };
        await new Promise((r) => setTimeout(r, wait));
      }
    },
  };
}
