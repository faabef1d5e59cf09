/** Delivery's public server API: zones, methods and their rates (docs/decisions/0021). */
export { changeDelivery, getDeliveryTable, setZlotyRates, type DeliveryChangeOutcome, type DeliveryChangeRefusal } from './delivery.server';
export * from './rates';
export { EU_COUNTRIES, countryName, isCountry } from './countries';
export { LOCKER_RESULTS, MAX_LOCKER_QUERY, createLockerDirectory, lockerSnapshot, type Locker, type LockerDirectory, type LockerSearch } from './lockers.server';
