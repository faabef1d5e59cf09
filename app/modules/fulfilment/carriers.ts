/** The carriers a Polish roaster ships with, and where a customer follows a parcel (browser-safe). */
export const carriers = ['inpost', 'dpd', 'dhl', 'ups', 'gls', 'pocztaPolska', 'fedex', 'other'] as const;
export type Carrier = (typeof carriers)[number];
export const isCarrier = (value: unknown): value is Carrier => carriers.includes(value as Carrier);

export const carrierNames: Record<Carrier, string> = {
  inpost: 'InPost',
  dpd: 'DPD',
  dhl: 'DHL',
  ups: 'UPS',
  gls: 'GLS',
  pocztaPolska: 'Poczta Polska',
  fedex: 'FedEx',
  other: '',
};

const trackingUrls: Partial<Record<Carrier, (n: string) => string>> = {
  inpost: (n) => `https://inpost.pl/sledzenie-przesylek?number=${n}`,
  dpd: (n) => `https://tracktrace.dpd.com.pl/parcelDetails?p1=${n}`,
  dhl: (n) => `https://www.dhl.com/pl-en/home/tracking.html?tracking-id=${n}`,
  ups: (n) => `https://www.ups.com/track?tracknum=${n}`,
  gls: (n) => `https://gls-group.com/PL/en/parcel-tracking?match=${n}`,
  pocztaPolska: (n) => `https://emonitoring.poczta-polska.pl/?numer=${n}`,
  fedex: (n) => `https://www.fedex.com/fedextrack/?trknbr=${n}`,
};

/** Letters, digits and dashes, as every carrier's numbers are. */
export const trackingNumberPattern = /^[A-Za-z0-9-]{4,40}$/;

/** The page where the customer follows the parcel, or null (another carrier, or no number). */
export function trackingUrl(carrier: string | null, trackingNumber: string | null): string | null {
  if (!carrier || !trackingNumber || !isCarrier(carrier) || !trackingNumberPattern.test(trackingNumber)) return null;
  const make = trackingUrls[carrier];
  return make ? make(encodeURIComponent(trackingNumber)) : null;
}

/** InPost's locker sizes (A, B, C); a courier parcel's dimensions follow them too. */
export const parcelSizes = ['small', 'medium', 'large'] as const;
export type ParcelSize = (typeof parcelSizes)[number];
export const isParcelSize = (value: unknown): value is ParcelSize => parcelSizes.includes(value as ParcelSize);
/** The letter InPost prints for a size. */
export const parcelSizeLetters: Record<ParcelSize, string> = { small: 'A', medium: 'B', large: 'C' };
