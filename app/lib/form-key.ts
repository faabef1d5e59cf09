import { createContext, useContext } from 'react';

/**
 * The response's form key (server only; the client sees ''): unique to each response, also one served from
 * the page cache, so a form posted without JavaScript carries a key no other visitor or reload shares.
 */
export const FormKeyContext = createContext('');
export const useFormKey = () => useContext(FormKeyContext);

/** A fresh key for one click: 16 random bytes, base64url (works outside secure contexts too). */
export function newRequestKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
