import { useEffect, useState } from 'react';
import { readConsent, storeConsent, track } from '~/lib/analytics';
import { focusQuietly } from '~/lib/navigation-focus';
import { useT } from '~/modules/i18n/react';
import { LegalSentence } from '~/components/legal/legal-sentence';

export const COOKIE_BANNER_DELAY_MS = 1000;

/** Appears 1 s after load when no choice is stored; the choice is kept under `cookiesAccepted`. */
export function CookieBanner() {
  const t = useT();
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (readConsent() !== null) return;
    const timer = setTimeout(() => setOpen(true), COOKIE_BANNER_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);

  if (!open) return null;
  const choose = (accepted: boolean) => {
    storeConsent(accepted);
    // The banner goes away with the focused button: the Tab order carries on where it was, at the header.
    focusQuietly([...document.querySelectorAll<HTMLElement>('header summary, header a[href]')].find((el) => el.offsetParent !== null));
    if (accepted) {
      track('cookie_consent', { consent_given: true });
      track('page_view', { page_path: window.location.pathname });
    }
    setOpen(false);
  };

  return (
    <section
      aria-label={t('cookies.label')}
      className="animate-slide-up fixed inset-x-3 bottom-3 z-50 mx-auto max-w-3xl rounded-2xl border border-sand bg-paper p-5 shadow-2xl sm:inset-x-6 sm:bottom-6 sm:flex sm:items-center sm:gap-6"
    >
      <div className="flex-1">
        <h2 className="text-lg font-semibold">{t('cookies.title')}</h2>
        <p className="mt-1 text-sm leading-relaxed text-muted">{t('cookies.text')}</p>
        <LegalSentence name="cookies" links={{ cookies: 'cookies', privacy: 'privacy' }} className="mt-1 text-sm leading-relaxed text-muted" />
      </div>
      <div className="mt-4 flex shrink-0 gap-2 sm:mt-0">
        <button type="button" className="btn-outline" onClick={() => choose(false)}>
          {t('cookies.decline')}
        </button>
        <button type="button" className="btn-leaf" onClick={() => choose(true)}>
          {t('cookies.accept')}
        </button>
      </div>
    </section>
  );
}
