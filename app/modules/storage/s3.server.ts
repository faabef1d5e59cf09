import type { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { assertSafeKey, contentTypeOf } from './local.server';
import type { Storage } from './storage.server';

export type S3StorageOptions = {
  bucket: string;
  region: string;
  /** An S3-compatible service (MinIO, Ceph, R2 …): addressed path-style, https://host/bucket/key. */
  endpoint?: string;
  /** Where browsers load the pictures (a CDN or public bucket URL); without it the shop serves /images/… itself. */
  publicUrl?: string;
  /** Only for tests; production takes credentials from the SDK's standard chain (environment, profile, role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
};

/** Pictures are stored under keys that are never reused, so any cache may keep them for a year. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Files in an S3-compatible bucket, through the AWS SDK. */
export function createS3Storage(options: S3StorageOptions): Storage {
  const client = new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.endpoint !== undefined,
    credentials: options.credentials,
    maxAttempts: 3,
    requestHandler: { connectionTimeout: 5000, requestTimeout: 30_000 },
  });
  const Bucket = options.bucket;
  const where = options.endpoint ? ` at ${options.endpoint}` : ` in ${options.region}`;
  const publicPrefix = (options.publicUrl ?? '/images').replace(/\/+$/, '');

  return {
    description: `S3 bucket ${Bucket}${where}`,
    async check() {
      try {
        await client.send(new HeadBucketCommand({ Bucket }));
      } catch (error) {
        throw new Error(`The S3 bucket "${Bucket}"${where} cannot be used: ${describe(error)}`, { cause: error });
      }
    },
    async put(key, data, contentType) {
      assertSafeKey(key);
      await client.send(new PutObjectCommand({ Bucket, Key: key, Body: data, ContentType: contentType, CacheControl: IMMUTABLE }));
    },
    async get(key) {
      assertSafeKey(key);
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        if (!object.Body) return null;
        return { body: object.Body as Readable, contentType: object.ContentType ?? contentTypeOf(key), size: object.ContentLength };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    async exists(key) {
      assertSafeKey(key);
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return true;
      } catch (error) {
        if (isNotFound(error)) return false;
        throw error;
      }
    },
    async delete(key) {
      assertSafeKey(key);
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    url(key) {
      assertSafeKey(key);
      return `${publicPrefix}/${key}`;
    },
  };
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

function describe(error: unknown): string {
  const e = error as { name?: string; message?: string; code?: string; $metadata?: { httpStatusCode?: number } };
  const status = e?.$metadata?.httpStatusCode;
  if (status === 404) return 'it does not exist';
  if (status === 403) return 'access denied (check the credentials and the bucket policy)';
  return [e?.name, e?.code, e?.message].filter(Boolean).join(': ') || String(error);
}
