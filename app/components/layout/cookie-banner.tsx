import { useEffect, useRef, useState } from 'react';
import { chooseCookies, readConsent, track } from '~/lib/analytics';
import { focusQuietly } from '~/lib/navigation-focus';
import { useT } from '~/modules/i18n/react';
import { LegalSentence } from '~/components/legal/legal-sentence';

export const COOKIE_BANNER_DELAY_MS = 1000;

/** The window event that reopens the banner (the footer's "Cookie settings"). */
const SETTINGS_EVENT = 'kopi:cookie-settings';
export const openCookieSettings = () => window.dispatchEvent(new Event(SETTINGS_EVENT));

/** Reopened from "Cookie settings": the choice it shows, and where focus goes back when it closes. */
type Settings = { current: boolean | null; opener: HTMLElement | null };

/**
 * Appears 1 s after load when no choice is stored (the choice is kept under `cookiesAccepted`), and again, with
 * the current choice, whenever "Cookie settings" asks for it; Escape then closes it unchanged.
 */
export function CookieBanner() {
  const t = useT();
  const [open, setOpen] = useState(false);
  const [settings, setSettings] = useState<Settings | null>(null);
  const firstButton = useRef<HTMLButtonElement>(null);
  const bottomBar = useBottomBarHeight(open);

  useEffect(() => {
    const reopen = () => {
      const active = document.activeElement;
      setSettings({ current: readConsent(), opener: active instanceof HTMLElement && active !== document.body ? active : null });
      setOpen(true);
    };
    window.addEventListener(SETTINGS_EVENT, reopen);
    // Asked again when the timer fires: a choice may have been made meanwhile through "Cookie settings".
    const timer = readConsent() === null ? setTimeout(() => readConsent() === null && setOpen(true), COOKIE_BANNER_DELAY_MS) : undefined;
    return () => {
      clearTimeout(timer);
      window.removeEventListener(SETTINGS_EVENT, reopen);
    };
  }, []);

  useEffect(() => {
    if (settings) firstButton.current?.focus();
  }, [settings]);

  if (!open) return null;
  const close = () => {
    // The banner goes away with the focused button: focus goes back to "Cookie settings" when that opened it;
    // otherwise the Tab order carries on where it was, at the header.
    const opener = settings?.opener?.isConnected ? settings.opener : null;
    focusQuietly(opener ?? [...document.querySelectorAll<HTMLElement>('header summary, header a[href]')].find((el) => el.offsetParent !== null));
    setSettings(null);
    setOpen(false);
  };
  const choose = (accepted: boolean) => {
    chooseCookies(accepted);
    if (accepted) {
      track('cookie_consent', { consent_given: true });
      track('page_view', { page_path: window.location.pathname });
    }
    close();
  };

  return (
    <section
      aria-label={t('cookies.label')}
      data-testid="cookie-banner"
      onKeyDown={(event) => {
        if (event.key === 'Escape' && settings) close();
      }}
      style={bottomBar ? { bottom: `calc(${bottomBar}px + 0.5rem)` } : undefined}
      className="animate-slide-up fixed inset-x-2 bottom-2 z-50 mx-auto max-w-3xl rounded-2xl border border-sand bg-paper p-4 shadow-2xl sm:inset-x-6 sm:bottom-6 sm:flex sm:items-center sm:gap-6 sm:p-5"
    >
      <div className="flex-1">
        <h2 className="hidden text-lg font-semibold sm:block">{t('cookies.title')}</h2>
        <p className="text-sm leading-snug text-muted sm:mt-1 sm:leading-relaxed">
          {t('cookies.text')} <LegalSentence name="cookies" links={{ cookies: 'cookies', privacy: 'privacy' }} inline />
        </p>
        {settings && settings.current !== null && (
          <p className="mt-1 text-sm font-semibold">{t(settings.current ? 'cookies.nowAccepted' : 'cookies.nowDeclined')}</p>
        )}
      </div>
      <div className="mt-3 flex shrink-0 gap-2 sm:mt-0">
        <button ref={firstButton} type="button" className="btn-outline flex-1 sm:flex-none" onClick={() => choose(false)}>
          {t('cookies.decline')}
        </button>
        <button type="button" className="btn-leaf flex-1 sm:flex-none" onClick={() => choose(true)}>
          {t('cookies.accept')}
        </button>
      </div>
    </section>
  );
}

/**
 * The height of a bar fixed to the foot of the screen (the product page's buy bar, `data-bottom-bar`) while it
 * shows, so the banner can sit above it rather than over the price and the button.
 */
function useBottomBarHeight(active: boolean): number {
  const [height, setHeight] = useState(0);
  useEffect(() => {
    const bar = active ? document.querySelector<HTMLElement>('[data-bottom-bar]') : null;
    if (!bar || typeof ResizeObserver === 'undefined') return;
    // A hidden bar (`hidden`, or `lg:hidden` on a wide screen) measures 0.
    const observer = new ResizeObserver(() => setHeight(bar.offsetHeight));
    observer.observe(bar);
    return () => observer.disconnect();
  }, [active]);
  return height;
}
