/**
 * The owner's VAT rates form (browser-safe): one field per country and class, named `rate.DE.coffee`; empty
 * means "Kopi's rate". Every field is checked; one bad field refuses the whole form, so nothing half-saves.
 */
import { EU_COUNTRIES } from '~/modules/delivery/countries';
import { TAX_CLASSES, parseRate } from './vat';

export const rateField = (country: string, taxClass: string) => `rate.${country}.${taxClass}`;

export type RateChange = { country: string; taxClass: string; rateBp: number | null };
export type RatesFormResult = { ok: true; changes: RateChange[] } | { ok: false; errors: Record<string, 'rate'>; fields: Record<string, string> };

export function parseRatesForm(form: FormData): RatesFormResult {
  const changes: RateChange[] = [];
  const errors: Record<string, 'rate'> = {};
  const fields: Record<string, string> = {};
  for (const country of EU_COUNTRIES) {
    for (const taxClass of TAX_CLASSES) {
      const name = rateField(country, taxClass);
      const raw = form.get(name);
      if (raw === null) continue;
      const text = typeof raw === 'string' ? raw.slice(0, 20) : '';
      fields[name] = text;
      if (text.trim() === '') {
        changes.push({ country, taxClass, rateBp: null });
        continue;
      }
      const rateBp = parseRate(text);
      if (rateBp === null) errors[name] = 'rate';
      else changes.push({ country, taxClass, rateBp });
    }
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors, fields } : { ok: true, changes };
}
