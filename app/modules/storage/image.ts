/** A sized product picture, ready for `<img src srcSet width height>`. Browser-safe (no server imports). */
export type ProductImage = {
  /** The 640 px wide variant, a sensible default for cards. */
  src: string;
  /** Every variant with `w` descriptors, e.g. "/images/p/a-320.webp 320w, …". */
  srcSet: string;
  /** Intrinsic size of the largest variant (portrait 4:5), so the browser reserves the space. */
  width: number;
  height: number;
};
