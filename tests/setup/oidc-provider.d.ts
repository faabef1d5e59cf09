import type http from 'node:http';

export const OIDC_CLIENT_ID: string;
export const OIDC_CLIENT_SECRET: string;
export function claimsFor(login: string): { sub: string; email: string; email_verified: boolean; name: string };
export function startOidcProvider(options: { port: number; redirectUri: string }): Promise<{ issuer: string; server: http.Server }>;
