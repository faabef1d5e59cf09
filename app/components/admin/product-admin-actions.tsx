import { Pencil, Trash2 } from 'lucide-react';
import { useId, useRef } from 'react';
import { Link, useFetcher, useLocation } from 'react-router';
import { useT } from '~/modules/i18n/react';
import { useIsAdmin } from './use-admin';

type Props = { productId: string; name: string; size?: 'sm' | 'md'; className?: string };

/**
 * Edit and Delete for admins (nobody else sees them; the server checks anyway). Delete asks first: with
 * JavaScript in a dialog, without it on its own confirmation page (the link's target).
 */
export function ProductAdminActions({ productId, name, size = 'sm', className = '' }: Props) {
  const isAdmin = useIsAdmin();
  const t = useT();
  if (!isAdmin) return null;
  const button = size === 'sm' ? 'btn-outline px-3 py-1.5 text-xs' : 'btn-outline';
  return (
    <div className={`flex flex-wrap items-center gap-2 ${className}`} data-testid="admin-actions">
      <Link to={`/edit-product/${productId}`} className={button} aria-label={t('manage.editNamed', { name })}>
        <Pencil aria-hidden="true" className="h-3.5 w-3.5" />
        {t('manage.edit')}
      </Link>
      <DeleteProductButton productId={productId} name={name} className={button} />
    </div>
  );
}

/** A delete that worked redirects (the card or page is gone); only a failure comes back as data. */
type DeleteResult = { ok: false; error: string };

export function DeleteProductButton({ productId, name, className }: { productId: string; name: string; className: string }) {
  const t = useT();
  const location = useLocation();
  const fetcher = useFetcher<DeleteResult>();
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const busy = fetcher.state !== 'idle';
  const failed = fetcher.state === 'idle' && fetcher.data !== undefined;
  const confirmUrl = `/admin/products/${productId}/delete?redirectTo=${encodeURIComponent(location.pathname + location.search)}`;

  return (
    <>
      <a
        href={confirmUrl}
        className={`${className} text-cherry hover:border-cherry hover:bg-cherry/5`}
        aria-label={t('manage.deleteNamed', { name })}
        onClick={(event) => {
          if (!dialog.current?.showModal) return; // no dialog support: the confirmation page
          event.preventDefault();
          dialog.current.showModal();
        }}
      >
        <Trash2 aria-hidden="true" className="h-3.5 w-3.5" />
        {t('manage.delete')}
      </a>
      <dialog
        ref={dialog}
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-text`}
        className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-3xl bg-paper p-6 text-roast shadow-2xl ring-1 ring-sand backdrop:bg-roast/40"
        onClick={(event) => {
          if (event.target === dialog.current && !busy) dialog.current.close();
        }}
      >
        <h2 id={`${id}-title`} className="text-xl font-semibold">{t('manage.confirmTitle', { name })}</h2>
        <p id={`${id}-text`} className="mt-3 text-sm leading-relaxed text-roast-800">{t('manage.confirmText')}</p>
        {failed && (
          <p role="alert" className="mt-4 rounded-xl bg-cherry/10 px-4 py-3 text-sm font-medium text-cherry">
            {t('manage.deleteFailed')}
          </p>
        )}
        <fetcher.Form method="post" action={`/admin/products/${productId}/delete`} className="mt-6 flex flex-wrap justify-end gap-3">
          <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
          <button type="button" className="btn-ghost" autoFocus onClick={() => dialog.current?.close()} disabled={busy}>
            {t('manage.cancel')}
          </button>
          <button type="submit" className="btn bg-cherry text-white hover:bg-cherry/90" disabled={busy}>
            <Trash2 aria-hidden="true" className="h-4 w-4" />
            {busy ? t('manage.deleting') : t('manage.confirmDelete')}
          </button>
        </fetcher.Form>
      </dialog>
    </>
  );
}
