/**
 * The subscription calendar (issue 52): roast days in Warsaw's zone, the charge, reminder and cut-off moments across
 * both changes of summer time, cycles of 1, 2 and 4 weeks over a year's end and a change of roast days, a change
 * just before and just after its cut-off, a pause, and the schedules the owner may not set.
 */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SCHEDULE,
  type RoastSchedule,
  changeReaches,
  chargeAt,
  cutoffAt,
  deliveryAfter,
  firstDelivery,
  reminderAt,
  resumeDelivery,
  roastDayOnOrAfter,
  roastDaysFrom,
  scheduleProblem,
  weekdayOf,
} from './schedule';

const tuesdayFriday = DEFAULT_SCHEDULE;

describe('roast days', () => {
  it('are weekdays in the shop’s calendar, Monday 1 to Sunday 7', () => {
    expect(weekdayOf('2026-12-06')).toBe(7);
    expect(weekdayOf('2026-12-07')).toBe(1);
    expect(weekdayOf('2026-12-08')).toBe(2);
    expect(roastDayOnOrAfter(tuesdayFriday, '2026-12-06')).toBe('2026-12-08');
    expect(roastDayOnOrAfter(tuesdayFriday, '2026-12-08')).toBe('2026-12-08');
    expect(roastDayOnOrAfter(tuesdayFriday, '2026-12-09')).toBe('2026-12-11');
    expect(roastDaysFrom(tuesdayFriday, '2026-12-26', 4)).toEqual(['2026-12-29', '2027-01-01', '2027-01-05', '2027-01-08']);
    expect(() => roastDayOnOrAfter({ roastDays: [] }, '2026-12-06')).toThrow();
  });
});

describe('the charge, the reminder and the cut-off', () => {
  it('are wall-clock hours in Warsaw: the charge two days before the roast at 6:00, winter and summer alike', () => {
    // Winter (UTC+1).
    expect(chargeAt(tuesdayFriday, '2026-12-08').toISOString()).toBe('2026-12-06T05:00:00.000Z');
    expect(reminderAt(tuesdayFriday, '2026-12-08').toISOString()).toBe('2026-12-03T05:00:00.000Z');
    // The Sunday summer time begins (28 March 2027, 2:00 → 3:00): 6:00 is already UTC+2.
    expect(chargeAt(tuesdayFriday, '2027-03-30').toISOString()).toBe('2027-03-28T04:00:00.000Z');
    // The Sunday it ends (25 October 2026, 3:00 → 2:00): 6:00 is UTC+1 again.
    expect(chargeAt(tuesdayFriday, '2026-10-27').toISOString()).toBe('2026-10-25T05:00:00.000Z');
    // The reminder three days before, still in summer time.
    expect(reminderAt(tuesdayFriday, '2026-10-27').toISOString()).toBe('2026-10-22T04:00:00.000Z');
    // A charge hour summer time skips (2:00 on 28 March) is the hour after it; one the autumn repeats is its first.
    expect(chargeAt({ ...tuesdayFriday, chargeHour: 2 }, '2027-03-30').toISOString()).toBe('2027-03-28T01:00:00.000Z');
    expect(chargeAt({ ...tuesdayFriday, chargeHour: 2 }, '2026-10-27').toISOString()).toBe('2026-10-25T01:00:00.000Z');
  });

  it('puts the cut-off 48 real hours before the charge, however long the days between', () => {
    expect(cutoffAt(tuesdayFriday, '2026-12-08').toISOString()).toBe('2026-12-04T05:00:00.000Z');
    // Across the autumn change the 48 hours end at 7:00 on Friday's wall clock (Sunday 6:00 minus a 25-hour day).
    expect(cutoffAt(tuesdayFriday, '2026-10-27').toISOString()).toBe('2026-10-23T05:00:00.000Z');
  });
});

describe('deliveries', () => {
  it('start with the first roast day whose charge is not past', () => {
    // Sunday 6 December at 5:59 the Tuesday's charge (6:00) is ahead; at 6:00 it is past, so Friday.
    expect(firstDelivery(tuesdayFriday, new Date('2026-12-06T04:59:00Z'))).toBe('2026-12-08');
    expect(firstDelivery(tuesdayFriday, new Date('2026-12-06T05:00:00Z'))).toBe('2026-12-11');
    // Charged on the morning of the roast: the same day until 6:00.
    const sameDay: RoastSchedule = { ...tuesdayFriday, chargeLeadDays: 0 };
    expect(firstDelivery(sameDay, new Date('2026-12-08T04:00:00Z'))).toBe('2026-12-08');
    expect(firstDelivery(sameDay, new Date('2026-12-08T06:00:00Z'))).toBe('2026-12-11');
  });

  it('follow every 1, 2 or 4 weeks on the same weekday, over the year’s end', () => {
    expect(deliveryAfter(tuesdayFriday, '2026-12-29', 1)).toBe('2027-01-05');
    expect(deliveryAfter(tuesdayFriday, '2026-12-18', 2)).toBe('2027-01-01');
    expect(deliveryAfter(tuesdayFriday, '2026-12-08', 4)).toBe('2027-01-05');
    expect(() => deliveryAfter(tuesdayFriday, '2026-12-08', 0)).toThrow();
  });

  it('move to the next roast day when the roastery stops roasting on theirs', () => {
    const thursdays: RoastSchedule = { ...tuesdayFriday, roastDays: [4] };
    // A Tuesday subscriber, the roastery now roasting on Thursdays only: two weeks on is Thursday that week.
    expect(deliveryAfter(thursdays, '2026-12-08', 2)).toBe('2026-12-24');
  });

  it('take a change for the next delivery up to its cut-off, for the one after from then on', () => {
    const cutoff = cutoffAt(tuesdayFriday, '2026-12-08');
    expect(changeReaches(tuesdayFriday, '2026-12-08', 2, new Date(cutoff.getTime() - 1))).toEqual({ delivery: '2026-12-08', late: false });
    expect(changeReaches(tuesdayFriday, '2026-12-08', 2, cutoff)).toEqual({ delivery: '2026-12-22', late: true });
  });

  it('resume after a pause on the first roast day from its date whose charge is ahead; never for a date not after today', () => {
    const now = new Date('2026-12-06T10:00:00Z');
    expect(resumeDelivery(tuesdayFriday, '2027-01-04', now)).toBe('2027-01-05');
    // From tomorrow: Tuesday's charge (today 6:00) is past, so Friday.
    expect(resumeDelivery(tuesdayFriday, '2026-12-07', now)).toBe('2026-12-11');
    expect(resumeDelivery(tuesdayFriday, '2026-12-06', now)).toBeNull();
    expect(resumeDelivery(tuesdayFriday, '2026-12-01', now)).toBeNull();
    expect(resumeDelivery(tuesdayFriday, '2026-02-30', now)).toBeNull();
    expect(resumeDelivery(tuesdayFriday, 'next week', now)).toBeNull();
  });
});

describe('a schedule the owner sets', () => {
  it('needs a roast day, distinct real weekdays, a lead under a week and hours that exist', () => {
    expect(scheduleProblem(DEFAULT_SCHEDULE)).toBeNull();
    expect(scheduleProblem({ ...DEFAULT_SCHEDULE, roastDays: [] })).toBe('noRoastDays');
    expect(scheduleProblem({ ...DEFAULT_SCHEDULE, roastDays: [2, 2] })).toBe('roastDays');
    expect(scheduleProblem({ ...DEFAULT_SCHEDULE, roastDays: [8 as never] })).toBe('roastDays');
    expect(scheduleProblem({ ...DEFAULT_SCHEDULE, chargeLeadDays: 7 })).toBe('chargeLeadDays');
    expect(scheduleProblem({ ...DEFAULT_SCHEDULE, chargeHour: 24 })).toBe('chargeHour');
    expect(scheduleProblem({ ...DEFAULT_SCHEDULE, reminderDays: 0 })).toBe('reminderDays');
    expect(scheduleProblem({ ...DEFAULT_SCHEDULE, cutoffHours: -1 })).toBe('cutoffHours');
  });
});
