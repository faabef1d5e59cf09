/**
 * Calendar days in the shop's time zone, as UTC instants (orders and events store ISO-8601 UTC text, so a day
 * is a half-open range of strings that compares the same on SQLite and PostgreSQL). Daylight-saving days
 * are 23 or 25 hours long; midnight is found by asking Intl for the zone's offset, not by adding 24 hours.
 */
import { dateTimeFormat } from '~/lib/intl';

export type ShopDay = string; // YYYY-MM-DD

/** The shop's calendar day of an instant. */
export function shopDayOf(instant: Date, timeZone: string): ShopDay {
  return dateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant);
}

/** The zone's offset from UTC at an instant, in milliseconds (Warsaw: +1 h in winter, +2 h in summer). */
function offsetAt(instant: number, timeZone: string): number {
  const format = dateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
  const p = Object.fromEntries(format.formatToParts(new Date(instant)).map((part) => [part.type, part.value]));
  const asUtc = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** The UTC instant at which `day` begins in the shop's zone. */
export function startOfShopDay(day: ShopDay, timeZone: string): Date {
  const [y, m, d] = day.split('-').map(Number);
  const wall = Date.UTC(y, m - 1, d);
  let instant = wall - offsetAt(wall, timeZone);
  // Near a change of offset the first guess uses the wrong side's offset: correct once.
  const again = wall - offsetAt(instant, timeZone);
  if (again !== instant) instant = again;
  return new Date(instant);
}

export function addDays(day: ShopDay, n: number): ShopDay {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

/** A real calendar day written YYYY-MM-DD: "2026-02-30", "2026-13-01" and "2026-12-32" are not. */
export function isShopDay(value: string): value is ShopDay {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const instant = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(instant.getTime()) && instant.toISOString().startsWith(value);
}

/** `count` consecutive days ending with `last`, each with its UTC start; `end` is when the last one ends. */
export function shopDays(last: ShopDay, count: number, timeZone: string): { days: { day: ShopDay; start: string }[]; start: string; end: string } {
  const days = Array.from({ length: count }, (_, i) => {
    const day = addDays(last, i - count + 1);
    return { day, start: startOfShopDay(day, timeZone).toISOString() };
  });
  return { days, start: days[0].start, end: startOfShopDay(addDays(last, 1), timeZone).toISOString() };
}

/** A wall-clock moment in the shop's zone as a datetime-local input gives it ("2026-11-27T10:00"), as an instant; null if malformed. */
export function shopMomentToInstant(text: string, timeZone: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(text.trim());
  if (!match) return null;
  const [y, mo, d, h, mi] = match.slice(1).map(Number);
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59) return null;
  const wall = Date.UTC(y, mo - 1, d, h, mi);
  if (new Date(wall).getUTCDate() !== d) return null;
  let instant = wall - offsetAt(wall, timeZone);
  const again = wall - offsetAt(instant, timeZone);
  if (again !== instant) instant = again;
  return new Date(instant);
}

/** An instant as a datetime-local input shows it in the shop's zone ("2026-11-27T10:00"). */
export function instantToShopMoment(instant: Date, timeZone: string): string {
  return new Date(Math.floor(instant.getTime() / 60_000) * 60_000 + offsetAt(instant.getTime(), timeZone)).toISOString().slice(0, 16);
}
