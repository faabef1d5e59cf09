/**
 * When an invoice issued offline must reach KSeF (`tryby-offline.md`, offline24, art. 106nda of the VAT act):
 * by the end of the next business day after its issue date, in Poland's time. Business days are Monday to Friday
 * except Poland's public holidays (the act of 18 January 1951, Christmas Eve included from 2025).
 */
import { addDays, startOfShopDay, type ShopDay } from '~/lib/shop-days';

const TIME_ZONE = 'Europe/Warsaw';

/** Easter Sunday of `year` (the anonymous Gregorian algorithm), as YYYY-MM-DD. */
export function easterSunday(year: number): ShopDay {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

export function polishHolidays(year: number): Set<ShopDay> {
  const fixed = ['01-01', '01-06', '05-01', '05-03', '08-15', '11-01', '11-11', '12-25', '12-26', ...(year >= 2025 ? ['12-24'] : [])];
  const easter = easterSunday(year);
  // Easter Sunday and Monday, Pentecost (the 7th Sunday after Easter), Corpus Christi (60 days after Easter).
  return new Set([...fixed.map((d) => `${year}-${d}`), easter, addDays(easter, 1), addDays(easter, 49), addDays(easter, 60)]);
}

export function isBusinessDay(day: ShopDay): boolean {
  const weekday = new Date(`${day}T12:00:00Z`).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !polishHolidays(Number(day.slice(0, 4))).has(day);
}

export function nextBusinessDay(day: ShopDay): ShopDay {
  let next = addDays(day, 1);
  while (!isBusinessDay(next)) next = addDays(next, 1);
  return next;
}

/** The last moment an invoice issued on `issueDay` (YYYY-MM-DD, Poland's date) may be sent offline24: the end of the next business day. */
export function offlineDeadline(issueDay: ShopDay): Date {
  return new Date(startOfShopDay(addDays(nextBusinessDay(issueDay), 1), TIME_ZONE).getTime() - 1);
}
