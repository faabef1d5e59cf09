import { Search } from 'lucide-react';
import { Form } from 'react-router';
import type { Category, SortOrder } from '~/modules/catalog/catalog.types';
import { useLocalePath, useT } from '~/modules/i18n/react';

export function SearchBox({ q, category, sort }: { q?: string; category?: Category; sort?: SortOrder }) {
  const path = useLocalePath();
  const t = useT();
  return (
    <Form method="get" action={`${path('/')}#results`} role="search" preventScrollReset className="relative w-full md:max-w-md" aria-label={t('home.search.label')}>
      {category && <input type="hidden" name="category" value={category} />}
      {sort && <input type="hidden" name="sort" value={sort} />}
      <label htmlFor="search-q" className="sr-only">
        {t('home.search.label')}
      </label>
      <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-4 h-4 w-4 -translate-y-1/2 text-muted" />
      <input
        key={q ?? ''}
        id="search-q"
        type="search"
        name="q"
        defaultValue={q}
        maxLength={100}
        placeholder={t('home.search.placeholder')}
        className="field-input rounded-full py-3 pr-28 pl-11"
      />
      <button type="submit" className="btn-primary absolute top-1/2 right-1.5 -translate-y-1/2 px-4 py-2">
        {t('home.search.submit')}
      </button>
    </Form>
  );
}
