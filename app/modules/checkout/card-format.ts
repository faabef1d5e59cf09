/**
 * Card fields that format themselves as a shopper types on a numeric keypad (the server accepts the
 * digits alone too, so nothing depends on this).
 */

/** The card number in groups of four: "4242424242424242" → "4242 4242 4242 4242" (at most 19 digits). */
export function formatCardNumber(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 19);
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/**
 * The expiry as MM/YY: "1230" → "12/30"; a first digit above 1 is a month on its own ("4" → "04/"), and
 * two digits typed get their slash ("12" → "12/"), except while deleting (`deleting`), so Backspace can
 * take the slash away.
 */
export function formatExpiry(value: string, deleting = false): string {
  let digits = value.replace(/\D/g, '');
  if (/^[2-9]/.test(digits)) digits = `0${digits}`;
  digits = digits.slice(0, 4);
  if (digits.length > 2) return `${digits.slice(0, 2)}/${digits.slice(2)}`;
  if (digits.length === 2 && !deleting) return `${digits}/`;
  return digits;
}

/** The security code's digits, at most four. */
export const formatCvc = (value: string): string => value.replace(/\D/g, '').slice(0, 4);
