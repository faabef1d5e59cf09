import { createHash, randomBytes } from 'node:crypto';

/** A fresh secret for a cookie or a link: 32 random bytes, base64url (43 characters). */
export const newSecretToken = () => randomBytes(32).toString('base64url');

/** Tokens are stored only as their SHA-256 (hex), so a copy of the database cannot be used to sign in. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export const tokenPattern = /^[A-Za-z0-9_-]{43}$/;

/** Lower-cased and trimmed: the form in which emails are stored and compared. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();
