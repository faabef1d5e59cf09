import { Globe, LogOut, Menu, ShoppingBag, UserRound } from 'lucide-react';
import { Form, Link, NavLink, useFetchers, useLocation } from 'react-router';
import { headerAdminLinks } from '~/components/admin/admin-links';
import { counterpartPath } from '~/modules/i18n/paths';
import { useI18n } from '~/modules/i18n/react';
import { Logo } from './logo';

const navLinks = [
  { to: '/', key: 'nav.home', end: true },
  { to: '/categories', key: 'nav.categories', end: false },
  { to: '/about', key: 'nav.about', end: false },
  { to: '/contact', key: 'nav.contact', end: false },
] as const;

export type HeaderUser = { displayName: string; isAdmin: boolean } | null;

export function SiteHeader({ cartCount, user }: { cartCount: number; user: HeaderUser }) {
  const { t, locale, path } = useI18n();
  const location = useLocation();
  const count = cartCount + usePendingAdds(path('/cart'));
  const other = locale === 'en' ? 'pl' : 'en';
  const here = location.pathname + location.search;
  const navClass = ({ isActive }: { isActive: boolean }) =>
    `rounded-full px-3 py-2 text-sm font-medium transition-colors hover:bg-roast/5 ${isActive ? 'text-roast underline decoration-leaf decoration-2 underline-offset-8' : 'text-roast-600'}`;

  const adminClass = (state: { isActive: boolean }) => `${navClass(state)} inline-flex items-center gap-1.5`;

  return (
    <header className="sticky top-0 z-40 border-b border-sand bg-cream/95 backdrop-blur supports-[backdrop-filter]:bg-cream/85">
      <div className="container-page flex h-16 items-center gap-3 md:h-20">
        <details className="group relative md:hidden">
          <summary className="btn-ghost cursor-pointer list-none px-2.5 [&::-webkit-details-marker]:hidden" aria-label={t('nav.menu')}>
            <Menu aria-hidden="true" className="h-5 w-5" />
          </summary>
          <nav aria-label={t('nav.main')} className="absolute top-12 left-0 w-64 rounded-2xl border border-sand bg-paper p-3 shadow-xl">
            <ul className="flex flex-col">
              {navLinks.map((link) => (
                <li key={link.to}>
                  <NavLink to={path(link.to)} end={link.end} className="block rounded-xl px-3 py-2.5 font-medium hover:bg-sand/60">
                    {t(link.key)}
                  </NavLink>
                </li>
              ))}
              {user?.isAdmin &&
                headerAdminLinks.map(({ to, key, Icon, end }, i) => (
                  <li key={to} className={i === 0 ? 'mt-2 border-t border-sand pt-2' : undefined}>
                    <NavLink to={to} end={end} className="flex items-center gap-2 rounded-xl px-3 py-2.5 font-medium hover:bg-sand/60">
                      <Icon aria-hidden="true" className="h-4 w-4 text-leaf" />
                      {t(key)}
                    </NavLink>
                  </li>
                ))}
              <li className="mt-2 flex gap-2 border-t border-sand pt-3">
                {user ? (
                  <>
                    <Link to={path('/profile')} className="btn-outline flex-1 px-3">{t('nav.profile')}</Link>
                    <LogoutButton className="btn-primary flex-1 px-3" />
                  </>
                ) : (
                  <>
                    <Link to={path(`/auth?redirectTo=${encodeURIComponent(here)}`)} className="btn-outline flex-1 px-3">
                      {t('nav.login')}
                    </Link>
                    <Link to={path('/auth?mode=signup')} className="btn-primary flex-1 px-3">
                      {t('nav.signup')}
                    </Link>
                  </>
                )}
              </li>
            </ul>
          </nav>
        </details>

        <Link to={path('/')} className="mr-auto rounded-lg text-roast md:mr-4" aria-label={t('brand.home')}>
          <Logo />
        </Link>

        <nav aria-label={t('nav.main')} className="mr-auto hidden md:block">
          <ul className="flex items-center gap-1">
            {navLinks.map((link) => (
              <li key={link.to}>
                <NavLink to={path(link.to)} end={link.end} className={navClass}>
                  {t(link.key)}
                </NavLink>
              </li>
            ))}
            {user?.isAdmin &&
              headerAdminLinks.map(({ to, key, Icon, end }, i) => (
                <li key={to} className={i === 0 ? 'ml-1 border-l border-sand pl-1' : undefined}>
                  <NavLink to={to} end={end} className={adminClass} aria-label={t(key)} title={t(key)}>
                    <Icon aria-hidden="true" className="h-4 w-4 text-leaf" />
                    <span className="hidden 2xl:inline">{t(key)}</span>
                  </NavLink>
                </li>
              ))}
          </ul>
        </nav>

        {/* The same page in the other language: the form also remembers the choice for the back office. */}
        <Form method="post" action="/language" preventScrollReset onSubmit={() => rememberLanguage(other)}>
          <input type="hidden" name="locale" value={other} />
          <input type="hidden" name="redirectTo" value={counterpartPath(here, other)} />
          <button type="submit" className="btn-ghost px-3" lang={other}>
            <Globe aria-hidden="true" className="h-4 w-4" />
            <span className="hidden sm:inline">{locale === 'en' ? 'Polski' : 'English'}</span>
            <span className="sm:hidden">{locale === 'en' ? 'PL' : 'EN'}</span>
          </button>
        </Form>

        {user ? (
          <div className="hidden items-center gap-1 md:flex">
            <span className="mr-1 max-w-48 truncate text-sm text-muted" data-testid="greeting">{t('nav.greeting', { name: user.displayName })}</span>
            <Link to={path('/profile')} className="btn-ghost px-3">
              <UserRound aria-hidden="true" className="h-4 w-4" />
              {t('nav.profile')}
            </Link>
            <LogoutButton className="btn-ghost px-3" />
          </div>
        ) : (
          <div className="hidden items-center gap-2 md:flex">
            <Link to={path(`/auth?redirectTo=${encodeURIComponent(here)}`)} className="btn-ghost">
              {t('nav.login')}
            </Link>
            <Link to={path('/auth?mode=signup')} className="btn-primary">
              {t('nav.signup')}
            </Link>
          </div>
        )}

        <Link
          to={path('/cart')}
          className="relative inline-flex h-11 w-11 items-center justify-center rounded-full text-roast hover:bg-roast/5"
          aria-label={t('nav.cartCount', { count })}
          data-testid="cart-link"
        >
          <ShoppingBag aria-hidden="true" className="h-6 w-6" />
          <span
            aria-hidden="true"
            data-testid="cart-count"
            className={`absolute -top-0.5 -right-0.5 flex h-5 min-w-5 items-center justify-center rounded-full px-1 text-[11px] font-bold ${count > 0 ? 'bg-leaf text-white' : 'bg-sand text-roast-600'}`}
          >
            {count}
          </span>
        </Link>
      </div>
    </header>
  );
}

/** Items being added right now, so the count moves the moment a shopper clicks. */
function usePendingAdds(cartPath: string): number {
  return useFetchers().reduce((sum, fetcher) => {
    if (fetcher.state !== 'submitting' || fetcher.formAction !== cartPath) return sum;
    if (fetcher.formData?.get('intent') !== 'add') return sum;
    return sum + (Number(fetcher.formData.get('quantity')) || 1);
  }, 0);
}

function rememberLanguage(locale: string) {
  try {
    localStorage.setItem('language', locale);
  } catch {
    // Storage may be unavailable (private mode); the cookie still carries the choice.
  }
}

function LogoutButton({ className }: { className: string }) {
  const { t, path } = useI18n();
  return (
    <Form method="post" action={path('/logout')} className="contents">
      <button type="submit" className={className}>
        <LogOut aria-hidden="true" className="h-4 w-4" />
        {t('nav.logout')}
      </button>
    </Form>
  );
}
