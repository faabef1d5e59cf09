import { ArrowDownUp } from 'lucide-react';
import { Form } from 'react-router';
import { ListSelect } from '~/components/ui/list-select';
import { useHydrated } from '~/lib/use-hydrated';
import { type Category, type SortOrder, sortOrders } from '~/modules/catalog/catalog.types';
import { useT } from '~/modules/i18n/react';

/**
 * The list's order as a GET form (`?sort=`), so it is a shareable URL and works without JavaScript (a
 * Sort button until the page hydrates; after that, choosing an order applies it). Keeps the search and
 * the category.
 */
export function SortSelect({ action, sort, q, category }: { action: string; sort?: SortOrder; q?: string; category?: Category }) {
  const t = useT();
  const hydrated = useHydrated();
  return (
    <Form method="get" action={action} preventScrollReset className="flex w-full items-end gap-2 sm:w-auto">
      {q && <input type="hidden" name="q" value={q} />}
      {category && <input type="hidden" name="category" value={category} />}
      <ListSelect
        id="sort-select"
        name="sort"
        label={t('sort.label')}
        value={sort ?? 'newest'}
        options={sortOrders.map((order) => ({ value: order, label: t(`sort.${order}`) }))}
        icon={ArrowDownUp}
        className="w-full py-2.5 sm:min-w-52"
      />
      {!hydrated && (
        <button type="submit" className="btn-outline shrink-0 py-2.5">
          {t('sort.apply')}
        </button>
      )}
    </Form>
  );
}
