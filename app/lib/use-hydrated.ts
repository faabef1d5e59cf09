import { startTransition, useEffect, useState } from 'react';

/** Set once the page's first hydration has committed; later mounts (client navigations) start as hydrated. */
let pageHydrated = false;

/**
 * false during the server render and hydration, true afterwards. The switch is a transition, so React
 * renders it in small slices after hydration instead of one synchronous pass over every caller (which is
 * what a `useSyncExternalStore` with a different server snapshot forces, and what blocked the main thread).
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(pageHydrated);
  useEffect(() => {
    pageHydrated = true;
    if (!hydrated) startTransition(() => setHydrated(true));
  }, [hydrated]);
  return hydrated;
}
