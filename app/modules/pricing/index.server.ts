/** Pricing's public server API: the shop's currencies and the owner's currency settings (docs/decisions/0023). */
export * from './currencies';
export { DEFAULT_SETTINGS, currencySettings, requestCurrency, saveCurrencySettings, type CurrencySettings } from './settings.server';
