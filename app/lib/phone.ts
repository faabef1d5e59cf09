/** A phone number as carriers take it: digits only, a leading + kept; null when it is not 7–15 digits. */
export function normalizePhone(text: string): string | null {
  const compact = text.trim().replace(/[\s().-]/g, '');
  if (!/^(?:\+|00)?\d{7,15}$/.test(compact)) return null;
  return compact.startsWith('00') ? `+${compact.slice(2)}` : compact;
}
