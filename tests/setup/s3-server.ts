/**
 * A real S3-compatible server on 127.0.0.1 for tests (s3rver, files in a temporary directory): the shop talks
 * to it through the same @aws-sdk/client-s3 calls it makes in production.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

export type TestS3 = {
  endpoint: string;
  bucket: string;
  region: string;
  /** s3rver's fixed development credentials. */
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** The environment that points the shop at it (S3_BUCKET, S3_ENDPOINT, AWS_* …). */
  env: Record<string, string>;
  close: () => Promise<void>;
};

export async function startS3Server(bucket = 'kopi-test'): Promise<TestS3> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'kopi-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  return {
    endpoint,
    bucket,
    region: 'us-east-1',
    credentials,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    },
    close: async () => {
      server.httpServer.closeAllConnections();
      await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}
