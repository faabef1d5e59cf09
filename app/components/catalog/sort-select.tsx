import { ArrowDownUp } from 'lucide-react';
import { Form, useSubmit } from 'react-router';
import { useHydrated } from '~/lib/use-hydrated';
import { type Category, type SortOrder, sortOrders } from '~/modules/catalog/catalog.types';
import { useT } from '~/modules/i18n/react';

/**
 * The list's order as a GET form (`?sort=`), so it is a shareable URL and works without JavaScript (a
 * Show button until the page hydrates; after that, choosing an order applies it). Keeps the search and
 * the category.
 */
export function SortSelect({ action, sort, q, category }: { action: string; sort?: SortOrder; q?: string; category?: Category }) {
  const t = useT();
  const submit = useSubmit();
  const hydrated = useHydrated();
  return (
    <Form method="get" action={action} preventScrollReset className="flex items-end gap-2">
      {q && <input type="hidden" name="q" value={q} />}
      {category && <input type="hidden" name="category" value={category} />}
      <div>
        <label htmlFor="sort-select" className="field-label">
          {t('sort.label')}
        </label>
        <div className="relative">
          <select
            id="sort-select"
            name="sort"
            key={sort ?? 'newest'}
            defaultValue={sort ?? 'newest'}
            onChange={(e) => submit(e.currentTarget.form, { preventScrollReset: true })}
            className="field-input min-w-52 appearance-none py-2.5 pr-10"
          >
            {sortOrders.map((order) => (
              <option key={order} value={order}>
                {t(`sort.${order}`)}
              </option>
            ))}
          </select>
          <ArrowDownUp aria-hidden="true" className="pointer-events-none absolute top-1/2 right-3 h-4 w-4 -translate-y-1/2 text-roast" />
        </div>
      </div>
      {!hydrated && (
        <button type="submit" className="btn-outline py-2.5">
          {t('sort.apply')}
        </button>
      )}
    </Form>
  );
}
