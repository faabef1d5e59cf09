import { createContext, useContext } from 'react';

/** The per-response CSP nonce (server only; browsers hide it after parsing, so the client sees ''). */
export const NonceContext = createContext('');
export const useNonce = () => useContext(NonceContext);
