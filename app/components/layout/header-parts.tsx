import { LogOut } from 'lucide-react';
import { Form } from 'react-router';
import { useI18n } from '~/modules/i18n/react';

/** The storefront's main pages, in the header's and the menu's order; `end`: active only on that exact path. */
export const navLinks = [
  { to: '/', key: 'nav.home', end: true },
  { to: '/categories', key: 'nav.categories', end: false },
  { to: '/about', key: 'nav.about', end: false },
  { to: '/contact', key: 'nav.contact', end: false },
] as const;

export type HeaderUser = { displayName: string; isAdmin: boolean } | null;

/** `compact`: the label is read out and shown as a tooltip, but seen only from `xl` (the header at 1024–1279 px). */
export function LogoutButton({ className, compact = false }: { className: string; compact?: boolean }) {
  const { t, path } = useI18n();
  return (
    <Form method="post" action={path('/logout')} className="contents">
      <button type="submit" className={className} title={compact ? t('nav.logout') : undefined}>
        <LogOut aria-hidden="true" className="h-4 w-4" />
        {compact ? <span className="sr-only xl:not-sr-only xl:whitespace-nowrap">{t('nav.logout')}</span> : t('nav.logout')}
      </button>
    </Form>
  );
}
