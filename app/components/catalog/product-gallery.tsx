import { Expand } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import type { ProductImage as Image } from '~/modules/storage/image';
import { useT } from '~/modules/i18n/react';
import { Lightbox } from './lightbox';
import { ProductImage } from './product-image';

/**
 * Main image with thumbnails. The thumbnails are links (`?image=2`) so they work before JavaScript loads;
 * once it has, they switch in place and the main image opens the lightbox.
 */
export function ProductGallery({ images, alt, fallbackAlt }: { images: Image[]; alt: string; fallbackAlt: string }) {
  const t = useT();
  const [params] = useSearchParams();
  const initial = Math.min(Math.max(Number(params.get('image')) - 1 || 0, 0), Math.max(images.length - 1, 0));
  const [active, setActive] = useState(initial);
  const [open, setOpen] = useState(false);
  const total = images.length;
  const sizes = '(min-width: 1024px) 560px, 100vw';

  if (total === 0) {
    return (
      <div className="overflow-hidden rounded-3xl bg-sand/60 ring-1 ring-sand">
        <ProductImage image={null} alt={fallbackAlt} sizes={sizes} eager className="h-auto w-full" />
      </div>
    );
  }

  return (
    <section aria-label={t('product.gallery.label')}>
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="group relative block w-full overflow-hidden rounded-3xl bg-sand/60 ring-1 ring-sand"
        aria-label={t('product.gallery.open', { n: active + 1, total })}
        data-testid="gallery-main"
      >
        <ProductImage image={images[active]} alt={alt} sizes={sizes} eager className="h-auto w-full" />
        <span className="absolute right-4 bottom-4 flex h-10 w-10 items-center justify-center rounded-full bg-paper/90 text-roast shadow transition-transform group-hover:scale-110">
          <Expand aria-hidden="true" className="h-4 w-4" />
        </span>
      </button>
      {total > 1 && (
        <ul className="mt-4 flex gap-3">
          {images.map((image, i) => (
            <li key={image.src}>
              <a
                href={`?image=${i + 1}`}
                onClick={(e) => {
                  e.preventDefault();
                  setActive(i);
                }}
                aria-label={t('product.gallery.show', { n: i + 1, total })}
                aria-current={i === active ? 'true' : undefined}
                className={`block w-20 overflow-hidden rounded-xl ring-2 transition sm:w-24 ${i === active ? 'ring-leaf' : 'ring-transparent hover:ring-sand-dark'}`}
              >
                <ProductImage image={image} alt="" sizes="96px" className="h-auto w-full" />
              </a>
            </li>
          ))}
        </ul>
      )}
      {open && <Lightbox images={images} index={active} alt={alt} onIndexChange={setActive} onClose={() => setOpen(false)} />}
    </section>
  );
}
