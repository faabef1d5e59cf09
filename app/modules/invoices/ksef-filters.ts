/** The invoices page's filters by KSeF standing (the register filters by them on the server; the page lists them). */
export const KSEF_FILTERS = ['pending', 'accepted', 'refused', 'offline', 'outside'] as const;
export type KsefFilter = (typeof KSEF_FILTERS)[number];
