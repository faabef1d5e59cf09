/**
 * The verification links an invoice shown outside KSeF carries as QR codes (`kody-qr.md`).
 * KOD I, on every one: `{base}/invoice/{seller's NIP}/{issue date DD-MM-YYYY}/{SHA-256 of the invoice's XML file,
 * Base64URL}`, with the KSeF number printed under it, or "OFFLINE" while the invoice has none.
 * KOD II, on one handed over before KSeF numbered it (offline): `{base}/certificate/Nip/{context NIP}/{seller's NIP}/
 * {certificate serial}/{hash}/{signature}`, the signature over everything before it without `https://`, and
 * "CERTYFIKAT" printed under it.
 */
import { createHash } from 'node:crypto';

export type KsefEnvironment = 'test' | 'demo' | 'production';

export const QR_BASE: Record<KsefEnvironment, string> = {
  test: 'https://qr-test.ksef.mf.gov.pl',
  demo: 'https://qr-demo.ksef.mf.gov.pl',
  production: 'https://qr.ksef.mf.gov.pl',
};

/** `issueDate` is the invoice's P_1 (YYYY-MM-DD); `xml` the file exactly as sent to KSeF. */
export function invoiceVerificationUrl(base: string, sellerNip: string, issueDate: string, xml: string | Buffer): string {
  return verificationUrlOf(base, sellerNip, issueDate, createHash('sha256').update(xml).digest('base64url'));
}

export function verificationUrlOf(base: string, sellerNip: string, issueDate: string, hashBase64Url: string): string {
  const [year, month, day] = issueDate.split('-');
  return `${base.replace(/\/+$/, '')}/invoice/${sellerNip}/${day}-${month}-${year}/${hashBase64Url}`;
}

/** The label printed under the code. */
export const qrLabel = (ksefNumber: string | null) => ksefNumber ?? 'OFFLINE';

/** The label printed under KOD II. */
export const CERTIFICATE_QR_LABEL = 'CERTYFIKAT';

/** KOD II: `sign` signs the link's path as kody-qr.md says (no `https://`, no trailing slash) and returns Base64URL. */
export function certificateVerificationUrl(
  base: string,
  input: { contextNip: string; sellerNip: string; serialNumber: string; hashBase64Url: string },
  sign: (data: string) => string,
): string {
  const link = `${base.replace(/\/+$/, '')}/certificate/Nip/${input.contextNip}/${input.sellerNip}/${input.serialNumber}/${input.hashBase64Url}`;
  const signed = link.replace(/^https?:\/\//, '');
  return `${link}/${sign(signed)}`;
}
