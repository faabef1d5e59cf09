/**
 * Tokens and session keys KSeF gave the shop are kept in the database for every node, sealed with AES-256-GCM
 * under a key derived (HKDF) from the owner's KSeF token, which only the nodes' configuration holds: the database
 * alone does not reveal them, and a new KSeF token makes the old ones unreadable, so the shop authenticates afresh.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

export type Sealer = { seal: (text: string) => string; open: (sealed: string | null) => string | null };

export function createSealer(ksefToken: string): Sealer {
  const key = Buffer.from(hkdfSync('sha256', ksefToken, 'kopi', 'ksef stored credentials', 32));
  return {
    seal(text) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
      return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
    },
    open(sealed) {
      if (!sealed) return null;
      try {
        const [iv, tag, body] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
        const decipher = createDecipheriv('aes-256-gcm', key, iv!);
        decipher.setAuthTag(tag!);
        return Buffer.concat([decipher.update(body!), decipher.final()]).toString('utf8');
      } catch {
        return null; // sealed under another KSeF token: authenticate again
      }
    },
  };
}
