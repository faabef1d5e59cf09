import { Menu } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { headerAdminLinks } from '~/components/admin/header-admin-links';
import { useI18n } from '~/modules/i18n/react';
import { CurrencySwitch } from './currency-switch';
import { type HeaderUser, LogoutButton, navLinks } from './header-parts';

const CONTROLS = 'a[href], button, input, select, textarea, summary';

const itemClass = ({ isActive }: { isActive: boolean }) =>
  `flex items-center gap-2 rounded-xl px-3 py-2.5 font-medium whitespace-nowrap hover:bg-sand/60 ${isActive ? 'bg-sand/70 text-roast shadow-[inset_3px_0_0_var(--color-leaf)]' : ''}`;

/**
 * The navigation below the `lg` width, on a native <details> so it opens without JavaScript. With it, the
 * menu closes when a link is followed, on Escape and on a tap outside it; Escape and the outside tap give
 * focus back to the menu button. The current page is marked (NavLink's aria-current="page").
 */
export function MobileMenu({ user, here }: { user: HeaderUser; here: string }) {
  const { t, path } = useI18n();
  const details = useRef<HTMLDetailsElement>(null);
  const [open, setOpen] = useState(false);
  const location = useLocation();

  const close = (returnFocus: boolean) => {
    const element = details.current;
    if (!element?.open) return;
    element.open = false;
    if (returnFocus) element.querySelector('summary')?.focus();
  };

  // A followed link (or any navigation, the back button included) closes the menu.
  useEffect(() => close(false), [location.key]);

  // A click or tap outside closes it (on `click`, after the browser has moved focus).
  useEffect(() => {
    if (!open) return;
    const onClick = (event: MouseEvent) => {
      if (details.current?.contains(event.target as Node)) return;
      // A tap on a control keeps its focus; on anything else (the page, a text, <main>) focus comes back.
      close(!document.activeElement?.matches(CONTROLS));
    };
    document.addEventListener('click', onClick);
    return () => document.removeEventListener('click', onClick);
  }, [open]);

  return (
    <details
      ref={details}
      className="group relative lg:hidden"
      data-testid="mobile-menu"
      onToggle={(event) => setOpen(event.currentTarget.open)}
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !details.current?.open) return;
        event.preventDefault();
        close(true);
      }}
    >
      <summary
        className="btn-ghost cursor-pointer list-none px-2.5 group-open:bg-roast/5 [&::-webkit-details-marker]:hidden"
        aria-label={t('nav.menu')}
      >
        <Menu aria-hidden="true" className="h-5 w-5" />
      </summary>
      <nav
        aria-label={t('nav.main')}
        className="absolute top-12 left-0 max-h-[calc(100dvh-5rem)] w-72 max-w-[calc(100vw-2rem)] overflow-y-auto rounded-2xl border border-sand bg-paper p-3 shadow-xl"
      >
        <ul className="flex flex-col gap-0.5">
          {navLinks.map((link) => (
            <li key={link.to}>
              <NavLink to={path(link.to)} end={link.end} className={itemClass}>
                {t(link.key)}
              </NavLink>
            </li>
          ))}
          {user?.isAdmin &&
            headerAdminLinks.map(({ to, key, Icon, end }, i) => (
              <li key={to} className={i === 0 ? 'mt-2 border-t border-sand pt-2' : undefined}>
                <NavLink to={to} end={end} className={itemClass}>
                  <Icon aria-hidden="true" className="h-4 w-4 text-leaf" />
                  {t(key)}
                </NavLink>
              </li>
            ))}
          <li className="mt-2 flex items-center justify-between gap-3 border-t border-sand px-3 pt-3 sm:hidden">
            <span className="text-sm text-muted" aria-hidden="true">{t('currency.label')}</span>
            <CurrencySwitch here={here} />
          </li>
          <li className="mt-2 border-t border-sand pt-3">
            {user && (
              <p className="mb-2 truncate px-3 text-sm text-muted" data-testid="menu-greeting">
                {t('nav.greeting', { name: user.displayName })}
              </p>
            )}
            <div className="flex gap-2">
              {user ? (
                <>
                  <Link to={path('/profile')} className="btn-outline flex-1 px-3 whitespace-nowrap">
                    {t('nav.profile')}
                  </Link>
                  <LogoutButton className="btn-primary flex-1 px-3 whitespace-nowrap" />
                </>
              ) : (
                <>
                  <Link to={path(`/auth?redirectTo=${encodeURIComponent(here)}`)} className="btn-outline flex-1 px-3 whitespace-nowrap">
                    {t('nav.login')}
                  </Link>
                  <Link to={path('/auth?mode=signup')} className="btn-primary flex-1 px-3 whitespace-nowrap">
                    {t('nav.signup')}
                  </Link>
                </>
              )}
            </div>
          </li>
        </ul>
      </nav>
    </details>
  );
}
