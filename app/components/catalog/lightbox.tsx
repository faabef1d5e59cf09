import { ChevronLeft, ChevronRight, X } from 'lucide-react';
import { useEffect, useRef } from 'react';
import type { ProductImage } from '~/modules/storage/image';
import { useT } from '~/modules/i18n/react';

/**
 * A modal image viewer on the native <dialog>: the rest of the page is inert while it is open, so focus
 * stays inside; Escape closes it; arrow keys and the buttons move through the images and wrap around.
 */
export function Lightbox({
  images,
  index,
  alt,
  onIndexChange,
  onClose,
}: {
  images: ProductImage[];
  index: number;
  alt: string;
  onIndexChange: (index: number) => void;
  onClose: () => void;
}) {
  const t = useT();
  const dialog = useRef<HTMLDialogElement>(null);
  const total = images.length;
  const go = (delta: number) => onIndexChange((index + delta + total) % total);

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);

  const image = images[index];
  if (!image) return null;
  const large = image.srcSet.split(', ').at(-1)?.split(' ')[0] ?? image.src;

  return (
    <dialog
      ref={dialog}
      aria-label={t('product.gallery.dialog')}
      onClose={onClose}
      onKeyDown={(e) => {
        if (e.key === 'ArrowRight') {
          e.preventDefault();
          go(1);
        } else if (e.key === 'ArrowLeft') {
          e.preventDefault();
          go(-1);
        }
      }}
      className="m-0 h-full max-h-none w-full max-w-none bg-transparent p-0 backdrop:bg-roast/90 backdrop:backdrop-blur-sm"
    >
      <div className="animate-fade-in flex h-full w-full flex-col items-center justify-center gap-4 p-4 text-cream">
        <div className="flex w-full max-w-4xl items-center justify-between">
          <p aria-live="polite" className="text-sm font-medium">
            {t('product.gallery.counter', { n: index + 1, total })}
          </p>
          <button
            type="button"
            onClick={() => dialog.current?.close()}
            className="flex h-11 w-11 items-center justify-center rounded-full bg-cream/15 hover:bg-cream/25"
            aria-label={t('product.gallery.close')}
          >
            <X aria-hidden="true" className="h-5 w-5" />
          </button>
        </div>
        <div className="flex min-h-0 w-full max-w-5xl flex-1 items-center justify-center gap-3">
          {total > 1 && (
            <button
              type="button"
              onClick={() => go(-1)}
              className="flex h-12 w-12 shrink-0 items-center justify-center rounded-full bg-cream/15 hover:bg-cream/25"
              aria-label={t('product.gallery.previous')}
            >
              <ChevronLeft aria-hidden="true" className="h-6 w-6" />
            </button>
          )}
          <img
            key={image.src}
            src={large}
            alt={`${alt} (${index + 1}/${total})`}
            width={image.width}
            height={image.height}
            className="animate-fade-in max-h-full min-h-0 w-auto rounded-2xl object-contain"
          />
          {total > 1 && (
            <button
              type="button"
              onClick={() => go(1)}
              className="flex h-12 w-12 shrink-0 items-center justify-center rounded-full bg-cream/15 hover:bg-cream/25"
              aria-label={t('product.gallery.next')}
            >
              <ChevronRight aria-hidden="true" className="h-6 w-6" />
            </button>
          )}
        </div>
      </div>
    </dialog>
  );
}
