/** Only same-site paths: never `//evil.example`, `/\evil.example` or a full URL. */
export function safeRedirect(value: FormDataEntryValue | string | null | undefined, fallback = '/'): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback;
  return value;
}
