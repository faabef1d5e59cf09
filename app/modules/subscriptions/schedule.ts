/**
 * When a subscription's coffee is roasted, charged and announced (issue 52). Every delivery is tied to a roast day —
 * a day of the week the roastery roasts, in the shop's zone (Europe/Warsaw, summer time included). A delivery's
 * charge is made `chargeLeadDays` before its roast day at `chargeHour` (wall clock), its reminder `reminderDays`
 * before the charge at the same hour, and a change reaches it only before its cut-off, `cutoffHours` (real hours)
 * before the charge; later, it reaches the delivery after. Pure: days are YYYY-MM-DD in the shop's zone, moments
 * are instants, and "now" is always given (the shop's clock, which tests and the `kopi` command can set).
 */
import { type ShopDay, addDays, isShopDay, shopDayOf, shopMomentToInstant } from '~/lib/shop-days';

export const SHOP_TIME_ZONE = 'Europe/Warsaw';

/** ISO weekdays: 1 Monday … 7 Sunday. */
export type Weekday = 1 | 2 | 3 | 4 | 5 | 6 | 7;

export type RoastSchedule = {
  roastDays: readonly Weekday[];
  /** Days between the charge and the roast day (0: charged on the morning of the roast). */
  chargeLeadDays: number;
  /** The hour of the charge and of the reminder, on the shop's wall clock (0–23). */
  chargeHour: number;
  reminderDays: number;
  cutoffHours: number;
};

/** What a roaster starts with: Tuesday and Friday, charged two days before at 6:00, told three days before that, changes up to 48 hours before the charge. */
export const DEFAULT_SCHEDULE: RoastSchedule = { roastDays: [2, 5], chargeLeadDays: 2, chargeHour: 6, reminderDays: 3, cutoffHours: 48 };

/** The cycles offered by default, in weeks. */
export const DEFAULT_FREQUENCIES = [1, 2, 4] as const;

export type ScheduleProblem = 'noRoastDays' | 'roastDays' | 'chargeLeadDays' | 'chargeHour' | 'reminderDays' | 'cutoffHours';

/** What is wrong with a schedule the owner set, or null (at least one roast day; a lead under a week; hours that exist). */
export function scheduleProblem(schedule: RoastSchedule): ScheduleProblem | null {
  if (schedule.roastDays.length === 0) return 'noRoastDays';
  if (new Set(schedule.roastDays).size !== schedule.roastDays.length || schedule.roastDays.some((d) => !Number.isInteger(d) || d < 1 || d > 7)) return 'roastDays';
  if (!Number.isInteger(schedule.chargeLeadDays) || schedule.chargeLeadDays < 0 || schedule.chargeLeadDays > 6) return 'chargeLeadDays';
  if (!Number.isInteger(schedule.chargeHour) || schedule.chargeHour < 0 || schedule.chargeHour > 23) return 'chargeHour';
  if (!Number.isInteger(schedule.reminderDays) || schedule.reminderDays < 1 || schedule.reminderDays > 14) return 'reminderDays';
  if (!Number.isInteger(schedule.cutoffHours) || schedule.cutoffHours < 0 || schedule.cutoffHours > 14 * 24) return 'cutoffHours';
  return null;
}

/** The ISO weekday of a day. */
export function weekdayOf(day: ShopDay): Weekday {
  const sunday0 = new Date(`${day}T12:00:00Z`).getUTCDay();
  return (sunday0 === 0 ? 7 : sunday0) as Weekday;
}

/** The first roast day on or after `day`. */
export function roastDayOnOrAfter(schedule: Pick<RoastSchedule, 'roastDays'>, day: ShopDay): ShopDay {
  if (schedule.roastDays.length === 0) throw new Error('a schedule without roast days has no deliveries');
  for (let i = 0; i < 7; i++) {
    const candidate = addDays(day, i);
    if (schedule.roastDays.includes(weekdayOf(candidate))) return candidate;
  }
  throw new Error('unreachable: a week holds every weekday');
}

/** A wall-clock hour of a day in the shop's zone, as an instant (an hour summer time skips is read as the hour after it; one the autumn repeats, as its first). */
function atHour(day: ShopDay, hour: number): Date {
  return shopMomentToInstant(`${day}T${String(hour).padStart(2, '0')}:00`, SHOP_TIME_ZONE)!;
}

/** When the delivery of `roastDay` is charged. */
export const chargeAt = (schedule: RoastSchedule, roastDay: ShopDay): Date => atHour(addDays(roastDay, -schedule.chargeLeadDays), schedule.chargeHour);

/** When its reminder is mailed. */
export const reminderAt = (schedule: RoastSchedule, roastDay: ShopDay): Date => atHour(addDays(roastDay, -schedule.chargeLeadDays - schedule.reminderDays), schedule.chargeHour);

/** The last moment a change reaches the delivery of `roastDay`: `cutoffHours` real hours before its charge. */
export const cutoffAt = (schedule: RoastSchedule, roastDay: ShopDay): Date => new Date(chargeAt(schedule, roastDay).getTime() - schedule.cutoffHours * 3600_000);

/**
 * The first delivery of a subscription started at `now`: the first roast day whose charge is not yet past (the
 * first delivery is paid at checkout, as if charged on its day; a roast day whose charge moment has gone is too
 * close to roast for).
 */
export function firstDelivery(schedule: RoastSchedule, now: Date): ShopDay {
  let day = roastDayOnOrAfter(schedule, shopDayOf(now, SHOP_TIME_ZONE));
  while (chargeAt(schedule, day) <= now) day = roastDayOnOrAfter(schedule, addDays(day, 1));
  return day;
}

/**
 * The delivery after the one of `roastDay`, `everyWeeks` weeks on: the same weekday while it is a roast day, else
 * the first roast day after that (the owner changed the roast days).
 */
export function deliveryAfter(schedule: RoastSchedule, roastDay: ShopDay, everyWeeks: number): ShopDay {
  if (!Number.isInteger(everyWeeks) || everyWeeks < 1) throw new Error(`a cycle of ${everyWeeks} weeks`);
  return roastDayOnOrAfter(schedule, addDays(roastDay, 7 * everyWeeks));
}

/**
 * Which delivery a change made at `now` reaches: the next one (`next`) while its cut-off is ahead, else the one
 * after it. `late` says which, for the page to tell the customer.
 */
export function changeReaches(schedule: RoastSchedule, next: ShopDay, everyWeeks: number, now: Date): { delivery: ShopDay; late: boolean } {
  return now < cutoffAt(schedule, next) ? { delivery: next, late: false } : { delivery: deliveryAfter(schedule, next, everyWeeks), late: true };
}

/**
 * A pause until `until` (a day, the first on which coffee may come again): the first roast day on or after it whose
 * charge is still ahead at `now`. Null when `until` is not a real day after today.
 */
export function resumeDelivery(schedule: RoastSchedule, until: string, now: Date): ShopDay | null {
  if (!isShopDay(until) || until <= shopDayOf(now, SHOP_TIME_ZONE)) return null;
  let day = roastDayOnOrAfter(schedule, until);
  while (chargeAt(schedule, day) <= now) day = roastDayOnOrAfter(schedule, addDays(day, 1));
  return day;
}

/** The roast days from `from` on, `count` of them (the owner's roast plan, the back office's calendar). */
export function roastDaysFrom(schedule: Pick<RoastSchedule, 'roastDays'>, from: ShopDay, count: number): ShopDay[] {
  const days: ShopDay[] = [];
  let day = roastDayOnOrAfter(schedule, from);
  while (days.length < count) {
    days.push(day);
    day = roastDayOnOrAfter(schedule, addDays(day, 1));
  }
  return days;
}
