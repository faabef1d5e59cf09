/** The countries a zone may hold: the EU's 27 (browser-safe). Names come from `Intl.DisplayNames` per language. */
export const EU_COUNTRIES = [
  'AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK',
] as const;
export type Country = (typeof EU_COUNTRIES)[number];

export const isCountry = (value: unknown): value is Country => typeof value === 'string' && (EU_COUNTRIES as readonly string[]).includes(value);

const names = new Map<string, Intl.DisplayNames>();

/** "Poland" / "Polska": the country's name in the page's language. */
export function countryName(code: string, locale: string): string {
  let display = names.get(locale);
  if (!display) names.set(locale, (display = new Intl.DisplayNames([locale], { type: 'region' })));
  return display.of(code) ?? code;
}

/** The countries sorted by their names in `locale`. */
export const byName = (codes: readonly string[], locale: string) => [...codes].sort((a, b) => countryName(a, locale).localeCompare(countryName(b, locale), locale));
