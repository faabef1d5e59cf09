/**
 * An in-process counter bumped on every catalogue write: a cached page built at version N is stale once
 * the version has moved on. Writers bump it after their transaction commits (see catalog.server.ts), and
 * bump the stored version (`catalog_state`) inside it, which every node watches (`watchCatalogVersion`), so a
 * change made on one node empties the page caches of all of them.
 */
import type { Executor } from '~/db/database.server';

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

let changeAt: number | null = null;

/**
 * Marks the catalogue changed here when the clock reaches `at` (ms): a sale's start or end changes prices without
 * anyone writing anything, and each node's watcher checks the clock on its every tick.
 */
export function changeCatalogAt(at: number): void {
  if (changeAt === null || at < changeAt) changeAt = at;
}

/** Marks the catalogue changed if a moment given to changeCatalogAt has come. */
export function checkCatalogClock(now = Date.now()): void {
  if (changeAt !== null && now >= changeAt) {
    changeAt = null;
    markCatalogChanged();
  }
}

/** Bumps the version every node watches; call it inside the catalogue write's transaction. */
export async function bumpStoredCatalogVersion(db: Executor): Promise<void> {
  await db.updateTable('catalog_state').set((eb) => ({ version: eb('version', '+', 1) })).where('id', '=', 1).execute();
}

export async function storedCatalogVersion(db: Executor): Promise<number> {
  const row = await db.selectFrom('catalog_state').select('version').where('id', '=', 1).executeTakeFirst();
  return Number(row?.version ?? 0);
}

/**
 * Polls the stored version every `intervalMs` (one indexed one-row read) and marks the catalogue changed
 * here when another node changed it. Returns the function that stops watching.
 */
export function watchCatalogVersion(db: Executor, { intervalMs = 500, onError }: { intervalMs?: number; onError?: (error: unknown) => void } = {}): () => void {
  let seen: number | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const tick = async () => {
    checkCatalogClock();
    try {
      const current = await storedCatalogVersion(db);
      if (seen !== null && current !== seen) markCatalogChanged();
      seen = current;
    } catch (error) {
      onError?.(error);
    }
    if (!stopped) {
      timer = setTimeout(tick, intervalMs);
      timer.unref();
    }
  };
  void tick();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
