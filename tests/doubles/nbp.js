/**
 * A stand-in for the National Bank of Poland's Web API (api.nbp.pl), table A (average rates), in a process of its
 * own: `GET /api/exchangerates/rates/a/{code}/{date}/`, `…/{startDate}/{endDate}/`, `…/last/{n}/` and
 * `…/rates/a/{code}/` (today's), answered as NBP answers — JSON
 * `{ table, currency, code, rates: [{ no, effectiveDate, mid }] }`, "404 NotFound - Not Found - Brak danych" when no
 * table was published in the range (weekends and Polish public holidays have none), "400 BadRequest - …" for a bad
 * date or a range over 93 days. The rates are made up but fixed: a day's rate is the same on every run.
 *
 * For tests: `GET /__requests` counts the answers, `POST /__down` makes every answer a 503 until `POST /__up`.
 */
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const CURRENCIES = { EUR: { name: 'euro', base: 4.21 }, USD: { name: 'dolar amerykański', base: 3.64 }, CZK: { name: 'korona czeska', base: 0.1702 } };
const DAY_MS = 86_400_000;
const MAX_DAYS = 93;

/** Easter Sunday (the anonymous Gregorian algorithm), as UTC midnight. */
function easter(year) {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return Date.UTC(year, month - 1, day);
}

/** Poland's public holidays (no NBP table is published on them); Christmas Eve is one from 2025. */
function holidays(year) {
  const fixed = ['01-01', '01-06', '05-01', '05-03', '08-15', '11-01', '11-11', '12-25', '12-26', ...(year >= 2025 ? ['12-24'] : [])].map((d) => `${year}-${d}`);
  const e = easter(year);
  const moving = [e + DAY_MS, e + 49 * DAY_MS, e + 60 * DAY_MS].map((t) => new Date(t).toISOString().slice(0, 10)); // Easter Monday, Pentecost, Corpus Christi
  return new Set([...fixed, ...moving]);
}

const iso = (t) => new Date(t).toISOString().slice(0, 10);

function isPublished(t) {
  const weekday = new Date(t).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !holidays(new Date(t).getUTCFullYear()).has(iso(t));
}

/** The table of day `t` (UTC midnight), or null when none was published that day. */
function tableOf(code, t) {
  if (!isPublished(t)) return null;
  const year = new Date(t).getUTCFullYear();
  let seq = 0;
  for (let d = Date.UTC(year, 0, 1); d <= t; d += DAY_MS) if (isPublished(d)) seq++;
  const days = Math.round(t / DAY_MS);
  const mid = Math.round((CURRENCIES[code].base * (1 + (((days * 7919) % 401) - 200) / 40_000)) * 10_000) / 10_000;
  return { no: `${String(seq).padStart(3, '0')}/A/NBP/${year}`, effectiveDate: iso(t), mid };
}

function parseDay(text) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return null;
  const t = Date.parse(`${text}T00:00:00Z`);
  return Number.isNaN(t) || iso(t) !== text ? null : t;
}

let answered = 0;
let down = false;

export function startNbp({ port = 3392, host = '127.0.0.1', today = () => Date.now() } = {}) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://${host}`);
    const sendText = (status, text) => {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(text);
    };
    const notFound = () => sendText(404, '404 NotFound - Not Found - Brak danych');
    if (url.pathname === '/__requests') return res.end(JSON.stringify({ answered }));
    if (url.pathname === '/__down' || url.pathname === '/__up') {
      down = url.pathname === '/__down';
      return res.end('ok');
    }
    if (req.method !== 'GET') return sendText(405, '405 MethodNotAllowed');
    answered++;
    if (down) return sendText(503, '503 Service Unavailable');
    if (url.searchParams.has('format') && !['json', 'xml'].includes(url.searchParams.get('format'))) return sendText(400, '400 BadRequest - Błędny format / Invalid format');
    if (url.searchParams.get('format') === 'xml') return sendText(400, '400 BadRequest - This stand-in answers JSON only');

    const match = /^\/api\/exchangerates\/rates\/([abc])\/([a-z]{3})(?:\/([^/]+))?(?:\/([^/]+))?\/?$/i.exec(url.pathname);
    if (!match) return notFound();
    const [, table, rawCode, first, second] = match;
    const code = rawCode.toUpperCase();
    if (table.toLowerCase() !== 'a' || !CURRENCIES[code]) return notFound();
    const now = Date.UTC(new Date(today()).getUTCFullYear(), new Date(today()).getUTCMonth(), new Date(today()).getUTCDate());

    let days;
    if (first === undefined || first === 'today') {
      const last = [...Array(10).keys()].map((i) => now - i * DAY_MS).find(isPublished);
      days = first === 'today' ? [now] : [last];
    } else if (first === 'last') {
      const n = Number(second);
      if (!Number.isInteger(n) || n < 1 || n > 255) return sendText(400, '400 BadRequest - Przekroczony limit 255 wyników / Maximum size of 255 data series has been exceeded');
      days = [];
      for (let d = now; days.length < n; d -= DAY_MS) if (isPublished(d)) days.unshift(d);
    } else {
      const from = parseDay(first);
      const to = second === undefined ? from : parseDay(second);
      if (from === null || to === null || to < from) return sendText(400, '400 BadRequest - Błędny zakres dat / Invalid date range');
      if ((to - from) / DAY_MS + 1 > MAX_DAYS) return sendText(400, `400 BadRequest - Przekroczony limit ${MAX_DAYS} dni / Limit of ${MAX_DAYS} days has been exceeded`);
      days = [];
      for (let d = from; d <= Math.min(to, now); d += DAY_MS) days.push(d);
    }
    const rates = days.map((d) => tableOf(code, d)).filter(Boolean);
    if (rates.length === 0) return notFound();
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify({ table: 'A', currency: CURRENCIES[code].name, code, rates }));
  });
  return new Promise((resolve) => server.listen(port, host, () => resolve(server)));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const port = Number(process.env.PORT ?? process.argv[2] ?? 3392);
  await startNbp({ port });
  console.log(`NBP Web API stand-in on http://127.0.0.1:${port}/api/exchangerates/rates/a/eur/`);
  const stop = () => process.exit(0);
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
