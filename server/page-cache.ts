/**
 * Rendered HTML for visitors without cookies, per URL (a cookie-less visitor always gets English and an
 * empty cart, so nothing personal can be in it). An entry is valid while the catalogue version it was
 * rendered at is current, and for `ttlMs` at most (other processes may change the catalogue too).
 * Each hit swaps the nonce the page was rendered with for the response's fresh one.
 */
export type CachedPage = {
  status: number;
  headers: [string, string][];
  /** The body split where the rendering's nonce stood, pre-encoded, so a hit is a few memory copies. */
  chunks: Buffer[];
  version: number;
  storedAt: number;
};

export class PageCache {
  private pages = new Map<string, CachedPage>();
  constructor(
    private readonly currentVersion: () => number,
    private readonly maxEntries = 500,
    private readonly ttlMs = 60_000,
  ) {}

  get(key: string, now = Date.now()): CachedPage | undefined {
    const page = this.pages.get(key);
    if (!page) return undefined;
    if (page.version !== this.currentVersion() || now - page.storedAt > this.ttlMs) {
      this.pages.delete(key);
      return undefined;
    }
    return page;
  }

  set(
    key: string,
    page: { status: number; headers: [string, string][]; body: string; nonce: string },
    version: number,
    now = Date.now(),
  ): void {
    if (version !== this.currentVersion()) return;
    if (this.pages.size >= this.maxEntries) {
      const oldest = this.pages.keys().next().value;
      if (oldest !== undefined) this.pages.delete(oldest);
    }
    const chunks = (page.nonce ? page.body.split(page.nonce) : [page.body]).map((part) => Buffer.from(part));
    this.pages.set(key, { status: page.status, headers: page.headers, chunks, version, storedAt: now });
  }

  clear(): void {
    this.pages.clear();
  }

  get size(): number {
    return this.pages.size;
  }
}

const PERSONAL_COOKIES = /(?:^|;\s*)(?:kopi_[a-z_]+|lang)=/;

/** A request is cacheable when it is a plain page GET from a visitor who carries none of our cookies. */
export function isCacheableRequest(method: string, path: string, cookieHeader: string | undefined): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  if (cookieHeader && PERSONAL_COOKIES.test(cookieHeader)) return false;
  if (path.endsWith('.data')) return false;
  return !/^\/(api|images|assets|webhooks|healthz|readyz)(\/|$)/.test(path);
}

/** The cached body with a fresh nonce where the original one stood. */
export function withNonce(page: CachedPage, fresh: string): Buffer {
  if (page.chunks.length === 1) return page.chunks[0];
  const nonce = Buffer.from(fresh);
  const parts: Buffer[] = [];
  page.chunks.forEach((chunk, i) => {
    if (i > 0) parts.push(nonce);
    parts.push(chunk);
  });
  return Buffer.concat(parts);
}
