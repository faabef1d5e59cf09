/**
 * How the accountant's files write numbers, per the owner's language: English with commas and a decimal point,
 * Polish with semicolons and a decimal comma (what a spreadsheet set to that language expects).
 */
import type { Locale } from '~/modules/i18n/translate';

export function csvFormat(locale: Locale) {
  const { separator, decimal } = locale === 'pl' ? { separator: ';', decimal: ',' } : { separator: ',', decimal: '.' };
  /** Cents as "12.50" / "12,50" (negative amounts keep their sign). */
  const money = (cents: number) => `${cents < 0 ? '-' : ''}${Math.trunc(Math.abs(cents) / 100)}${decimal}${String(Math.abs(cents) % 100).padStart(2, '0')}`;
  /** A rate in basis points as "23" or "5.5" / "5,5". */
  const rate = (bp: number) => `${Math.trunc(bp / 100)}${bp % 100 ? `${decimal}${String(bp % 100).padStart(2, '0').replace(/0$/, '')}` : ''}`;
  return { separator, decimal, money, rate };
}
