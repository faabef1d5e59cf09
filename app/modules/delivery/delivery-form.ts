/**
 * The back office's delivery forms (browser-safe): the parcel settings, a zone's name and countries, a
 * method's weight bands, free-delivery threshold, state and pickup details. Weights are typed in kilograms and
 * prices in euros and in złoty with a dot or a comma (a złoty price left empty is proposed from the shop rate
 * when saved); a failure names the field and the rule it broke.
 */
import { isPlainLine } from '~/lib/plain-text';
import { parsePrice } from '~/modules/backoffice/product-form';
import { parseKilograms } from '~/modules/stock/stock-form';
import { isCountry } from './countries';
import { type DeliveryKind, MAX_BAND_GRAMS, MAX_BANDS, MAX_DELIVERY_CENTS, MAX_PACKAGING_GRAMS, deliveryKinds } from './rates';

export const deliveryLimits = { zoneName: 60, pickupAddress: 200, pickupHours: 120 } as const;

export type DeliveryFormError =
  | 'notFound'
  | 'packaging'
  | 'country'
  | 'zoneName'
  | 'countries'
  | 'kind'
  | 'bandWeight'
  | 'bandPrice'
  | 'bandOrder'
  | 'noBands'
  | 'freeOver'
  | 'pickupAddress'
  | 'pickupHours';

export type DeliveryForm =
  | { intent: 'settings'; packagingGrams: number; homeCountry: string }
  | { intent: 'checkout'; guestCheckout: boolean }
  | { intent: 'zone'; zoneId: string | null; name: string; countries: string[] }
  | { intent: 'delete-zone'; zoneId: string }
  | { intent: 'add-method'; zoneId: string; kind: DeliveryKind }
  | {
      intent: 'method';
      methodId: string;
      active: boolean;
      freeOverCents: number | null;
      /** null: proposed from the euro threshold at the shop rate (or none, without one). */
      freeOverPln: number | null;
      bands: BandInput[];
      pickupAddress: string;
      pickupHours: { en: string; pl: string };
    }
  | { intent: 'delete-method'; methodId: string };

/** A band as the owner typed it: its złoty price null when left to be proposed. */
export type BandInput = { maxGrams: number; priceCents: number; pricePln: number | null };

export type DeliveryFormResult = { ok: true; form: DeliveryForm } | { ok: false; intent: string; errors: Partial<Record<string, DeliveryFormError>> };

const idPattern = /^[A-Za-z0-9_-]{1,64}$/;
export const bandField = (row: number, field: 'kg' | 'price' | 'pln') => `band.${row}.${field}`;

export function parseDeliveryForm(form: FormData): DeliveryFormResult {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value.slice(0, 1000) : '';
  };
  const intent = text('intent');
  const errors: Partial<Record<string, DeliveryFormError>> = {};
  const id = (name: string): string => {
    const value = text(name);
    if (!idPattern.test(value)) errors[name] = 'notFound';
    return value;
  };
  const line = (name: string, max: number, error: DeliveryFormError, required = false): string => {
    const value = text(name).trim();
    if (value.length > max || !isPlainLine(value) || (required && !value)) errors[name] = error;
    return value;
  };
  const done = (parsed: DeliveryForm): DeliveryFormResult => (Object.keys(errors).length > 0 ? { ok: false, intent, errors } : { ok: true, form: parsed });

  switch (intent) {
    case 'settings': {
      const grams = /^\d{1,5}$/.test(text('packagingGrams').trim()) ? Number(text('packagingGrams').trim()) : NaN;
      if (!(grams >= 0 && grams <= MAX_PACKAGING_GRAMS)) errors.packagingGrams = 'packaging';
      const homeCountry = text('homeCountry');
      if (!isCountry(homeCountry)) errors.homeCountry = 'country';
      return done({ intent, packagingGrams: grams, homeCountry });
    }
    case 'checkout':
      return done({ intent, guestCheckout: text('guestCheckout') === 'on' });
    case 'zone': {
      const zoneId = text('zoneId') === '' ? null : id('zoneId');
      const name = line('name', deliveryLimits.zoneName, 'zoneName', true);
      const countries = [...new Set(form.getAll('countries').filter((c): c is string => typeof c === 'string'))];
      if (countries.length === 0 || !countries.every(isCountry)) errors.countries = 'countries';
      return done({ intent, zoneId, name, countries: countries.sort() });
    }
    case 'delete-zone':
      return done({ intent, zoneId: id('zoneId') });
    case 'add-method': {
      const zoneId = id('zoneId');
      const kind = text('kind') as DeliveryKind;
      if (!deliveryKinds.includes(kind)) errors.kind = 'kind';
      return done({ intent, zoneId, kind });
    }
    case 'method': {
      const methodId = id('methodId');
      const bands: BandInput[] = [];
      for (let row = 0; row < MAX_BANDS; row++) {
        const kgText = text(bandField(row, 'kg')).trim();
        const priceText = text(bandField(row, 'price')).trim();
        const plnText = text(bandField(row, 'pln')).trim();
        if (!kgText && !priceText && !plnText) continue;
        const grams = parseKilograms(kgText);
        const cents = parsePrice(priceText);
        const pln = plnText === '' ? null : parsePrice(plnText);
        if (grams === null || grams < 1 || grams > MAX_BAND_GRAMS) errors[bandField(row, 'kg')] = 'bandWeight';
        if (cents === null || cents > MAX_DELIVERY_CENTS) errors[bandField(row, 'price')] = 'bandPrice';
        if (plnText !== '' && (pln === null || pln > MAX_DELIVERY_CENTS * 10)) errors[bandField(row, 'pln')] = 'bandPrice';
        if (grams !== null && cents !== null) {
          if (bands.length > 0 && grams <= bands[bands.length - 1].maxGrams) errors[bandField(row, 'kg')] = 'bandOrder';
          bands.push({ maxGrams: grams, priceCents: cents, pricePln: pln });
        }
      }
      if (bands.length === 0 && !Object.keys(errors).some((k) => k.startsWith('band.'))) errors.bands = 'noBands';
      const freeText = text('freeOver').trim();
      const freeOverCents = freeText === '' ? null : parsePrice(freeText);
      if (freeOverCents === 0 || (freeText !== '' && (freeOverCents === null || freeOverCents > 99_999_999))) errors.freeOver = 'freeOver';
      const freePlnText = freeText === '' ? '' : text('freeOverPln').trim();
      const freeOverPln = freePlnText === '' ? null : parsePrice(freePlnText);
      if (freeOverPln === 0 || (freePlnText !== '' && (freeOverPln === null || freeOverPln > 99_999_999))) errors.freeOverPln = 'freeOver';
      const pickupAddress = line('pickupAddress', deliveryLimits.pickupAddress, 'pickupAddress');
      const pickupHours = { en: line('pickupHoursEn', deliveryLimits.pickupHours, 'pickupHours'), pl: line('pickupHoursPl', deliveryLimits.pickupHours, 'pickupHours') };
      return done({ intent, methodId, active: text('active') === 'on', freeOverCents, freeOverPln, bands, pickupAddress, pickupHours });
    }
    case 'delete-method':
      return done({ intent, methodId: id('methodId') });
    default:
      return { ok: false, intent: '', errors: { intent: 'notFound' } };
  }
}
