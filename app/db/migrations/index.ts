import type { Migration } from 'kysely';
import * as storefront from './0001-storefront';

/** Migrations are registered in code (not read from disk) so they run the same under Vite, Vitest and tsx. */
export const migrations: Record<string, Migration> = {
  '0001-storefront': storefront,
};
