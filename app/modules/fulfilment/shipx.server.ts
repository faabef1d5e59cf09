/**
 * InPost's ShipX API for shipments (SHIPX_API_URL, SHIPX_TOKEN, SHIPX_ORGANIZATION_ID): create one in the
 * simplified mode (`POST /v1/organizations/{id}/shipments`, InPost picks the offer the account pays for), read
 * it back until InPost has confirmed it and given its tracking number (`GET /v1/shipments/{id}`), and fetch its
 * A6 label as a PDF (`GET /v1/shipments/{id}/label`). A refusal comes back in InPost's own words.
 */
import type { Logger } from 'pino';
import type { Config } from '~/config/env.server';
import type { ParcelSize } from './carriers';

export type ShipxSettings = NonNullable<Config['shipx']>;

/** Height × width × length in millimetres of each size (InPost's A: 8 × 38 × 64 cm). */
const dimensions: Record<ParcelSize, [number, number, number]> = { small: [80, 380, 640], medium: [190, 380, 640], large: [410, 380, 640] };

export type ShipmentRequest = {
  /** An order's label, shown in InPost Manager and on the label. */
  reference: string;
  receiver: { name: string; email: string; phone: string };
  size: ParcelSize;
  weightGrams: number;
} & ({ service: 'locker'; targetPoint: string } | { service: 'courier'; address: { street: string; buildingNumber: string; city: string; postCode: string } });

export type Shipment = { id: string; status: string; trackingNumber: string | null };

/**
 * `unreachable`: the request never reached InPost (no connection), so nothing happened there. `uncertain`: it
 * may have (no answer in time, a 5xx, an answer that cannot be read): a shipment may exist.
 */
export type ShipxAnswer<T> = { ok: true; value: T } | { ok: false; reason: 'refused'; message: string } | { ok: false; reason: 'unreachable' | 'uncertain' };

/** Errors that mean the request was never sent. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);
const neverSent = (error: unknown) => {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } })?.cause;
  // fetch refuses some ports before connecting ("bad port").
  return NOT_SENT.has(String(cause?.code ?? '')) || cause?.message === 'bad port';
};

export type Shipx = {
  create(request: ShipmentRequest): Promise<ShipxAnswer<Shipment>>;
  get(id: string): Promise<ShipxAnswer<Shipment>>;
  label(id: string): Promise<ShipxAnswer<ArrayBuffer>>;
};

const TIMEOUT_MS = 10_000;
/** Statuses before InPost has accepted the shipment; its label and tracking number come after them. */
const unconfirmed = new Set(['created', 'offers_prepared', 'offer_selected']);
/** Cancelled at InPost: the order can have a new shipment. */
export const cancelledStatuses = new Set(['canceled', 'cancelled']);
export const isConfirmed = (shipment: Shipment) => !unconfirmed.has(shipment.status) && !cancelledStatuses.has(shipment.status) && shipment.trackingNumber !== null;

/** "Kowalska" of "Anna Maria Kowalska": ShipX wants the two apart. */
export function splitName(fullName: string): { first_name: string; last_name: string } {
  const words = fullName.trim().split(/\s+/);
  return words.length > 1 ? { first_name: words.slice(0, -1).join(' '), last_name: words.at(-1)! } : { first_name: words[0] ?? '', last_name: words[0] ?? '' };
}

/** "ul. Długa 5/3" → street "ul. Długa", building "5/3": ShipX wants them apart, a Polish address line has them together. */
export function splitStreet(line: string): { street: string; buildingNumber: string } {
  const match = /^(.*?\D)\s*,?\s+(\d+[A-Za-z]?(?:\s*[/-]\s*\d+[A-Za-z]?)?(?:\s+(?:m\.?|lok\.?)\s*\d+[A-Za-z]?)?)$/.exec(line.trim());
  return match ? { street: match[1].trim(), buildingNumber: match[2].replace(/\s+/g, ' ') } : { street: line.trim(), buildingNumber: '' };
}

/** The nine digits of a Polish number, as ShipX takes it ("+48 600 100 200" → "600100200"). */
export const shipxPhone = (phone: string) => phone.replace(/\D/g, '').replace(/^48(?=\d{9}$)/, '');

/** What ShipX said, in its words: its message and each problem it names ("receiver.phone: invalid"). */
export function shipxWords(body: unknown, status: number): string {
  const answer = (body ?? {}) as { message?: unknown; error?: unknown; details?: unknown };
  const problems: string[] = [];
  const walk = (value: unknown, at: string) => {
    if (Array.isArray(value) && value.every((v) => typeof v === 'string')) problems.push(`${at}: ${value.join(', ')}`);
    else if (Array.isArray(value)) value.forEach((v) => walk(v, at));
    else if (value && typeof value === 'object') for (const [key, v] of Object.entries(value)) walk(v, at ? `${at}.${key}` : key);
    else if (typeof value === 'string') problems.push(at ? `${at}: ${value}` : value);
  };
  walk(answer.details, '');
  const message = typeof answer.message === 'string' ? answer.message : typeof answer.error === 'string' ? answer.error : `HTTP ${status}`;
  return [message, ...problems].join(' — ').slice(0, 500);
}

/** The body ShipX is sent for a request (simplified mode). */
export function shipmentBody(request: ShipmentRequest, sendingMethod: ShipxSettings['sendingMethod']) {
  const receiver = { ...splitName(request.receiver.name), name: request.receiver.name, email: request.receiver.email, phone: shipxPhone(request.receiver.phone) };
  if (request.service === 'locker') {
    return {
      service: 'inpost_locker_standard',
      reference: request.reference,
      receiver,
      parcels: { template: request.size },
      custom_attributes: { target_point: request.targetPoint, sending_method: sendingMethod },
    };
  }
  const [height, width, length] = dimensions[request.size];
  return {
    service: 'inpost_courier_standard',
    reference: request.reference,
    receiver: {
      ...receiver,
      address: { street: request.address.street, building_number: request.address.buildingNumber, city: request.address.city, post_code: request.address.postCode, country_code: 'PL' },
    },
    parcels: [{ dimensions: { length, width, height, unit: 'mm' }, weight: { amount: Math.max(0.1, Math.ceil(request.weightGrams / 100) / 10), unit: 'kg' }, is_non_standard: false }],
    custom_attributes: { sending_method: sendingMethod },
  };
}

const shipmentOf = (json: { id?: unknown; status?: unknown; tracking_number?: unknown }): Shipment => ({
  id: String(json.id),
  status: typeof json.status === 'string' ? json.status : 'created',
  trackingNumber: typeof json.tracking_number === 'string' && json.tracking_number ? json.tracking_number : null,
});

export function createShipx(settings: ShipxSettings, { log, fetchImpl = fetch }: { log?: Logger; fetchImpl?: typeof fetch } = {}): Shipx {
  async function call<T>(path: string, init: RequestInit, read: (response: Response) => Promise<T>): Promise<ShipxAnswer<T>> {
    let response: Response;
    try {
      response = await fetchImpl(`${settings.apiUrl}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${settings.token}`, accept: 'application/json', ...(init.body ? { 'content-type': 'application/json' } : {}) },
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      log?.warn({ err: error, path }, 'ShipX could not be reached');
      return { ok: false, reason: neverSent(error) ? 'unreachable' : 'uncertain' };
    }
    if (response.status >= 500) {
      log?.warn({ status: response.status, path }, 'ShipX failed');
      return { ok: false, reason: 'uncertain' };
    }
    if (!response.ok) {
      const body = await response.json().catch(() => null);
      return { ok: false, reason: 'refused', message: shipxWords(body, response.status) };
    }
    try {
      return { ok: true, value: await read(response) };
    } catch (error) {
      log?.warn({ err: error, path }, 'ShipX answered something unreadable');
      return { ok: false, reason: 'uncertain' };
    }
  }
  const shipmentPath = (id: string) => `/v1/shipments/${encodeURIComponent(id)}`;
  return {
    create: (request) =>
      call(`/v1/organizations/${encodeURIComponent(settings.organizationId)}/shipments`, { method: 'POST', body: JSON.stringify(shipmentBody(request, settings.sendingMethod)) }, async (response) =>
        shipmentOf(await response.json()),
      ),
    get: (id) => call(shipmentPath(id), { method: 'GET' }, async (response) => shipmentOf(await response.json())),
    label: (id) =>
      call(`${shipmentPath(id)}/label?format=pdf&type=A6`, { method: 'GET' }, async (response) => {
        const bytes = await response.arrayBuffer();
        if (new TextDecoder().decode(bytes.slice(0, 5)) !== '%PDF-') throw new Error('the label is not a PDF');
        return bytes;
      }),
  };
}
