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

const sorted = new Map<string, string[]>();
const collators = new Map<string, Intl.Collator>();

/** The countries sorted by their names in `locale` (remembered: every cart and checkout page lists them). */
export function byName(codes: readonly string[], locale: string): string[] {
  const key = `${locale}:${codes.join(',')}`;
  let list = sorted.get(key);
  if (!list) {
    let collator = collators.get(locale);
    if (!collator) collators.set(locale, (collator = new Intl.Collator(locale)));
    list = [...codes].sort((a, b) => collator.compare(countryName(a, locale), countryName(b, locale)));
    // A few lists per language in practice (the zones' countries); the bound only guards against odd input.
    if (sorted.size > 200) sorted.clear();
    sorted.set(key, list);
  }
  return [...list];
}
