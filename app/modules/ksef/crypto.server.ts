/**
 * The cryptography KSeF's API asks for (`uwierzytelnianie.md`, `sesja-interaktywna.md`): the KSeF token and
 * each session's symmetric key are encrypted with the Ministry's public key (RSA-OAEP, SHA-256, MGF1 with
 * SHA-256); an invoice is encrypted with AES-256-CBC and PKCS#7 padding under that key and an IV given when the
 * session opens (the OpenAPI description's reading: the IV travels in `encryption.initializationVector`, the
 * invoice as ciphertext alone; docs/decisions/0034). Hashes are SHA-256 in Base64.
 */
import { X509Certificate, constants, createCipheriv, createHash, publicEncrypt, randomBytes, type KeyObject } from 'node:crypto';

/** A public key from the API's certificate list (`certificate`: a DER X.509 certificate in Base64). */
export function publicKeyOf(certificateBase64: string): KeyObject {
  return new X509Certificate(Buffer.from(certificateBase64, 'base64')).publicKey;
}

export function rsaOaepEncrypt(key: KeyObject, data: Buffer): Buffer {
  return publicEncrypt({ key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, data);
}

/** `{token}|{timestampMs}`, encrypted for POST /auth/ksef-token, in Base64. */
export function encryptKsefToken(key: KeyObject, token: string, timestampMs: number): string {
  return rsaOaepEncrypt(key, Buffer.from(`${token}|${timestampMs}`, 'utf8')).toString('base64');
}

export type SessionKey = { key: Buffer; iv: Buffer };

/** A fresh AES-256 key and IV for one session (the API recommends a new key for every session). */
export function newSessionKey(): SessionKey {
  return { key: randomBytes(32), iv: randomBytes(16) };
}

export function aesEncrypt({ key, iv }: SessionKey, data: Buffer): Buffer {
  const cipher = createCipheriv('aes-256-cbc', key, iv);
  return Buffer.concat([cipher.update(data), cipher.final()]);
}

export const sha256Base64 = (data: Buffer | string) => createHash('sha256').update(data).digest('base64');
export const sha256Base64Url = (data: Buffer | string) => createHash('sha256').update(data).digest('base64url');

/** What POST /sessions/online/{ref}/invoices carries for one invoice: its file encrypted, both hashed and sized. */
export function encryptedInvoice(session: SessionKey, xml: string): { invoiceHash: string; invoiceSize: number; encryptedInvoiceHash: string; encryptedInvoiceSize: number; encryptedInvoiceContent: string } {
  const plain = Buffer.from(xml, 'utf8');
  const encrypted = aesEncrypt(session, plain);
  return {
    invoiceHash: sha256Base64(plain),
    invoiceSize: plain.length,
    encryptedInvoiceHash: sha256Base64(encrypted),
    encryptedInvoiceSize: encrypted.length,
    encryptedInvoiceContent: encrypted.toString('base64'),
  };
}
