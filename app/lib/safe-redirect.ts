const BASE = 'http://kopi.invalid';

/**
 * A redirect target that stays on the shop: a path (with query and fragment) resolved against the shop's own
 * origin, or `fallback`. Refused: anything that is not a string starting with one `/`, holds a control
 * character (tab, CR, LF, NUL: browsers drop some of them and `/\t/evil.example` becomes `//evil.example`) or
 * a backslash (browsers read `/\` as `//`), or resolves to another origin. The result is URL-serialized, so
 * it is always a valid header value (non-ASCII is percent-encoded).
 */
export function safeRedirect(value: FormDataEntryValue | string | null | undefined, fallback = '/'): string {
  if (typeof value !== 'string' || value.length > 2048 || !value.startsWith('/') || value.startsWith('//')) return fallback;
  // C0 and C1 controls, DEL, backslash, and Unicode line/paragraph separators and bidi overrides.
  if (/[\u0000-\u001f\u007f-\u009f\\\u2028\u2029\u202a-\u202e\u2066-\u2069]/.test(value)) return fallback;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE) return fallback;
  const target = url.pathname + url.search + url.hash;
  return target.startsWith('//') ? fallback : target;
}
