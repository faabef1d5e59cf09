import { Link } from 'react-router';
import { useLocalePath, useT } from '~/modules/i18n/react';
import { legalPages, legalPath } from '~/modules/legal/pages';
import { openCookieSettings } from './cookie-banner';
import { Logo } from './logo';

export function SiteFooter() {
  const path = useLocalePath();
  const t = useT();
  return (
    <footer className="mt-24 bg-roast text-cream">
      <div className="container-page grid gap-10 py-14 sm:grid-cols-2 md:grid-cols-[2fr_1fr_1fr]">
        <div className="max-w-md">
          <Logo className="text-cream" onDark />
          <p className="mt-4 text-sm leading-relaxed text-cream/80">{t('footer.about')}</p>
          <p className="mt-4 font-serif text-lg text-cream italic">{t('brand.tagline')}</p>
        </div>
        <nav aria-labelledby="footer-links">
          <h2 id="footer-links" className="font-sans text-xs font-semibold tracking-[0.18em] text-cream/70 uppercase">
            {t('footer.links')}
          </h2>
          <ul className="mt-4 space-y-2.5 text-sm">
            <li>
              <Link to={path('/')} className="hover:underline">{t('nav.home')}</Link>
            </li>
            <li>
              <Link to={path('/categories')} className="hover:underline">{t('nav.categories')}</Link>
            </li>
            <li>
              <Link to={path('/about')} className="hover:underline">{t('nav.about')}</Link>
            </li>
            <li>
              <Link to={path('/contact')} className="hover:underline">{t('nav.contact')}</Link>
            </li>
          </ul>
        </nav>
        <nav aria-labelledby="footer-legal">
          <h2 id="footer-legal" className="font-sans text-xs font-semibold tracking-[0.18em] text-cream/70 uppercase">
            {t('legal.heading')}
          </h2>
          <ul className="mt-4 space-y-2.5 text-sm">
            {legalPages.map((page) => (
              <li key={page}>
                <Link to={path(legalPath(page))} className="hover:underline">
                  {t(`legal.pages.${page}`)}
                </Link>
              </li>
            ))}
            <li>
              {/* Without JavaScript there is no banner to open: the link leads to the cookie policy instead. */}
              <a
                href={path(legalPath('cookies'))}
                className="hover:underline"
                onClick={(event) => {
                  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
                  event.preventDefault();
                  openCookieSettings();
                }}
              >
                {t('footer.cookieSettings')}
              </a>
            </li>
            <li>
              <Link to={path('/withdraw')} className="font-semibold underline underline-offset-4">
                {t('legal.withdraw')}
              </Link>
            </li>
          </ul>
        </nav>
      </div>
      <div className="border-t border-cream/15">
        <div className="container-page flex flex-col gap-1 py-5 text-xs text-cream/70 sm:flex-row sm:justify-between">
          <p>{t('footer.rights', { year: String(new Date().getFullYear()) })}</p>
          <p>{t('footer.madeWith')}</p>
        </div>
      </div>
    </footer>
  );
}
