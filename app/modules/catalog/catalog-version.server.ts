/**
 * An in-process counter bumped on every catalogue write: a cached page built at version N is stale once
 * the version has moved on. Writers bump it after their transaction commits (see catalog.server.ts).
 */
let version = 0;
const listeners = new Set<(version: number) => void>();

export function catalogVersion(): number {
  return version;
}

export function markCatalogChanged(): void {
  version += 1;
  for (const listener of listeners) listener(version);
}

/** Calls `listener` after every catalogue change; returns the unsubscribe function. */
export function onCatalogChange(listener: (version: number) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
