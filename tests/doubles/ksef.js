/**
 * A stand-in for KSeF API 2.0 (the Ministry of Finance's e-invoicing system), in a process of its own, speaking the
 * wire format of `open-api.json` (../shared/ksef/api/) for what a sender of invoices uses:
 *
 * - `GET /security/public-key-certificates`: two certificates of its own (made with openssl at start), one to
 *   encrypt KSeF tokens, one to encrypt session keys;
 * - `POST /auth/challenge`, `POST /auth/ksef-token` (the token and the challenge's timestamp, RSA-OAEP SHA-256),
 *   `GET /auth/{ref}` (100 in progress for a moment, then 200, or 450 for a token it does not know), `POST
 *   /auth/token/redeem` (once), `POST /auth/token/refresh`;
 * - `POST /sessions/online` (the AES key RSA-OAEP encrypted, the IV beside it), `POST
 *   /sessions/online/{ref}/invoices` (AES-256-CBC, PKCS#7; both hashes and sizes checked), `GET
 *   /sessions/{ref}/invoices/{invoiceRef}` (150 for a moment, then 200 with a KSeF number whose CRC-8 is right, or
 *   435 undecryptable, 430 not FA(3) by the schema or hashes that do not match, 440 a duplicate of an accepted
 *   invoice — same seller, kind and number — with the original's KSeF number, 450 a semantic refusal), `GET
 *   /sessions/{ref}/invoices` (the session's invoices: how a sender that lost an answer finds out), `GET
 *   /sessions/{ref}/invoices/{invoiceRef}/upo` (UPO XML, schema v4-3), `POST /sessions/online/{ref}/close`.
 *
 * A KSeF token is accepted when it has KSeF's shape (`{reference}|nip-{NIP}|{64 hex}`), names the NIP it
 * authenticates for and has not been revoked. Errors come as KSeF's ExceptionResponse; 429 carries Retry-After.
 *
 * For tests: `GET /__requests` (counts by route, and how often each invoice number was sent), `GET /__invoices`
 * (what it accepted), `POST /__mode` with `{ "mode": "normal" | "rate-limit" | "maintenance" | "lose-answer",
 * "count"?: n, "retryAfter"?: seconds }` (rate-limit and maintenance answer every API call with 429 or 503, for
 * `count` calls or until normal; lose-answer accepts the next `count` invoices and closes the connection without
 * answering), `POST /__refuse-buyer` `{ "nip": "…" }` (invoices to that buyer are refused as KSeF refuses
 * semantics, 450), `POST /__revoke` `{ "token": "…" }`, `POST /__reset`.
 *
 * Usage: node tests/doubles/ksef.js [port]   (port 3940 by default)
 */
import { execFile, execFileSync } from 'node:child_process';
import { X509Certificate, constants, createDecipheriv, createHash, createPrivateKey, privateDecrypt, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const VENDOR = fileURLToPath(new URL('../../vendor/ksef/', import.meta.url));
const AUTH_PENDING_MS = 30;
const PROCESSING_MS = 40;
const ACCESS_MS = 15 * 60_000;
const REFRESH_MS = 7 * 24 * 60 * 60_000;

/** A key pair and a self-signed certificate, as the Ministry publishes its own (DER, Base64). */
function keyAndCertificate(name) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ksef-stand-in-'));
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certFile, '-subj', `/CN=KSeF stand-in ${name}/O=Kopi tests`, '-days', '30'], { stdio: 'ignore' });
  const key = createPrivateKey(fs.readFileSync(keyFile));
  const certificate = new X509Certificate(fs.readFileSync(certFile)).raw.toString('base64');
  fs.rmSync(dir, { recursive: true, force: true });
  return { key, certificate, publicKeyId: createHash('sha256').update(certificate).digest('base64') };
}

const tokenKey = keyAndCertificate('token encryption');
const sessionKey = keyAndCertificate('symmetric key encryption');

const hex = (bytes) => randomBytes(bytes).toString('hex').toUpperCase();
const today = () => new Date().toISOString().slice(0, 10).replaceAll('-', '');

/** CRC-8 as `faktury/numer-ksef.md` defines it: polynomial 0x07, initial value 0. */
function crc8(text) {
  let crc = 0;
  for (const byte of Buffer.from(text, 'latin1')) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff;
  }
  return crc.toString(16).toUpperCase().padStart(2, '0');
}

const ksefNumberFor = (nip) => {
  const data = `${nip}-${today()}-${hex(6)}`;
  return `${data}-${crc8(data)}`;
};
const referenceNumber = (kind) => `${today()}-${kind}-${hex(5)}-${hex(5)}-${hex(1)}`;

let state;
function reset() {
  state = {
    mode: { mode: 'normal', count: Infinity, retryAfter: 1 },
    challenges: new Map(),
    auths: new Map(),
    access: new Map(),
    refresh: new Map(),
    sessions: new Map(),
    invoices: new Map(),
    accepted: new Map(),
    refusedBuyers: new Set(),
    revoked: new Set(),
    requests: {},
    sends: {},
  };
}
reset();

function exception(res, status, code, description, details = []) {
  send(res, status, { exception: { exceptionDetailList: [{ exceptionCode: code, exceptionDescription: description, details }], serviceCode: hex(8), timestamp: new Date().toISOString() } });
}

function send(res, status, body, headers = {}) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': typeof body === 'string' ? 'application/xml; charset=utf-8' : 'application/json; charset=utf-8', ...headers });
  res.end(text);
}

async function readJson(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

const bearer = (req) => /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? null;

function accessOf(req, res) {
  const token = bearer(req);
  const entry = token && state.access.get(token);
  if (!entry || entry.validUntil < Date.now()) {
    send(res, 401, { title: 'Unauthorized', status: 401, detail: 'Brak lub nieprawidłowy token dostępowy.', timestamp: new Date().toISOString() });
    return null;
  }
  return entry;
}

/** A KSeF token the stand-in accepts: KSeF's shape, for this NIP, not revoked. */
function tokenAccepted(token, nip) {
  const match = /^(\d{8}-[0-9A-Z]{2}-[0-9A-F]{10}-[0-9A-F]{10}-[0-9A-F]{2})\|nip-(\d{10})\|[0-9a-f]{64}$/.exec(token);
  return match !== null && match[2] === nip && !state.revoked.has(token) ? match[1] : null;
}

const field = (xml, name) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1] ?? null;
const sellerNipOf = (xml) => /<Podmiot1>[\s\S]*?<NIP>(\d{10})<\/NIP>/.exec(xml)?.[1] ?? null;
const buyerNipOf = (xml) => /<Podmiot2>[\s\S]*?<NIP>(\d{10})<\/NIP>/.exec(xml)?.[1] ?? null;

function validateFa3(xml) {
  return new Promise((resolve) => {
    const file = path.join(os.tmpdir(), `ksef-stand-in-${hex(8)}.xml`);
    fs.writeFileSync(file, xml);
    execFile('xmllint', ['--nonet', '--noout', '--schema', path.join(VENDOR, 'schemat_FA(3)_v1-0E.xsd'), file], { env: { ...process.env, XML_CATALOG_FILES: path.join(VENDOR, 'catalog.xml') } }, (error, _stdout, stderr) => {
      fs.rmSync(file, { force: true });
      resolve(error ? String(stderr).split('\n').filter((l) => l && !l.endsWith('fails to validate')).map((l) => l.replace(file, 'faktura.xml')).slice(0, 5) : null);
    });
  });
}

/** What KSeF decides about one invoice; the status is shown as 150 until `readyAt`. */
async function judge(session, body) {
  let plain;
  try {
    const encrypted = Buffer.from(body.encryptedInvoiceContent, 'base64');
    if (createHash('sha256').update(encrypted).digest('base64') !== body.encryptedInvoiceHash || encrypted.length !== body.encryptedInvoiceSize) {
      return { code: 430, description: 'Błąd weryfikacji pliku faktury', details: ['Skrót lub rozmiar zaszyfrowanej faktury nie zgadza się z przesłanym plikiem.'] };
    }
    const decipher = createDecipheriv('aes-256-cbc', session.key, session.iv);
    plain = Buffer.concat([decipher.update(encrypted), decipher.final()]);
  } catch {
    return { code: 435, description: 'Błąd odszyfrowania pliku' };
  }
  if (createHash('sha256').update(plain).digest('base64') !== body.invoiceHash || plain.length !== body.invoiceSize) {
    return { code: 430, description: 'Błąd weryfikacji pliku faktury', details: ['Skrót lub rozmiar faktury nie zgadza się z odszyfrowanym plikiem.'] };
  }
  const xml = plain.toString('utf8');
  return { ...(await judgeXml(session, xml, body.hashOfCorrectedInvoice ?? null)), xml };
}

async function judgeXml(session, xml, correctsHash = null) {
  const problems = await validateFa3(xml);
  if (problems) return { code: 430, description: 'Błąd weryfikacji pliku faktury', details: problems };
  const seller = sellerNipOf(xml);
  if (seller !== session.nip) return { code: 410, description: 'Nieprawidłowy zakres uprawnień', details: [`Brak uprawnień do wystawienia faktury sprzedawcy ${seller}.`] };
  const number = field(xml, 'P_2');
  const key = `${seller}|${field(xml, 'RodzajFaktury')}|${number}`;
  const original = state.accepted.get(key);
  if (original) {
    return {
      code: 440,
      description: 'Duplikat faktury',
      details: [`Duplikat faktury. Faktura o numerze KSeF: ${original.ksefNumber} została już prawidłowo przesłana do systemu w sesji: ${original.session}`],
      extensions: { originalSessionReferenceNumber: original.session, originalKsefNumber: original.ksefNumber },
    };
  }
  const buyer = buyerNipOf(xml);
  if (buyer && state.refusedBuyers.has(buyer)) {
    return { code: 450, description: 'Błąd weryfikacji semantyki dokumentu faktury', details: [`Nabywca o numerze NIP ${buyer} nie jest zarejestrowany jako podatnik VAT czynny.`] };
  }
  const ksefNumber = ksefNumberFor(seller);
  // A technical correction of an offline invoice (offline/korekta-techniczna.md) names the file it corrects.
  state.accepted.set(key, { ksefNumber, session: session.reference, number, at: new Date().toISOString(), correctsHash });
  return { code: 200, description: 'Sukces', ksefNumber };
}

function upoOf(session, invoice) {
  return `<?xml version="1.0" encoding="utf-8"?>
<Potwierdzenie xmlns="http://upo.schematy.mf.gov.pl/KSeF/v4-3">
	<NazwaPodmiotuPrzyjmujacego>Ministerstwo Finansów</NazwaPodmiotuPrzyjmujacego>
	<NumerReferencyjnySesji>${session.reference}</NumerReferencyjnySesji>
	<Uwierzytelnienie>
		<IdKontekstu>
			<Nip>${session.nip}</Nip>
		</IdKontekstu>
		<NumerReferencyjnyTokenaKSeF>${session.tokenReference}</NumerReferencyjnyTokenaKSeF>
	</Uwierzytelnienie>
	<NazwaStrukturyLogicznej>Schemat_FA(3)_v1-0E.xsd</NazwaStrukturyLogicznej>
	<KodFormularza>FA (3)</KodFormularza>
	<Dokument>
		<NipSprzedawcy>${session.nip}</NipSprzedawcy>
		<NumerKSeFDokumentu>${invoice.ksefNumber}</NumerKSeFDokumentu>
		<NumerFaktury>${invoice.invoiceNumber}</NumerFaktury>
		<DataWystawieniaFaktury>${invoice.issueDate}</DataWystawieniaFaktury>
		<DataPrzeslaniaDokumentu>${invoice.invoicingDate}</DataPrzeslaniaDokumentu>
		<DataNadaniaNumeruKSeF>${invoice.acquisitionDate}</DataNadaniaNumeruKSeF>
		<SkrotDokumentu>${invoice.invoiceHash}</SkrotDokumentu>
		<TrybWysylki>${invoice.invoicingMode}</TrybWysylki>
	</Dokument>
</Potwierdzenie>
`;
}

function statusOf(invoice) {
  const ready = Date.now() >= invoice.readyAt && invoice.verdict;
  const status = ready ? { code: invoice.verdict.code, description: invoice.verdict.description, ...(invoice.verdict.details ? { details: invoice.verdict.details } : {}), ...(invoice.verdict.extensions ? { extensions: invoice.verdict.extensions } : {}) } : { code: 150, description: 'Trwa przetwarzanie' };
  return {
    ordinalNumber: invoice.ordinalNumber,
    invoiceNumber: invoice.invoiceNumber,
    ...(ready && invoice.verdict.ksefNumber ? { ksefNumber: invoice.verdict.ksefNumber, acquisitionDate: invoice.acquisitionDate, permanentStorageDate: invoice.acquisitionDate } : {}),
    referenceNumber: invoice.reference,
    invoiceHash: invoice.invoiceHash,
    invoicingDate: invoice.invoicingDate,
    invoicingMode: invoice.invoicingMode,
    status,
  };
}

const routes = [
  ['GET', /^\/security\/public-key-certificates$/, 'certificates', (_req, res) => {
    const validFrom = new Date(Date.now() - 86_400_000).toISOString();
    const validTo = new Date(Date.now() + 30 * 86_400_000).toISOString();
    send(res, 200, [
      { certificate: tokenKey.certificate, certificateId: tokenKey.publicKeyId, publicKeyId: tokenKey.publicKeyId, validFrom, validTo, usage: ['KsefTokenEncryption'] },
      { certificate: sessionKey.certificate, certificateId: sessionKey.publicKeyId, publicKeyId: sessionKey.publicKeyId, validFrom, validTo, usage: ['SymmetricKeyEncryption'] },
    ]);
  }],
  ['POST', /^\/auth\/challenge$/, 'challenge', (req, res) => {
    const challenge = `${today()}-CR-${hex(5)}-${hex(5)}-${hex(1)}`;
    const timestampMs = Date.now();
    state.challenges.set(challenge, { timestampMs, expires: timestampMs + 10 * 60_000 });
    send(res, 200, { challenge, timestamp: new Date(timestampMs).toISOString(), timestampMs, clientIp: req.socket.remoteAddress ?? '127.0.0.1' });
  }],
  ['POST', /^\/auth\/ksef-token$/, 'ksef-token', async (req, res) => {
    const body = await readJson(req);
    if (!body || typeof body.challenge !== 'string' || typeof body.encryptedToken !== 'string' || body.contextIdentifier?.type !== 'Nip' || !/^\d{10}$/.test(body.contextIdentifier?.value ?? '')) {
      return exception(res, 400, 21405, 'Błąd walidacji danych wejściowych.', ['challenge, contextIdentifier (Nip) i encryptedToken są wymagane.']);
    }
    const challenge = state.challenges.get(body.challenge);
    if (!challenge || challenge.expires < Date.now()) return exception(res, 400, 21111, 'Nieprawidłowe wyzwanie autoryzacyjne.');
    state.challenges.delete(body.challenge);
    let verdict;
    let tokenReference = null;
    try {
      const text = privateDecrypt({ key: tokenKey.key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(body.encryptedToken, 'base64')).toString('utf8');
      const cut = text.lastIndexOf('|');
      const [token, timestamp] = [text.slice(0, cut), text.slice(cut + 1)];
      tokenReference = tokenAccepted(token, body.contextIdentifier.value);
      verdict =
        Number(timestamp) !== challenge.timestampMs
          ? { code: 450, description: 'Uwierzytelnianie zakończone niepowodzeniem z powodu błędnego tokenu', details: ['Nieprawidłowy czas tokena'] }
          : tokenReference
            ? { code: 200, description: 'Uwierzytelnianie zakończone sukcesem' }
            : { code: 450, description: 'Uwierzytelnianie zakończone niepowodzeniem z powodu błędnego tokenu', details: [state.revoked.has(token) ? 'Token unieważniony' : 'Nieprawidłowy token'] };
    } catch {
      verdict = { code: 450, description: 'Uwierzytelnianie zakończone niepowodzeniem z powodu błędnego tokenu', details: ['Nieprawidłowy token'] };
    }
    const reference = referenceNumber('AU');
    const authenticationToken = { token: `auth-${hex(24)}`, validUntil: new Date(Date.now() + 10 * 60_000).toISOString() };
    state.auths.set(reference, { authenticationToken: authenticationToken.token, nip: body.contextIdentifier.value, tokenReference, verdict, readyAt: Date.now() + AUTH_PENDING_MS, redeemed: false });
    send(res, 202, { referenceNumber: reference, authenticationToken });
  }],
  ['GET', /^\/auth\/([^/]+)$/, 'auth-status', (req, res, [reference]) => {
    const auth = state.auths.get(reference);
    if (!auth) return exception(res, 400, 21304, 'Brak uwierzytelnienia.', [`Operacja uwierzytelniania o numerze referencyjnym ${reference} nie została znaleziona.`]);
    if (bearer(req) !== auth.authenticationToken) return send(res, 401, { title: 'Unauthorized', status: 401, detail: 'Nieprawidłowy token uwierzytelniania.', timestamp: new Date().toISOString() });
    const status = Date.now() < auth.readyAt ? { code: 100, description: 'Uwierzytelnianie w toku' } : auth.verdict;
    send(res, 200, { startDate: new Date(auth.readyAt - AUTH_PENDING_MS).toISOString(), authenticationMethod: 'Token', authenticationMethodInfo: { category: 'Token', code: 'token.ksef', displayName: 'Token KSeF' }, status, isTokenRedeemed: auth.redeemed });
  }],
  ['POST', /^\/auth\/token\/redeem$/, 'redeem', (req, res) => {
    const auth = [...state.auths.values()].find((a) => a.authenticationToken === bearer(req));
    if (!auth) return send(res, 401, { title: 'Unauthorized', status: 401, detail: 'Nieprawidłowy token uwierzytelniania.', timestamp: new Date().toISOString() });
    if (auth.redeemed) return exception(res, 400, 21301, 'Brak autoryzacji.', ['Tokeny dla operacji uwierzytelniania zostały już pobrane.']);
    if (Date.now() < auth.readyAt || auth.verdict.code !== 200) return exception(res, 400, 21301, 'Brak autoryzacji.', [`Status uwierzytelniania (${Date.now() < auth.readyAt ? 100 : auth.verdict.code}) nie pozwala na pobranie tokenów.`]);
    auth.redeemed = true;
    const accessToken = { token: `access-${hex(24)}`, validUntil: new Date(Date.now() + ACCESS_MS).toISOString() };
    const refreshToken = { token: `refresh-${hex(24)}`, validUntil: new Date(Date.now() + REFRESH_MS).toISOString() };
    state.access.set(accessToken.token, { nip: auth.nip, tokenReference: auth.tokenReference, validUntil: Date.now() + ACCESS_MS });
    state.refresh.set(refreshToken.token, { nip: auth.nip, tokenReference: auth.tokenReference, validUntil: Date.now() + REFRESH_MS });
    send(res, 200, { accessToken, refreshToken });
  }],
  ['POST', /^\/auth\/token\/refresh$/, 'refresh', (req, res) => {
    const refresh = state.refresh.get(bearer(req) ?? '');
    if (!refresh || refresh.validUntil < Date.now()) return send(res, 401, { title: 'Unauthorized', status: 401, detail: 'Nieprawidłowy token odświeżający.', timestamp: new Date().toISOString() });
    const accessToken = { token: `access-${hex(24)}`, validUntil: new Date(Date.now() + ACCESS_MS).toISOString() };
    state.access.set(accessToken.token, { ...refresh, validUntil: Date.now() + ACCESS_MS });
    send(res, 200, { accessToken });
  }],
  ['POST', /^\/sessions\/online$/, 'open-session', async (req, res) => {
    const access = accessOf(req, res);
    if (!access) return;
    const body = await readJson(req);
    const form = body?.formCode;
    if (!body || form?.systemCode !== 'FA (3)' || form?.schemaVersion !== '1-0E' || form?.value !== 'FA' || typeof body.encryption?.encryptedSymmetricKey !== 'string' || typeof body.encryption?.initializationVector !== 'string') {
      return exception(res, 400, 21405, 'Błąd walidacji danych wejściowych.', ['formCode FA (3) 1-0E FA i encryption są wymagane.']);
    }
    let key;
    try {
      key = privateDecrypt({ key: sessionKey.key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(body.encryption.encryptedSymmetricKey, 'base64'));
    } catch {
      return exception(res, 400, 21405, 'Błąd walidacji danych wejściowych.', ['Nie udało się odszyfrować klucza symetrycznego.']);
    }
    const iv = Buffer.from(body.encryption.initializationVector, 'base64');
    if (key.length !== 32 || iv.length !== 16) return exception(res, 400, 21405, 'Błąd walidacji danych wejściowych.', ['Klucz musi mieć 256 bitów, a wektor inicjujący 128 bitów.']);
    const reference = referenceNumber('SO');
    const validUntil = new Date(Date.now() + 12 * 60 * 60_000).toISOString();
    state.sessions.set(reference, { reference, nip: access.nip, tokenReference: access.tokenReference, key, iv, invoices: [], closed: false });
    send(res, 201, { referenceNumber: reference, validUntil });
  }],
  ['POST', /^\/sessions\/online\/([^/]+)\/invoices$/, 'send-invoice', async (req, res, [reference]) => {
    const access = accessOf(req, res);
    if (!access) return;
    const session = state.sessions.get(reference);
    if (!session || session.nip !== access.nip) return exception(res, 400, 21405, 'Błąd walidacji danych wejściowych.', [`Sesja ${reference} nie istnieje.`]);
    if (session.closed) return exception(res, 400, 21180, 'Status sesji nie pozwala na wykonanie operacji.', ['Sesja została zamknięta.']);
    const body = await readJson(req);
    const fields = ['invoiceHash', 'encryptedInvoiceHash', 'encryptedInvoiceContent'];
    if (!body || fields.some((f) => typeof body[f] !== 'string') || !Number.isInteger(body.invoiceSize) || !Number.isInteger(body.encryptedInvoiceSize)) {
      return exception(res, 400, 21405, 'Błąd walidacji danych wejściowych.', ['invoiceHash, invoiceSize, encryptedInvoiceHash, encryptedInvoiceSize i encryptedInvoiceContent są wymagane.']);
    }
    // A technical correction goes only as an offline invoice (offline/korekta-techniczna.md).
    if (body.hashOfCorrectedInvoice !== undefined && (typeof body.hashOfCorrectedInvoice !== 'string' || body.offlineMode !== true)) {
      return exception(res, 400, 21405, 'Błąd walidacji danych wejściowych.', ['Korekta techniczna (hashOfCorrectedInvoice) wymaga offlineMode: true.']);
    }
    const invoiceReference = referenceNumber('EE');
    const invoice = {
      reference: invoiceReference,
      ordinalNumber: session.invoices.length + 1,
      invoiceNumber: null,
      invoiceHash: body.invoiceHash,
      invoicingDate: new Date().toISOString(),
      invoicingMode: body.offlineMode ? 'Offline' : 'Online',
      readyAt: Date.now() + PROCESSING_MS,
      verdict: null,
    };
    session.invoices.push(invoiceReference);
    state.invoices.set(invoiceReference, invoice);
    const verdict = await judge(session, body);
    invoice.verdict = verdict;
    invoice.acquisitionDate = new Date().toISOString();
    if (verdict.xml) {
      invoice.invoiceNumber = field(verdict.xml, 'P_2') ?? 'unreadable';
      invoice.issueDate = field(verdict.xml, 'P_1');
      // Issued on an earlier day than it arrived: KSeF marks it offline even when sent as online (automatyczne-okreslanie-trybu-offline.md).
      if ((invoice.issueDate ?? '').replaceAll('-', '') < today()) invoice.invoicingMode = 'Offline';
      delete verdict.xml;
    }
    const sentNumber = invoice.invoiceNumber ?? 'unreadable';
    state.sends[sentNumber] = (state.sends[sentNumber] ?? 0) + 1;
    if (state.mode.mode === 'lose-answer' && state.mode.count > 0) {
      state.mode.count--;
      if (state.mode.count === 0) state.mode = { mode: 'normal', count: Infinity, retryAfter: 1 };
      req.socket.destroy();
      return;
    }
    send(res, 202, { referenceNumber: invoiceReference });
  }],
  ['GET', /^\/sessions\/([^/]+)\/invoices$/, 'session-invoices', (req, res, [reference]) => {
    const access = accessOf(req, res);
    if (!access) return;
    const session = state.sessions.get(reference);
    if (!session || session.nip !== access.nip) return exception(res, 400, 21405, 'Błąd walidacji danych wejściowych.', [`Sesja ${reference} nie istnieje.`]);
    send(res, 200, { invoices: session.invoices.map((r) => statusOf(state.invoices.get(r))) });
  }],
  ['GET', /^\/sessions\/([^/]+)\/invoices\/([^/]+)$/, 'invoice-status', (req, res, [reference, invoiceReference]) => {
    const access = accessOf(req, res);
    if (!access) return;
    const session = state.sessions.get(reference);
    const invoice = state.invoices.get(invoiceReference);
    if (!session || session.nip !== access.nip || !invoice || !session.invoices.includes(invoiceReference)) return exception(res, 400, 21405, 'Błąd walidacji danych wejściowych.', ['Faktura nie istnieje w tej sesji.']);
    send(res, 200, statusOf(invoice));
  }],
  ['GET', /^\/sessions\/([^/]+)\/invoices\/([^/]+)\/upo$/, 'upo', (req, res, [reference, invoiceReference]) => {
    const access = accessOf(req, res);
    if (!access) return;
    const session = state.sessions.get(reference);
    const invoice = state.invoices.get(invoiceReference);
    if (!session || session.nip !== access.nip || !invoice || Date.now() < invoice.readyAt || invoice.verdict?.code !== 200) return exception(res, 400, 21405, 'Błąd walidacji danych wejściowych.', ['UPO dla tej faktury nie istnieje.']);
    send(res, 200, upoOf(session, { ...invoice, ksefNumber: invoice.verdict.ksefNumber }), { 'x-ms-meta-hash': createHash('sha256').update(upoOf(session, { ...invoice, ksefNumber: invoice.verdict.ksefNumber })).digest('base64') });
  }],
  ['GET', /^\/sessions\/([^/]+)\/invoices\/ksef\/([^/]+)\/upo$/, 'upo-by-number', (req, res, [reference, ksefNumber]) => {
    const access = accessOf(req, res);
    if (!access) return;
    const session = state.sessions.get(reference);
    const invoice = session?.invoices.map((r) => state.invoices.get(r)).find((i) => i.verdict?.ksefNumber === ksefNumber && Date.now() >= i.readyAt);
    if (!session || session.nip !== access.nip || !invoice) return exception(res, 400, 21405, 'Błąd walidacji danych wejściowych.', ['UPO dla tej faktury nie istnieje.']);
    send(res, 200, upoOf(session, { ...invoice, ksefNumber }));
  }],
  ['POST', /^\/sessions\/online\/([^/]+)\/close$/, 'close-session', (req, res, [reference]) => {
    const access = accessOf(req, res);
    if (!access) return;
    const session = state.sessions.get(reference);
    if (!session || session.nip !== access.nip) return exception(res, 400, 21405, 'Błąd walidacji danych wejściowych.', [`Sesja ${reference} nie istnieje.`]);
    session.closed = true;
    res.writeHead(204).end();
  }],
];

async function control(req, res, url) {
  if (req.method === 'GET' && url.pathname === '/__requests') return send(res, 200, { requests: state.requests, sends: state.sends });
  if (req.method === 'GET' && url.pathname === '/__invoices') return send(res, 200, [...state.accepted.values()]);
  const body = (await readJson(req)) ?? {};
  if (url.pathname === '/__mode') state.mode = { mode: body.mode ?? 'normal', count: Number.isInteger(body.count) ? body.count : Infinity, retryAfter: Number.isInteger(body.retryAfter) ? body.retryAfter : 1 };
  else if (url.pathname === '/__refuse-buyer') body.nip ? state.refusedBuyers.add(String(body.nip)) : state.refusedBuyers.clear();
  else if (url.pathname === '/__revoke') state.revoked.add(String(body.token));
  else if (url.pathname === '/__reset') reset();
  else return send(res, 404, { error: 'unknown control' });
  send(res, 200, { ok: true });
}

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (url.pathname.startsWith('/__')) return control(req, res, url);
  const pathname = url.pathname.replace(/^\/v2(?=\/)/, '');
  for (const [method, pattern, name, handle] of routes) {
    const match = pattern.exec(pathname);
    if (!match || req.method !== method) continue;
    state.requests[name] = (state.requests[name] ?? 0) + 1;
    const { mode } = state;
    if ((mode.mode === 'rate-limit' || mode.mode === 'maintenance') && mode.count > 0) {
      mode.count--;
      if (mode.count === 0) state.mode = { mode: 'normal', count: Infinity, retryAfter: 1 };
      if (mode.mode === 'rate-limit') return send(res, 429, { status: { code: 429, description: 'Too Many Requests', details: [`Przekroczono limit żądań. Spróbuj ponownie za ${mode.retryAfter} s.`] } }, { 'retry-after': String(mode.retryAfter) });
      return send(res, 503, { title: 'Service Unavailable', status: 503, detail: 'Trwają prace serwisowe.', timestamp: new Date().toISOString() }, { 'retry-after': String(mode.retryAfter) });
    }
    try {
      return await handle(req, res, match.slice(1).map(decodeURIComponent));
    } catch (error) {
      return exception(res, 500, 500, 'Nieznany błąd', [String(error?.message ?? error)]);
    }
  }
  exception(res, 404, 21405, 'Błąd walidacji danych wejściowych.', [`Nieznana ścieżka ${req.method} ${url.pathname}.`]);
});

// Idle connections are kept longer than clients keep them (as KSeF's front end does), so a client never sends on one
// the stand-in has just closed.
server.keepAliveTimeout = 65_000;
const port = Number(process.argv[2] ?? 3940);
server.listen(port, '127.0.0.1', () => console.log(`KSeF stand-in on http://127.0.0.1:${port}`));
