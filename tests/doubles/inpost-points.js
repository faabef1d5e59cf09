#!/usr/bin/env node
/**
 * A stand-in for InPost's public Points API (`GET /v1/points`, `GET /v1/points/{name}`), answering from a
 * fixture of Polish lockers (tests/doubles/inpost-lockers.json) in the API's own shape: a page of `items`
 * with `name`, `type`, `status`, `location`, `address` and `address_details`, `opening_hours`,
 * `location_description`, and `distance` in metres when asked relative to a post code or a point. For the
 * tests (a process of its own) and for offline demos: `npm run stand-in:inpost`, then
 * INPOST_API_URL=http://127.0.0.1:3390.
 *
 * Query parameters it understands, as the real API does: `name` (one or more codes, comma-separated),
 * `city`, `post_code`, `relative_post_code`, `relative_point` (lat,lng), `max_distance` (metres), `type`,
 * `status`, `sort_by` (name | distance_asc), `page`, `per_page`. A post code the fixture cannot place finds
 * nothing. The stand-in's own `/__requests` counts the requests it answered (the shop's cache is tested with it).
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const lockers = JSON.parse(fs.readFileSync(path.join(here, 'inpost-lockers.json'), 'utf8'));

/** Where a post code is, roughly: its first two digits' city (enough to sort the fixture's lockers by distance). */
const postCodeAreas = {
  '00': [52.2297, 21.0122], '01': [52.2519, 20.9708], '02': [52.1935, 21.0046], '03': [52.2540, 21.0630], '04': [52.2233, 21.1135],
  '30': [50.0541, 19.9350], '31': [50.0700, 19.9600], '80': [54.3520, 18.6466], '50': [51.1079, 17.0385], '53': [51.0850, 17.0100],
  '54': [51.1200, 16.9800], '60': [52.3950, 16.8900], '61': [52.4100, 16.9350],
};

function placeOf(postCode) {
  const exact = lockers.find((l) => l.postCode === postCode);
  if (exact) return [exact.lat, exact.lng];
  return postCodeAreas[postCode.slice(0, 2)] ?? null;
}

function metresBetween([lat1, lng1], [lat2, lng2]) {
  const rad = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * rad) / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lng2 - lng1) * rad) / 2) ** 2;
  return Math.round(2 * 6_371_000 * Math.asin(Math.sqrt(a)));
}

function pointJson(locker, base, distance) {
  return {
    href: `${base}/v1/points/${locker.name}`,
    name: locker.name,
    type: ['parcel_locker'],
    status: locker.status,
    location: { longitude: locker.lng, latitude: locker.lat },
    location_type: 'Outdoor',
    location_date: null,
    location_description: locker.description,
    location_description_1: null,
    location_description_2: null,
    opening_hours: locker.hours,
    address: { line1: `${locker.street} ${locker.building}`, line2: `${locker.postCode} ${locker.city}` },
    address_details: { city: locker.city, province: locker.province, post_code: locker.postCode, street: locker.street, building_number: locker.building, flat_number: null },
    phone_number: null,
    payment_available: true,
    functions: ['parcel_collect', 'parcel_send'],
    partner_id: 0,
    is_next: false,
    payment_type: { 0: 'Payments are not supported' },
    location_247: locker.hours === '24/7',
    ...(distance === undefined ? {} : { distance }),
  };
}

const norm = (text) => text.normalize('NFC').toLocaleLowerCase('pl');
let answered = 0;

export function startInpostPoints({ port = 3390, host = '127.0.0.1' } = {}) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? host}`);
    const base = `http://${req.headers.host ?? `${host}:${port}`}`;
    const send = (status, body) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/__requests') return send(200, { answered });
    if (req.method !== 'GET') return send(405, { status: 405, error: 'method_not_allowed' });
    answered++;

    const one = /^\/v1\/points\/([^/]+)$/.exec(url.pathname);
    if (one) {
      const locker = lockers.find((l) => l.name === decodeURIComponent(one[1]).toUpperCase());
      return locker ? send(200, pointJson(locker, base)) : send(404, { status: 404, error: 'resource_not_found', message: 'Point not found', details: {} });
    }
    if (url.pathname !== '/v1/points') return send(404, { status: 404, error: 'resource_not_found', message: 'Not found', details: {} });

    const q = url.searchParams;
    let found = lockers.slice();
    const names = q.get('name');
    if (names) found = found.filter((l) => names.toUpperCase().split(',').includes(l.name));
    const city = q.get('city');
    if (city) found = found.filter((l) => norm(l.city) === norm(city));
    const postCode = q.get('post_code');
    if (postCode) found = found.filter((l) => l.postCode === postCode);
    const status = q.get('status');
    if (status) found = found.filter((l) => l.status === status);
    const type = q.get('type');
    if (type && !type.split(',').includes('parcel_locker')) found = [];

    let origin = null;
    const relativePostCode = q.get('relative_post_code');
    const relativePoint = q.get('relative_point');
    if (relativePostCode) {
      origin = placeOf(relativePostCode);
      if (!origin) found = [];
    } else if (relativePoint) {
      const [lat, lng] = relativePoint.split(',').map(Number);
      if (Number.isFinite(lat) && Number.isFinite(lng)) origin = [lat, lng];
    }
    let items = found.map((l) => ({ locker: l, distance: origin ? metresBetween(origin, [l.lat, l.lng]) : undefined }));
    const maxDistance = Number(q.get('max_distance'));
    if (origin && maxDistance > 0) items = items.filter((i) => i.distance <= maxDistance);
    if (origin && (q.get('sort_by') ?? 'distance_asc') === 'distance_asc') items.sort((a, b) => a.distance - b.distance);
    else items.sort((a, b) => a.locker.name.localeCompare(b.locker.name));

    const perPage = Math.max(1, Math.min(500, Number(q.get('per_page')) || 25));
    const page = Math.max(1, Number(q.get('page')) || 1);
    const pageItems = items.slice((page - 1) * perPage, page * perPage);
    send(200, {
      href: `${base}${url.pathname}${url.search}`,
      count: items.length,
      page,
      per_page: perPage,
      total_pages: Math.max(1, Math.ceil(items.length / perPage)),
      items: pageItems.map((i) => pointJson(i.locker, base, i.distance)),
      meta: { count: items.length, page, per_page: perPage, total_pages: Math.max(1, Math.ceil(items.length / perPage)) },
    });
  });
  return new Promise((resolve) => server.listen(port, host, () => resolve(server)));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const port = Number(process.env.PORT ?? process.argv[2] ?? 3390);
  await startInpostPoints({ port });
  console.log(`InPost Points API stand-in on http://127.0.0.1:${port}/v1/points`);
  const stop = () => process.exit(0);
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
