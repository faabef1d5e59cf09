import { useEffect, useRef, useState } from 'react';
import { useNavigate, useRevalidator } from 'react-router';
import { useT } from '~/modules/i18n/react';

type PopupMessage = { type: 'kopi-auth'; ok: boolean; reason?: 'cancelled' | 'failed' | 'disabled'; redirectTo?: string };

/**
 * "Continue with Google": a popup with the provider's account chooser. A closed popup reports a
 * cancellation; a blocked one falls back to a full-page redirect; without JavaScript it is a plain link.
 */
export function GoogleButton({ redirectTo }: { redirectTo: string }) {
  const t = useT();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [error, setError] = useState<string | null>(null);
  const popupRef = useRef<Window | null>(null);
  const href = `/auth/google?redirectTo=${encodeURIComponent(redirectTo)}`;

  useEffect(() => {
    const onMessage = (event: MessageEvent<PopupMessage>) => {
      if (event.origin !== window.location.origin || event.data?.type !== 'kopi-auth') return;
      popupRef.current = null;
      if (event.data.ok) {
        revalidator.revalidate();
        navigate(event.data.redirectTo ?? '/', { replace: true });
      } else {
        setError(t(event.data.reason === 'cancelled' ? 'auth.errors.googleCancelled' : event.data.reason === 'disabled' ? 'auth.errors.disabled' : 'auth.errors.googleFailed'));
      }
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [navigate, revalidator, t]);

  const open = (event: React.MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    setError(null);
    const width = 480;
    const height = 640;
    const left = window.screenX + (window.outerWidth - width) / 2;
    const top = window.screenY + (window.outerHeight - height) / 2;
    const popup = window.open(`${href}&popup=1`, 'kopi-google', `popup,width=${width},height=${height},left=${left},top=${top}`);
    if (!popup) {
      setError(t('auth.errors.googleBlocked'));
      window.location.assign(href);
      return;
    }
    popupRef.current = popup;
    const watch = setInterval(() => {
      if (!popupRef.current) return clearInterval(watch);
      if (popupRef.current.closed) {
        clearInterval(watch);
        popupRef.current = null;
        setError(t('auth.errors.googleCancelled'));
      }
    }, 400);
  };

  return (
    <div>
      <a href={href} onClick={open} className="btn-outline w-full py-3 text-base">
        <svg viewBox="0 0 24 24" aria-hidden="true" className="h-5 w-5">
          <path fill="#EA4335" d="M12 10.2v3.9h5.5c-.2 1.3-1.6 3.8-5.5 3.8-3.3 0-6-2.7-6-6.1s2.7-6.1 6-6.1c1.9 0 3.2.8 3.9 1.5l2.7-2.6C16.9 3 14.7 2 12 2 6.5 2 2 6.5 2 12s4.5 10 10 10c5.8 0 9.6-4.1 9.6-9.8 0-.7-.1-1.2-.2-1.7H12z" />
        </svg>
        {t('auth.google')}
      </a>
      <p role="alert" className={error ? 'field-error' : 'sr-only'}>
        {error ?? ''}
      </p>
    </div>
  );
}
