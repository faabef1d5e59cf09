/**
 * Rendered HTML for visitors without cookies, per URL (the URL names the language, `/pl/…` for Polish, and a
 * cookie-less visitor has an empty cart, so nothing personal can be in it; the `lang` cookie only matters to
 * the back office, which needs a session anyway). An entry is valid while the catalogue version it was
 * rendered at is current, and for `ttlMs` at most (other processes may change the catalogue too).
 * Each hit swaps the per-response tokens the page was rendered with (the CSP nonce, the form key of the
 * "Add to cart" forms) for the response's fresh ones, so no two responses share them.
 */

/**
 * What a response renders that must differ from every other response's: the CSP nonce and the form key; and,
 * for pages shared by shoppers with a cookie, the signed-in customer's name (app/http/shared-pages.server.ts).
 */
export type ResponseTokens = { nonce: string; formKey: string; name?: string };
export type CachedPage = {
  status: number;
  headers: [string, string][];
  /** The body split where the rendering's tokens stood, pre-encoded, so a hit is a few memory copies. */
  chunks: Buffer[];
  /** Which token stood after each chunk but the last. */
  slots: Array<keyof ResponseTokens>;
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
    page: { status: number; headers: [string, string][]; body: string; tokens: ResponseTokens },
    version: number,
    now = Date.now(),
  ): CachedPage {
    const { chunks, slots } = splitAtTokens(page.body, page.tokens);
    const cached = { status: page.status, headers: page.headers, chunks, slots, version, storedAt: now };
    // Rendered while the catalogue changed: served this once, never kept.
    if (version !== this.currentVersion()) return cached;
    if (this.pages.size >= this.maxEntries) {
      const oldest = this.pages.keys().next().value;
      if (oldest !== undefined) this.pages.delete(oldest);
    }
    this.pages.set(key, cached);
    return cached;
  }

  clear(): void {
    this.pages.clear();
  }

  get size(): number {
    return this.pages.size;
  }
}

const PERSONAL_COOKIES = /(?:^|;\s*)(?:__Host-)?kopi_[a-z_]+=/;

/** A request is cacheable when it is a plain page GET from a visitor who carries none of our cookies. */
export function isCacheableRequest(method: string, path: string, cookieHeader: string | undefined): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  if (cookieHeader && PERSONAL_COOKIES.test(cookieHeader)) return false;
  if (path.endsWith('.data')) return false;
  return !/^\/(api|images|assets|webhooks|healthz|readyz)(\/|$)/.test(path);
}

/**
 * Whether a rendered response may be kept and served again: a 200 page that sets no cookie and that its
 * route did not mark `no-store` or `private` (a page holding a secret, such as a password-reset link's form).
 */
export function isStorableResponse(response: Response): boolean {
  const type = response.headers.get('content-type') ?? '';
  const cacheControl = response.headers.get('cache-control') ?? '';
  return response.status === 200 && type.startsWith('text/html') && !response.headers.has('set-cookie') && !/no-store|private/.test(cacheControl);
}

function splitAtTokens(body: string, tokens: ResponseTokens): { chunks: Buffer[]; slots: Array<keyof ResponseTokens> } {
  const names = (Object.keys(tokens) as Array<keyof ResponseTokens>).filter((name) => tokens[name]);
  const value = (name: keyof ResponseTokens) => tokens[name] ?? '';
  const chunks: Buffer[] = [];
  const slots: Array<keyof ResponseTokens> = [];
  if (names.length > 0) {
    const pattern = new RegExp(names.map((name) => value(name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
    let last = 0;
    for (const match of body.matchAll(pattern)) {
      chunks.push(Buffer.from(body.slice(last, match.index)));
      slots.push(names.find((name) => tokens[name] === match[0])!);
      last = match.index + match[0].length;
    }
    chunks.push(Buffer.from(body.slice(last)));
  } else {
    chunks.push(Buffer.from(body));
  }
  return { chunks, slots };
}

/** The cached body with this response's tokens where the rendering's stood. */
export function withTokens(page: CachedPage, fresh: ResponseTokens): Buffer {
  if (page.chunks.length === 1) return page.chunks[0];
  const encoded = { nonce: Buffer.from(fresh.nonce), formKey: Buffer.from(fresh.formKey), name: Buffer.from(fresh.name ?? '') };
  const parts: Buffer[] = [];
  page.chunks.forEach((chunk, i) => {
    if (i > 0) parts.push(encoded[page.slots[i - 1]]);
    parts.push(chunk);
  });
  return Buffer.concat(parts);
}
