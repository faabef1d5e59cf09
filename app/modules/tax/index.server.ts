/** Tax's public server API: VAT rates per country and class, OSS, and the VAT inside an order (docs/decisions/0027). */
export * from './vat';
export { HOME_COUNTRY, OSS_THRESHOLD_EUR_CENTS, OSS_THRESHOLD_PLN_GROSZE, OSS_WARN_SHARE, SHIPPED_RATES } from './rates';
export { listTaxRates, orderTaxRates, saveOssSetting, saveTaxRates, taxCountryFor, taxSettings, type TaxRate, type TaxSettings } from './tax.server';
