import type { Readable } from 'node:stream';

/** A stored file, ready to stream. */
export type StoredFile = { body: Readable; contentType: string; size: number | undefined };

/**
 * Where uploaded and generated files live: local disk (DATA_DIR/uploads) by default, an S3-compatible
 * bucket when S3_BUCKET is set. Both pass one contract suite (storage.contract.test.ts).
 */
export interface Storage {
  /** What the start-up log and errors call it, e.g. "local disk /srv/kopi/uploads" or "S3 bucket kopi-images". */
  readonly description: string;
  /** Resolves when the storage can be used; rejects with a message naming it otherwise (checked at start). */
  check(): Promise<void>;
  /** Stores bytes under a key such as "products/abc/1f2e-640.webp". Keys are never reused, so URLs are immutable. */
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** The file under `key`, or null when there is none. */
  get(key: string): Promise<StoredFile | null>;
  exists(key: string): Promise<boolean>;
  /** Deletes the file; deleting a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** The URL a browser loads the file from. */
  url(key: string): string;
}
