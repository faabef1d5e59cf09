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

export function LogoutButton({ className }: { className: string }) {
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
