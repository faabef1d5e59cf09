/** The dashboard's periods: today, 7 and 30 days in the shop's time zone (browser-safe). */
export const periods = { today: 1, '7d': 7, '30d': 30 } as const;
export type Period = keyof typeof periods;
export const isPeriod = (value: unknown): value is Period => typeof value === 'string' && Object.hasOwn(periods, value);
