import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import type { S3BlobStoreOptions } from '../../src/platform/blob-store/s3-blob-store';

/** The credentials s3rver accepts (it checks request signatures against them). */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface TestS3Server {
  /** http://127.0.0.1:<port> */
  endpoint: string;
  /** A bucket made at start. */
  bucket: string;
  /** S3BlobStore options for `bucket`. */
  storeOptions(overrides?: Partial<S3BlobStoreOptions>): S3BlobStoreOptions;
  /** The settings that run Bindery on `bucket`. */
  settings: Record<string, string>;
  /** Stops the server and removes its objects; calling it again does nothing. */
  close(): Promise<void>;
}

/**
 * A real S3 API on loopback (s3rver, objects kept in a temporary directory), for the tests of
 * the S3 blob store. Close it in afterAll.
 */
export async function startS3Server(bucket = 'bindery-blobs'): Promise<TestS3Server> {
  const directory = await mkdtemp(join(tmpdir(), 'bindery-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory,
    silent: true,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  let closed: Promise<void> | undefined;
  return {
    endpoint,
    bucket,
    storeOptions: (overrides = {}) => ({
      bucket,
      region: 'us-east-1',
      endpoint,
      credentials: S3RVER_CREDENTIALS,
      forcePathStyle: true,
      ...overrides,
    }),
    settings: {
      BLOB_STORE: 's3',
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    },
    // Idempotent: a test may stop the server early to see failures.
    close: () =>
      (closed ??= (async () => {
        await server.close();
        await rm(directory, { recursive: true, force: true });
      })()),
  };
}
