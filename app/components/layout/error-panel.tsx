import { Coffee } from 'lucide-react';
import { Link } from 'react-router';
import { useLocalePath, useT } from '~/modules/i18n/react';

export function ErrorPanel({ status, title, text }: { status: number; title: string; text: string }) {
  const path = useLocalePath();
  const t = useT();
  return (
    <section className="container-page flex flex-col items-center py-24 text-center">
      <span className="flex h-20 w-20 items-center justify-center rounded-full bg-sand text-roast-600">
        <Coffee aria-hidden="true" className="h-10 w-10" />
      </span>
      <p className="eyebrow mt-8">{t('errors.status', { status: String(status) })}</p>
      <h1 className="mt-3 text-4xl font-semibold md:text-5xl">{title}</h1>
      <p className="mt-4 max-w-lg text-lg text-muted">{text}</p>
      <Link to={path('/')} className="btn-primary mt-10">
        {t('errors.backHome')}
      </Link>
    </section>
  );
}
