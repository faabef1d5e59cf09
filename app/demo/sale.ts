/** The demo shop's sale (app/demo/promotions.server.ts), shared with the tests that expect its prices. */
export const DEMO_SALE = 'mandheling-grade-one';
/** Now: this much off, until twelve days from the seed. */
export const DEMO_SALE_PERCENT = 20;
/** Twenty days before the seed, for three days: the 30 days' lowest price comes from it. */
export const DEMO_FLASH_PERCENT = 10;
/** The demo's discount code: 10% off the goods, no minimum, not on coffee already on sale. */
export const DEMO_CODE = 'KAWA10';
export const DEMO_CODE_PERCENT = 10;
export const DEMO_SALE_LABEL = { en: 'Last season’s lot', pl: 'Zeszłoroczne zbiory' };

/** What a percentage leaves of a price, to the cent (as the shop computes it). */
export const percentOff = (cents: number, percent: number) => Math.round((cents * (100 - percent)) / 100);
