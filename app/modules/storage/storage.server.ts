/** Where uploaded and generated files live. Local disk by default; S3-compatible when S3_BUCKET is set. */
export interface Storage {
  /** Stores bytes under a key such as "products/abc/1f2e-640.webp". Keys are never reused, so URLs are immutable. */
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** The URL a browser loads the file from. */
  url(key: string): string;
}
