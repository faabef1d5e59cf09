import { useEffect, useState } from 'react';
import { useNavigation } from 'react-router';
import { useT } from '~/modules/i18n/react';

/** How long a navigation may take before the bar shows: quick ones should not flicker. */
export const PROGRESS_DELAY_MS = 250;

/**
 * A thin bar across the top of the window, and a polite "Loading…" for screen readers, while a client-side
 * navigation or a form submission (React Router's navigation state) takes longer than a moment.
 */
export function NavigationProgress() {
  const t = useT();
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle';
  const [shown, setShown] = useState(false);

  useEffect(() => {
    if (!busy) {
      setShown(false);
      return;
    }
    const timer = setTimeout(() => setShown(true), PROGRESS_DELAY_MS);
    return () => clearTimeout(timer);
  }, [busy]);

  return (
    <>
      <div
        aria-hidden="true"
        data-testid="navigation-progress"
        data-state={shown ? 'loading' : 'idle'}
        className={`pointer-events-none fixed inset-x-0 top-0 z-[60] h-1 overflow-hidden transition-opacity duration-200 ${shown ? 'opacity-100' : 'opacity-0'}`}
      >
        {shown && <div className="animate-progress h-full w-1/3 rounded-r-full bg-leaf motion-reduce:w-full motion-reduce:animate-none" />}
      </div>
      <p aria-live="polite" className="sr-only" data-testid="navigation-announcer">
        {shown ? t('nav.loading') : ''}
      </p>
    </>
  );
}
