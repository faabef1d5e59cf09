import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';

/** Focuses `element` for a keyboard or screen-reader user without scrolling the page by it. */
export function focusQuietly(element: HTMLElement | null | undefined): void {
  if (!element) return;
  if (!element.matches('a[href], button, input, select, textarea, summary, [tabindex]')) element.setAttribute('tabindex', '-1');
  element.focus({ preventScroll: true });
}

/**
 * Takes the reader to a message that just appeared (a confirmation, a refusal): focused, and scrolled to the
 * middle of the screen, clear of the sticky header, however far down the page the button that caused it was.
 */
export function revealMessage(element: HTMLElement | null | undefined): void {
  if (!element) return;
  focusQuietly(element);
  const smooth = !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  element.scrollIntoView({ block: 'center', behavior: smooth ? 'smooth' : 'auto' });
}

/** The page's main heading, where focus goes after a navigation. */
export const mainHeading = (): HTMLElement | null => document.querySelector<HTMLElement>('#main h1') ?? document.getElementById('main');

/**
 * After a client-side navigation, focus goes where a reader of the new page starts, and the new page's
 * title is announced politely (returned for a live region):
 * - a new page (another path): its main heading;
 * - "Load more" (the same page, a hash `#item-N`): the first new card's link;
 * - the same page with another query (a filter, a sort, a search): focus stays on the control that asked
 *   for it, unless that control is gone, when the heading takes it.
 * The first page load is left alone (the browser and the skip link handle it).
 */
export function useNavigationFocus(): string {
  const location = useLocation();
  const previous = useRef(location);
  const [announcement, setAnnouncement] = useState('');

  useEffect(() => {
    const before = previous.current;
    previous.current = location;
    if (before.key === location.key) return;
    if (before.pathname !== location.pathname) {
      focusQuietly(mainHeading());
      setAnnouncement(document.title);
      return;
    }
    const item = /^#item-\d+$/.test(location.hash) ? document.querySelector(location.hash) : null;
    if (item) {
      focusQuietly(item.querySelector<HTMLElement>('h3 a, a[href]'));
      return;
    }
    const active = document.activeElement;
    if (!active || active === document.body) focusQuietly(mainHeading());
  }, [location]);

  return announcement;
}

/** A visually hidden live region that reads the new page's title after a client-side navigation. */
export function RouteAnnouncer({ text }: { text: string }) {
  return (
    <p aria-live="polite" aria-atomic="true" className="sr-only" data-testid="route-announcer">
      {text}
    </p>
  );
}
