/**
 * The owner's offline KSeF certificate (`certyfikaty-KSeF.md`, type Offline), which signs KOD II: the second QR code an
 * invoice handed to its buyer before KSeF has numbered it must carry (`kody-qr.md`, `tryby-offline.md`). The key signs
 * the link as the Ministry describes it: RSASSA-PSS with SHA-256, MGF1 SHA-256 and a 32-byte salt for an RSA key (at
 * least 2048 bits), ECDSA P-256 with SHA-256 in IEEE P1363 form (r ‖ s) for an EC key; the signature in Base64URL.
 */
import { type KeyObject, X509Certificate, constants, createPrivateKey, sign } from 'node:crypto';

export type OfflineCertificate = {
  /** The certificate's serial number in hexadecimal, as KOD II names it. */
  serialNumber: string;
  validFrom: Date;
  validTo: Date;
  /** Base64URL signature of `data` (the link without `https://`). */
  sign(data: string): string;
};

/**
 * A PEM text (its line breaks possibly written as `\n`, as an environment variable often has them), or the path of
 * a file holding one. A read that fails is said by its code alone: the value may be key material given without its
 * PEM lines, and must never reach a message.
 */
function pemOf(variable: string, value: string, read: (file: string) => string): string {
  if (value.includes('-----BEGIN')) return value.replace(/\\n/g, '\n');
  try {
    return read(value);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new Error(`${variable} is neither a PEM text (-----BEGIN …) nor a file that can be read (${code})`);
  }
}

/**
 * Reads the certificate and its private key (PEM, given as text or as file paths). Throws an Error whose message says
 * plainly what is wrong: a file that cannot be read, a key that is not the certificate's, a key KSeF does not accept.
 */
export function readOfflineCertificate(input: { certificate: string; key: string; passphrase?: string }, read: (file: string) => string): OfflineCertificate {
  const certificatePem = pemOf('KSEF_OFFLINE_CERTIFICATE', input.certificate, read);
  const keyPem = pemOf('KSEF_OFFLINE_KEY', input.key, read);
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(certificatePem);
  } catch {
    throw new Error('KSEF_OFFLINE_CERTIFICATE is not a readable PEM certificate');
  }
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: keyPem, passphrase: input.passphrase });
  } catch {
    // OpenSSL's own words may quote what it read: not repeated.
    throw new Error(`KSEF_OFFLINE_KEY is not a readable PEM private key${input.passphrase ? ' (or KSEF_OFFLINE_KEY_PASSPHRASE is not its passphrase)' : ' (an encrypted one needs KSEF_OFFLINE_KEY_PASSPHRASE)'}`);
  }
  if (!certificate.checkPrivateKey(key)) throw new Error('KSEF_OFFLINE_KEY is not the private key of KSEF_OFFLINE_CERTIFICATE');
  const details = key.asymmetricKeyDetails ?? {};
  const signer =
    key.asymmetricKeyType === 'rsa' && (details.modulusLength ?? 0) >= 2048
      ? (data: string) => sign('sha256', Buffer.from(data), { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 })
      : key.asymmetricKeyType === 'ec' && details.namedCurve === 'prime256v1'
        ? (data: string) => sign('sha256', Buffer.from(data), { key, dsaEncoding: 'ieee-p1363' })
        : null;
  if (!signer) throw new Error('KSEF_OFFLINE_KEY must be an RSA key of at least 2048 bits or an EC key on the P-256 curve (what KSeF issues offline certificates for)');
  return {
    // OpenSSL's hexadecimal (whole bytes, upper case), as KSeF lists a certificate's serial number.
    serialNumber: certificate.serialNumber.toUpperCase(),
    validFrom: new Date(certificate.validFrom),
    validTo: new Date(certificate.validTo),
    sign: (data) => signer(data).toString('base64url'),
  };
}

/** Whether KOD II may be signed with it now (a certificate not yet valid or expired verifies nothing). */
export const certificateValidAt = (certificate: OfflineCertificate, at: Date) => certificate.validFrom <= at && at < certificate.validTo;
