import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Logger } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { Response } from 'superagent';
import { blobKeyOf } from '../../src/content-engine/files/file-content';
import { CONTENT_GC_QUEUE } from '../../src/content-engine/gc/content-gc-schedule';
import { BlobStore } from '../../src/platform/blob-store/blob-store';
import { BlobStoreModule } from '../../src/platform/blob-store/blob-store.module';
import { FilesystemBlobStore } from '../../src/platform/blob-store/filesystem-blob-store';
import {
  BlobStoreUnavailableError,
  S3BlobStore,
} from '../../src/platform/blob-store/s3-blob-store';
import { ConfigurationError } from '../../src/platform/config/app-config';
import { sha256Hex } from '../../src/platform/ids/ids';
import { JobsService } from '../../src/platform/jobs/jobs.service';
import { PURGE_SPACES_QUEUE } from '../../src/spaces/space-trash';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../helpers/app';
import { startS3Server, type TestS3Server } from '../helpers/s3-server';
import { blobStoreContract } from './blob-store-contract';

/** Reads a response body as raw bytes, whatever its content type. */
function bytes(res: Response, done: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}

describe('BlobStore contract', () => {
  describe('FilesystemBlobStore', () => {
    let root: string;
    let store: FilesystemBlobStore;
    beforeAll(async () => {
      root = await mkdtemp(join(tmpdir(), 'bindery-blob-contract-'));
      store = new FilesystemBlobStore(join(root, 'blobs'));
    });
    afterAll(() => rm(root, { recursive: true, force: true }));

    blobStoreContract(() => store);
  });

  describe('S3BlobStore (s3rver on loopback)', () => {
    let s3: TestS3Server;
    let store: S3BlobStore;
    beforeAll(async () => {
      s3 = await startS3Server();
      store = new S3BlobStore(s3.storeOptions());
    });
    afterAll(async () => {
      store.close();
      await s3.close();
    });

    blobStoreContract(() => store);
  });
});

describe('S3BlobStore', () => {
  let s3: TestS3Server;
  const stores: S3BlobStore[] = [];
  const storeWith = (overrides: Parameters<TestS3Server['storeOptions']>[0] = {}) => {
    const store = new S3BlobStore(s3.storeOptions(overrides));
    stores.push(store);
    return store;
  };
  let logged: jest.SpyInstance;
  beforeAll(async () => {
    s3 = await startS3Server();
    logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });
  afterAll(async () => {
    logged.mockRestore();
    for (const store of stores) store.close();
    await s3.close();
  });

  it('keeps the blobs under S3_PREFIX', async () => {
    const prefixed = storeWith({ prefix: 'tenants/one/' });
    const whole = storeWith();

    await prefixed.put('files/ab/abc', Buffer.from('prefixed'));

    await expect(whole.get('tenants/one/files/ab/abc')).resolves.toEqual(Buffer.from('prefixed'));
    await expect(whole.exists('files/ab/abc')).resolves.toBe(false);
    await expect(prefixed.size('files/ab/abc')).resolves.toBe(8);
    await prefixed.delete('files/ab/abc');
    await expect(whole.exists('tenants/one/files/ab/abc')).resolves.toBe(false);
  });

  it('checks the bucket: a reachable one passes, a missing one or an unknown access key stops the start', async () => {
    await expect(storeWith().checkBucket()).resolves.toBeUndefined();

    await expect(storeWith({ bucket: 'no-such-bucket' }).checkBucket()).rejects.toThrow(
      /S3_BUCKET "no-such-bucket" cannot be used \(BLOB_STORE=s3\): it does not exist/,
    );
    const badKey = storeWith({
      credentials: { accessKeyId: 'UNKNOWN', secretAccessKey: 'S3RVER' },
    });
    const error = await badKey.checkBucket().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toMatch(/access is denied/);
  });

  it('reports other failures as BlobStoreUnavailableError (503), never as a missing blob', async () => {
    const noBucket = storeWith({ bucket: 'no-such-bucket' });
    const badKey = storeWith({
      credentials: { accessKeyId: 'UNKNOWN', secretAccessKey: 'S3RVER' },
    });
    const operations = (store: S3BlobStore) => [
      () => store.get('files/x'),
      () => store.createReadStream('files/x'),
      () => store.put('files/x', Buffer.from('x')),
      () => store.put('files/x', Readable.from(['x'])),
      () => store.delete('files/x'),
    ];
    for (const operation of [...operations(noBucket), ...operations(badKey)]) {
      const error = await operation().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(BlobStoreUnavailableError);
      expect(error).toMatchObject({ kind: 'unavailable', code: 'BlobStoreUnavailable' });
    }
    // HEAD answers carry no error code: an unknown access key is still told from a missing key.
    await expect(badKey.size('files/x')).rejects.toBeInstanceOf(BlobStoreUnavailableError);
    await expect(badKey.exists('files/x')).rejects.toBeInstanceOf(BlobStoreUnavailableError);
  });

  it('reports an unreachable server as BlobStoreUnavailableError', async () => {
    // A port nothing listens on: the server closed.
    const closed = await startS3Server();
    await closed.close();
    const store = new S3BlobStore(closed.storeOptions());
    stores.push(store);

    await expect(store.size('files/x')).rejects.toBeInstanceOf(BlobStoreUnavailableError);
    await expect(store.get('files/x')).rejects.toBeInstanceOf(BlobStoreUnavailableError);
  });

  it('gives up on a server that accepts connections but never answers', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => void sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as AddressInfo;
      const store = storeWith({ endpoint: `http://127.0.0.1:${port}`, idleTimeoutMs: 200 });

      await expect(store.size('files/x')).rejects.toBeInstanceOf(BlobStoreUnavailableError);
      await expect(store.put('files/x', Buffer.from('x'))).rejects.toBeInstanceOf(
        BlobStoreUnavailableError,
      );
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('is what BlobStoreModule provides for S3 options, once the bucket is checked', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [BlobStoreModule.register({ s3: s3.storeOptions() })],
    }).compile();
    try {
      const store = moduleRef.get(BlobStore);
      expect(store).toBeInstanceOf(S3BlobStore);
      await store.put('files/module', Buffer.from('via module'));
      await expect(storeWith().get('files/module')).resolves.toEqual(Buffer.from('via module'));
    } finally {
      await moduleRef.close();
    }

    await expect(
      Test.createTestingModule({
        imports: [BlobStoreModule.register({ s3: s3.storeOptions({ bucket: 'missing-bucket' }) })],
      }).compile(),
    ).rejects.toBeInstanceOf(ConfigurationError);
  });
});

describe('Bindery on the S3 blob store (BLOB_STORE=s3)', () => {
  let s3: TestS3Server;
  let t: TestApp;
  /** The bucket, seen by a store of its own rather than the app's. */
  let bucket: S3BlobStore;
  beforeAll(async () => {
    s3 = await startS3Server('bindery-app');
    t = await createTestApp(s3.settings);
    bucket = new S3BlobStore(s3.storeOptions());
  });
  afterAll(async () => {
    bucket?.close();
    await t?.close();
    await s3?.close();
  });

  /** Sends a job on `queue` and waits for it to complete. */
  async function runJob(queue: string): Promise<void> {
    const jobs = t.bindery.app.get(JobsService);
    const id = await jobs.send(queue, {}, { retryLimit: 0 });
    const deadline = Date.now() + 20_000;
    for (;;) {
      const state = await jobs.state(queue, id);
      if (state === 'completed') return;
      if (state === 'failed') throw new Error(`the ${queue} job failed`);
      if (Date.now() > deadline) throw new Error(`the ${queue} job is still ${state}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** GET of a downloadURL, raw bytes. */
  function download(url: string) {
    expect(url.startsWith(`${TEST_PUBLIC_URL}/v1/files/sha256/`)).toBe(true);
    return t.anonymous.get(url.slice(TEST_PUBLIC_URL.length)).buffer(true).parse(bytes);
  }

  it('stores an uploaded file in the bucket, serves it through its download URL, and collects it once unreferenced', async () => {
    t.clock.set('2030-01-01T00:00:00Z');
    expect(t.bindery.app.get(BlobStore)).toBeInstanceOf(S3BlobStore);
    const org = await t.factories.organization();
    const space = await t.factories.space(org, { title: 'Stored in S3' });
    const cr = await t.factories.changeRequest(org, space.id);
    const data = randomBytes(300 * 1024);
    const key = blobKeyOf(sha256Hex(data));

    const written = await org.owner.client
      .post(`/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
        changes: [
          {
            operation: 'insert_files',
            files: [
              {
                name: 'data.bin',
                contentType: 'application/octet-stream',
                base64: data.toString('base64'),
              },
            ],
          },
        ],
      })
      .expect(200);
    const [file] = written.body.insertedFiles as { size: number; downloadURL: string }[];
    expect(file.size).toBe(data.length);

    await expect(bucket.size(key)).resolves.toBe(data.length);
    const res = await download(file.downloadURL).expect(200);
    expect(res.headers['content-length']).toBe(String(data.length));
    expect((res.body as Buffer).equals(data)).toBe(true);

    // Once its space is purged, nothing references the file: the collector deletes its bytes.
    await org.owner.client.delete(`/v1/spaces/${space.id}`).expect(204);
    t.clock.advance(8 * 24 * 60 * 60 * 1000);
    await runJob(PURGE_SPACES_QUEUE);
    await runJob(CONTENT_GC_QUEUE);

    await expect(bucket.exists(key)).resolves.toBe(false);
  });

  it('answers 503 when the bucket fails, not 404', async () => {
    const org = await t.factories.organization();
    const space = await t.factories.space(org);
    const cr = await t.factories.changeRequest(org, space.id);
    const written = await org.owner.client
      .post(`/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
        changes: [
          {
            operation: 'insert_files',
            files: [{ name: 'a.txt', contentType: 'text/plain', base64: 'aGVsbG8=' }],
          },
        ],
      })
      .expect(200);
    const [file] = written.body.insertedFiles as { downloadURL: string }[];
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    try {
      await s3.close();
      const res = await download(file.downloadURL);
      expect(res.status).toBe(503);
    } finally {
      logged.mockRestore();
    }
  });
});
