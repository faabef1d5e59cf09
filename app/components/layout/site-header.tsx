import { Globe, ShoppingBag, UserRound } from 'lucide-react';
import { Form, Link, NavLink, useFetchers, useLocation } from 'react-router';
import { headerAdminLinks } from '~/components/admin/header-admin-links';
import { counterpartPath } from '~/modules/i18n/paths';
import { useI18n } from '~/modules/i18n/react';
import { CurrencySwitch } from './currency-switch';
import { type HeaderUser, LogoutButton, navLinks } from './header-parts';
import { Logo } from './logo';
import { MobileMenu } from './mobile-menu';

/**
 * The sticky site header. Below `lg` (1024 px) the pages and the account links move into the menu, so no
 * label wraps and nothing leaves the screen in either language, signed in or not (tests/e2e/layout.spec.ts
 * measures it from 320 to 1920 px); the greeting joins from `xl`.
 */
export function SiteHeader({ cartCount, user }: { cartCount: number; user: HeaderUser }) {
  const { t, locale, path } = useI18n();
  const location = useLocation();
  const count = cartCount + usePendingAdds(path('/cart'));
  const other = locale === 'en' ? 'pl' : 'en';
  const here = location.pathname + location.search;
  const navClass = ({ isActive }: { isActive: boolean }) =>
    `rounded-full px-2.5 py-2 text-sm font-medium whitespace-nowrap xl:px-3 transition-colors hover:bg-roast/5 ${isActive ? 'text-roast underline decoration-leaf decoration-2 underline-offset-8' : 'text-roast-600'}`;

  const adminClass = (state: { isActive: boolean }) => `${navClass(state)} inline-flex items-center gap-1.5`;

  return (
    <header className="sticky top-0 z-40 border-b border-sand bg-cream/95 backdrop-blur supports-[backdrop-filter]:bg-cream/85">
      <div className="container-page flex h-16 items-center gap-2 sm:gap-3 lg:h-20">
        <MobileMenu user={user} here={here} />

        <Link to={path('/')} className="mr-auto shrink-0 rounded-lg text-roast lg:mr-2" aria-label={t('brand.home')}>
          <Logo />
        </Link>

        <nav aria-label={t('nav.main')} className="mr-auto hidden lg:block">
          <ul className="flex items-center gap-0.5 xl:gap-1">
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
          <button type="submit" className="btn-ghost px-3 whitespace-nowrap" lang={other}>
            <Globe aria-hidden="true" className="h-4 w-4" />
            <span className="hidden sm:inline">{locale === 'en' ? 'Polski' : 'English'}</span>
            <span className="sm:hidden">{locale === 'en' ? 'PL' : 'EN'}</span>
          </button>
        </Form>

        <CurrencySwitch here={here} className="hidden sm:block" />

        {user ? (
          <div className="hidden items-center gap-1 lg:flex">
            <span className="mr-1 hidden max-w-40 truncate text-sm text-muted xl:inline" data-testid="greeting">
              {t('nav.greeting', { name: user.displayName })}
            </span>
            {/* Between 1024 and 1279 px the header also holds the currency switch: these two show their icons only. */}
            <Link to={path('/profile')} className="btn-ghost px-3 whitespace-nowrap" title={t('nav.profile')}>
              <UserRound aria-hidden="true" className="h-4 w-4" />
              <span className="sr-only xl:not-sr-only xl:whitespace-nowrap">{t('nav.profile')}</span>
            </Link>
            <LogoutButton className="btn-ghost px-3 whitespace-nowrap" compact />
          </div>
        ) : (
          <div className="hidden items-center gap-2 lg:flex">
            <Link to={path(`/auth?redirectTo=${encodeURIComponent(here)}`)} className="btn-ghost whitespace-nowrap">
              {t('nav.login')}
            </Link>
            <Link to={path('/auth?mode=signup')} className="btn-primary whitespace-nowrap">
              {t('nav.signup')}
            </Link>
          </div>
        )}

        <Link
          to={path('/cart')}
          className="relative inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-full text-roast hover:bg-roast/5"
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
