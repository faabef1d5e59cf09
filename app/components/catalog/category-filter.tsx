import { Link } from 'react-router';
import { type Category, type SortOrder, categories } from '~/modules/catalog/catalog.types';
import { useI18n } from '~/modules/i18n/react';

/** All + the four categories as links (shareable, no JavaScript needed); the active one clears itself. */
export function CategoryFilter({ active, q, sort }: { active?: Category; q?: string; sort?: SortOrder }) {
  const { t, path } = useI18n();
  const href = (category?: Category) => {
    const params = new URLSearchParams();
    if (q) params.set('q', q);
    if (category) params.set('category', category);
    if (sort) params.set('sort', sort);
    const search = params.toString();
    return path(`/${search ? `?${search}` : ''}#shop`);
  };
  const pill = (on: boolean) =>
    `inline-flex items-center rounded-full border px-4 py-2 text-sm font-medium transition-colors ${
      on ? 'border-roast bg-roast text-cream' : 'border-sand-dark bg-paper text-roast hover:border-roast'
    }`;
  return (
    <nav aria-label={t('home.filter.label')}>
      <ul className="flex flex-wrap gap-2">
        <li>
          <Link to={href()} preventScrollReset className={pill(!active)} aria-current={!active ? 'true' : undefined}>
            {t('categories.all')}
          </Link>
        </li>
        {categories.map((category) => (
          <li key={category}>
            <Link
              to={href(active === category ? undefined : category)}
              preventScrollReset
              className={pill(active === category)}
              aria-current={active === category ? 'true' : undefined}
            >
              {t(`categories.${category}`)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
