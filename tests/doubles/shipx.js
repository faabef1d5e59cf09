#!/usr/bin/env node
/**
 * A stand-in for InPost's ShipX shipments API, in its wire format, for the tests (a process of its own) and
 * for offline demos: `npm run stand-in:shipx`, then SHIPX_API_URL=http://127.0.0.1:3391 SHIPX_TOKEN=shipx-test-token
 * SHIPX_ORGANIZATION_ID=1234.
 *
 * - `POST /v1/organizations/{id}/shipments` (Bearer token) checks the body as ShipX does — the receiver's
 *   email and phone (9 digits), a locker shipment's `custom_attributes.target_point` (an operating locker of
 *   tests/doubles/inpost-lockers.json) and `parcels.template` (small | medium | large), a courier shipment's
 *   receiver address (street, building number, post code NN-NNN, city, PL) and parcel (dimensions in mm,
 *   weight in kg up to 25) — and answers 201 with the shipment in status `created` and no tracking number,
 *   or 400 `validation_failed` with the `details` of every problem.
 * - `GET /v1/shipments/{id}`: the shipment; CONFIRM_AFTER_MS (200) after it was created it is `confirmed`
 *   and has its tracking number, as InPost confirms a prepaid account's shipments a moment later.
 * - `GET /v1/shipments/{id}/label?format=pdf&type=A6`: an A6 PDF label (readable with pdftotext), once confirmed.
 *
 * For the tests: `GET /__shipments` lists what was created (with the bodies sent), `POST /__lockers/{name}/withdraw`
 * takes a locker out of service (InPost then refuses it), `POST /__confirm-after/{ms}` sets how long new
 * shipments wait for confirmation, `POST /__fail-next/{status}` makes the next shipment be created but answered
 * with that status (an answer lost on the way), `GET /__requests` counts the requests answered.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const lockers = JSON.parse(fs.readFileSync(path.join(here, 'inpost-lockers.json'), 'utf8'));
const withdrawn = new Set();

export const SHIPX_TEST_TOKEN = 'shipx-test-token';
export const SHIPX_TEST_ORGANIZATION = '1234';
let confirmAfterMs = Number(process.env.CONFIRM_AFTER_MS ?? 200);
const templates = { small: [80, 380, 640], medium: [190, 380, 640], large: [410, 380, 640] };

/** Latin letters without their marks, for the label's built-in font (ł has no decomposition). */
const ascii = (text) =>
  String(text ?? '')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ł/g, 'l')
    .replace(/Ł/g, 'L')
    .replace(/[^\x20-\x7e]/g, '?');

/** A one-page A6 PDF (105 × 148 mm) with the given lines of text, built by hand: what pdftotext reads back. */
export function labelPdf(lines) {
  const escape = (text) => ascii(text).replace(/[\\()]/g, (c) => `\\${c}`);
  const rows = lines.map(([size, text], i) => `BT /F1 ${size} Tf 18 ${392 - i * 26} Td (${escape(text)}) Tj ET`);
  const stream = ['0 0 0 RG 2 w 10 10 277.6 399.5 re S', ...rows, '18 60 241 46 re f'].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 297.6 419.5] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(stream)} >>\nstream\n${stream}\nendstream`,
  ];
  let body = '%PDF-1.4\n';
  const offsets = objects.map((object, i) => {
    const at = Buffer.byteLength(body);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
    return at;
  });
  const xref = Buffer.byteLength(body);
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** ShipX's `details`: what is wrong with the body, keyed as the body is. */
function problems(body) {
  const details = {};
  const add = (group, field, problem) => ((details[group] ??= [{}])[0][field] ??= []).push(problem);
  const receiver = body?.receiver ?? {};
  if (!/^\S+@\S+\.\S+$/.test(String(receiver.email ?? ''))) add('receiver', 'email', 'invalid');
  if (!/^\d{9}$/.test(String(receiver.phone ?? ''))) add('receiver', 'phone', 'invalid');
  if (!receiver.name && !(receiver.first_name && receiver.last_name)) add('receiver', 'name', 'required');
  if (body?.service === 'inpost_locker_standard') {
    const point = String(body.custom_attributes?.target_point ?? '');
    const locker = lockers.find((l) => l.name === point);
    if (!point) add('custom_attributes', 'target_point', 'required');
    else if (!locker || locker.status !== 'Operating' || withdrawn.has(point)) add('custom_attributes', 'target_point', 'does_not_exist');
    const template = Array.isArray(body.parcels) ? body.parcels[0]?.template : body.parcels?.template;
    if (!(template in templates)) add('parcels', 'template', 'invalid');
  } else if (body?.service === 'inpost_courier_standard') {
    const a = receiver.address ?? {};
    if (!a.street) add('receiver', 'street', 'required');
    if (!a.building_number) add('receiver', 'building_number', 'required');
    if (!a.city) add('receiver', 'city', 'required');
    if (!/^\d{2}-\d{3}$/.test(String(a.post_code ?? ''))) add('receiver', 'post_code', 'invalid');
    if (a.country_code !== 'PL') add('receiver', 'country_code', 'invalid');
    const parcel = Array.isArray(body.parcels) ? body.parcels[0] : body.parcels;
    const kg = Number(parcel?.weight?.amount);
    if (!(kg > 0) || parcel?.weight?.unit !== 'kg') add('parcels', 'weight', 'invalid');
    else if (kg > 25) add('parcels', 'weight', 'too_heavy');
    const d = parcel?.dimensions ?? {};
    if (![d.length, d.width, d.height].every((n) => Number(n) > 0) || d.unit !== 'mm') add('parcels', 'dimensions', 'invalid');
  } else add('service', 'service', 'invalid');
  return details;
}

export function startShipx({ port = 3391, host = '127.0.0.1', token = SHIPX_TEST_TOKEN, organization = SHIPX_TEST_ORGANIZATION } = {}) {
  const shipments = [];
  let answered = 0;
  /** A status the next created shipment is answered with instead of 201 (it is created all the same). */
  let failNext = 0;
  const view = (s, base) => {
    const confirmed = Date.now() - s.createdAt >= s.confirmAfterMs;
    return {
      href: `${base}/v1/shipments/${s.id}`,
      id: s.id,
      status: confirmed ? 'confirmed' : 'created',
      tracking_number: confirmed ? s.trackingNumber : null,
      service: s.body.service,
      reference: s.body.reference ?? null,
      is_return: false,
      receiver: s.body.receiver,
      parcels: Array.isArray(s.body.parcels) ? s.body.parcels : [s.body.parcels],
      custom_attributes: s.body.custom_attributes ?? {},
      created_at: new Date(s.createdAt).toISOString(),
      updated_at: new Date(confirmed ? s.createdAt + s.confirmAfterMs : s.createdAt).toISOString(),
    };
  };
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? host}`);
    const base = `http://${req.headers.host ?? `${host}:${port}`}`;
    const send = (status, body) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(body));
    };
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const raw = Buffer.concat(chunks).toString('utf8');

    if (url.pathname === '/__requests') return send(200, { answered });
    if (url.pathname === '/__shipments') return send(200, shipments.map((s) => ({ ...view(s, base), body: s.body })));
    const withdraw = /^\/__lockers\/([A-Z0-9]+)\/withdraw$/.exec(url.pathname);
    if (withdraw && req.method === 'POST') {
      withdrawn.add(withdraw[1]);
      return send(200, { withdrawn: [...withdrawn] });
    }
    const fail = /^\/__fail-next\/(\d{3})$/.exec(url.pathname);
    if (fail && req.method === 'POST') {
      failNext = Number(fail[1]);
      return send(200, { failNext });
    }
    const delay = /^\/__confirm-after\/(\d+)$/.exec(url.pathname);
    if (delay && req.method === 'POST') {
      confirmAfterMs = Number(delay[1]);
      return send(200, { confirmAfterMs });
    }
    answered++;
    if (req.headers.authorization !== `Bearer ${token}`) return send(401, { status: 401, error: 'token_invalid', message: 'Token is missing or invalid.', details: {} });

    const create = /^\/v1\/organizations\/([^/]+)\/shipments$/.exec(url.pathname);
    if (create && req.method === 'POST') {
      if (create[1] !== organization) return send(403, { status: 403, error: 'access_forbidden', message: 'You have no permission to access this resource.', details: {} });
      let body;
      try {
        body = JSON.parse(raw);
      } catch {
        return send(400, { status: 400, error: 'invalid_json', message: 'The request body is not valid JSON.', details: {} });
      }
      const details = problems(body);
      if (Object.keys(details).length) return send(400, { status: 400, error: 'validation_failed', message: 'There are some validation errors. Check details object for more info.', details });
      const id = 90_000_000 + shipments.length + 1;
      const shipment = { id, body, createdAt: Date.now(), confirmAfterMs, trackingNumber: `6200${String(id).padStart(20, '0')}` };
      shipments.push(shipment);
      if (failNext) {
        const status = failNext;
        failNext = 0;
        return send(status, { status, error: 'bad_gateway', message: 'Upstream error.', details: {} });
      }
      return send(201, view(shipment, base));
    }
    const one = /^\/v1\/shipments\/(\d+)(\/label)?$/.exec(url.pathname);
    const shipment = one && shipments.find((s) => s.id === Number(one[1]));
    if (!one || req.method !== 'GET') return send(404, { status: 404, error: 'resource_not_found', message: 'Not found', details: {} });
    if (!shipment) return send(404, { status: 404, error: 'resource_not_found', message: 'Shipment not found', details: {} });
    const current = view(shipment, base);
    if (!one[2]) return send(200, current);
    if (current.status !== 'confirmed') return send(400, { status: 400, error: 'invalid_action', message: `Action is not available for shipment in status ${current.status}.`, details: {} });
    const { receiver, custom_attributes: to, reference } = shipment.body;
    const a = receiver.address;
    res.writeHead(200, { 'content-type': 'application/pdf', 'content-disposition': `attachment; filename="${shipment.trackingNumber}.pdf"` });
    res.end(
      labelPdf([
        [22, 'InPost'],
        [12, shipment.body.service === 'inpost_locker_standard' ? `Paczkomat ${to.target_point}` : 'Kurier standard'],
        [14, shipment.trackingNumber],
        [12, receiver.name ?? `${receiver.first_name} ${receiver.last_name}`],
        [11, a ? `${a.street} ${a.building_number}, ${a.post_code} ${a.city}` : `tel. ${receiver.phone}`],
        [11, `Ref: ${reference ?? ''}`],
        [9, `Size ${Array.isArray(shipment.body.parcels) ? (shipment.body.parcels[0].template ?? 'custom') : shipment.body.parcels.template}`],
      ]),
    );
  });
  return new Promise((resolve) => server.listen(port, host, () => resolve(server)));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const port = Number(process.env.PORT ?? process.argv[2] ?? 3391);
  await startShipx({ port });
  console.log(`ShipX stand-in on http://127.0.0.1:${port} (token ${SHIPX_TEST_TOKEN}, organisation ${SHIPX_TEST_ORGANIZATION})`);
  const stop = () => process.exit(0);
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
