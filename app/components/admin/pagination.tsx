import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { useT } from '~/modules/i18n/react';

/**
 * Previous / next for a back-office list: the current URL with its `page` changed (other filters kept, a
 * one-off `deleted` notice dropped). Nothing when everything fits on one page.
 */
export function Pagination({ page, pages }: { page: number; pages: number }) {
  const t = useT();
  const location = useLocation();
  if (pages <= 1) return null;
  const pageUrl = (n: number) => {
    const params = new URLSearchParams(location.search);
    params.delete('deleted');
    if (n > 1) params.set('page', String(n));
    else params.delete('page');
    const search = params.toString();
    return search ? `${location.pathname}?${search}` : location.pathname;
  };
  return (
    <nav aria-label={t('admin.pagination.label')} className="mt-6 flex items-center justify-between gap-4">
      {page > 1 ? (
        <Link to={pageUrl(page - 1)} className="btn-outline" rel="prev">
          <ChevronLeft aria-hidden="true" className="h-4 w-4" />
          {t('admin.pagination.previous')}
        </Link>
      ) : (
        <span />
      )}
      <span className="text-sm text-muted">{t('admin.pagination.page', { page, pages })}</span>
      {page < pages ? (
        <Link to={pageUrl(page + 1)} className="btn-outline" rel="next">
          {t('admin.pagination.next')}
          <ChevronRight aria-hidden="true" className="h-4 w-4" />
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
