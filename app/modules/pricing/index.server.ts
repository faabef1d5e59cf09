/** Pricing's public server API: the shop's currencies, the owner's currency settings (docs/decisions/0023), and the one function that prices an order. */
export * from './currencies';
export { DEFAULT_SETTINGS, currencySettings, requestCurrency, saveCurrencySettings, type CurrencySettings } from './settings.server';
export { type CodeToPrice, type DeliveryToPrice, type LineToPrice, type OrderPrice, priceOrder } from './order-price';
