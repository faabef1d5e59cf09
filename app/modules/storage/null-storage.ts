import type { Storage } from './storage.server';

/** A storage that keeps nothing and names URLs like the local one: for tests and benchmarks of code that only reads image URLs. */
export const nullStorage: Storage = {
  description: 'no storage',
  check: async () => {},
  put: async () => {},
  get: async () => null,
  exists: async () => false,
  delete: async () => {},
  url: (key) => `/images/${key}`,
};
