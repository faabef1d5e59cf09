import { X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';

const DISMISSED = 'languageSuggestionDismissed';

/**
 * On the English home page, a visitor who chose Polish before (the `language` key in local storage, kept with
 * the `lang` cookie) or whose browser asks for Polish is offered the Polish page. Only offered: the URL a
 * visitor or a crawler asked for is what they get. The offer is in Polish, for the reader it is meant for,
 * and runs in the browser, so the English page stays one cacheable page for everyone.
 */
export function LanguageSuggestion() {
  const [show, setShow] = useState(false);
  useEffect(() => {
    try {
      if (localStorage.getItem(DISMISSED)) return;
      const stored = localStorage.getItem('language');
      const browser = navigator.languages?.[0] ?? navigator.language ?? '';
      setShow(stored === 'pl' || (!stored && /^pl\b/i.test(browser)));
    } catch {
      // Storage may be unavailable; then there is nothing to go on.
    }
  }, []);
  if (!show) return null;
  const dismiss = () => {
    setShow(false);
    try {
      localStorage.setItem(DISMISSED, '1');
    } catch {
      // Not remembered, only hidden.
    }
  };
  return (
    <aside lang="pl" aria-label="Język" className="border-b border-sand bg-paper" data-testid="language-suggestion">
      <div className="container-page flex items-center gap-3 py-2 text-sm">
        <p className="flex-1 text-roast-600">
          Ta strona jest dostępna także po polsku.{' '}
          <Link to="/pl" className="font-semibold text-leaf underline underline-offset-4">
            Przejdź do polskiej wersji
          </Link>
        </p>
        <button type="button" onClick={dismiss} className="btn-ghost px-2" aria-label="Zamknij">
          <X aria-hidden="true" className="h-4 w-4" />
        </button>
      </div>
    </aside>
  );
}
