/**
 * KOD I, the verification link every invoice shown outside KSeF carries as a QR code (`kody-qr.md`):
 * `{base}/invoice/{seller's NIP}/{issue date DD-MM-YYYY}/{SHA-256 of the invoice's XML file, Base64URL}`, with the
 * KSeF number printed under it, or "OFFLINE" while the invoice has none.
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
