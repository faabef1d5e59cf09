import { randomBytes } from 'node:crypto';

/** Random URL-safe id (128 bits). */
export const newId = () => randomBytes(16).toString('base64url');
