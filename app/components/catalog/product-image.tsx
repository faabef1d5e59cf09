import type { ProductImage as Image } from '~/modules/storage/image';

/** A product picture (sized WebP variants) or the default coffee icon when there is none. */
export function ProductImage({
  image,
  alt,
  sizes,
  className = '',
  eager = false,
}: {
  image: Image | null;
  alt: string;
  sizes: string;
  className?: string;
  eager?: boolean;
}) {
  if (!image) {
    return (
      <img
        src="/default-coffee.svg"
        alt={alt}
        width={400}
        height={500}
        className={className}
        loading={eager ? 'eager' : 'lazy'}
        decoding="async"
      />
    );
  }
  return (
    <img
      src={image.src}
      srcSet={image.srcSet}
      sizes={sizes}
      alt={alt}
      width={image.width}
      height={image.height}
      className={className}
      loading={eager ? 'eager' : 'lazy'}
      fetchPriority={eager ? 'high' : undefined}
      decoding="async"
    />
  );
}
