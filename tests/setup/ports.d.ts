export function e2ePorts(shop: number): { shop: number; oidc: number; ksef: number; smtp: number; nbp: number; shipx: number; inpost: number };
export function portOf(baseURL: string): number;
export function e2eDataDirOf(shop: number): string;
