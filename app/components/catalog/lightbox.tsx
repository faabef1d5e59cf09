import { ChevronLeft, ChevronRight, X } from 'lucide-react';
import { useEffect, useRef } from 'react';
import type { ProductImage } from '~/modules/storage/image';
import { useT } from '~/modules/i18n/react';

/**
 * A modal image viewer on the native <dialog>: the rest of the page is inert while it is open, so focus
 * stays inside; Escape closes it; arrow keys, the buttons and a horizontal swipe move through the images and
 * wrap around; a click or tap anywhere but the picture and the buttons closes it. On phones the arrows sit
 * over the picture's lower corners, so both stay on screen.
 */
/** How far a finger must travel sideways to change the picture. */
const SWIPE_PX = 40;

/** Beside the picture from `sm` up; over its lower corners on phones. */
const arrowClass =
  'absolute bottom-2 z-10 flex h-12 w-12 shrink-0 items-center justify-center rounded-full bg-roast/60 text-cream ring-1 ring-cream/30 hover:bg-roast/80 sm:static sm:bg-cream/15 sm:ring-0 sm:hover:bg-cream/25';

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
  const swipeStart = useRef<{ x: number; y: number } | null>(null);

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
      onClick={(e) => {
        if (!(e.target as Element).closest('img, button')) dialog.current?.close();
      }}
      onTouchStart={(e) => {
        const touch = e.touches[0];
        swipeStart.current = e.touches.length === 1 && touch ? { x: touch.clientX, y: touch.clientY } : null;
      }}
      onTouchEnd={(e) => {
        const start = swipeStart.current;
        const touch = e.changedTouches[0];
        swipeStart.current = null;
        if (!start || !touch || total < 2) return;
        const dx = touch.clientX - start.x;
        if (Math.abs(dx) < SWIPE_PX || Math.abs(dx) < Math.abs(touch.clientY - start.y)) return;
        go(dx < 0 ? 1 : -1);
      }}
      data-dark
      // A sideways swipe is the viewer's own (the next picture), never the browser's: no history navigation
      // ("back" on a swipe right) and no sideways panning; vertical panning and pinch-zoom stay the browser's.
      className="m-0 h-full max-h-none w-full max-w-none touch-pan-y touch-pinch-zoom overscroll-contain bg-transparent p-0 backdrop:bg-roast/90 backdrop:backdrop-blur-sm"
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
        <div className="relative flex min-h-0 w-full max-w-5xl flex-1 items-center justify-center gap-3">
          {total > 1 && (
            <button
              type="button"
              onClick={() => go(-1)}
              className={`${arrowClass} left-1`}
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
            draggable={false}
            className="animate-fade-in max-h-full min-h-0 w-auto max-w-full min-w-0 rounded-2xl object-contain select-none"
          />
          {total > 1 && (
            <button
              type="button"
              onClick={() => go(1)}
              className={`${arrowClass} right-1`}
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
