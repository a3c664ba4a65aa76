import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Logger } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { BlobStore } from '../../src/platform/blob-store/blob-store';
import { BlobStoreModule } from '../../src/platform/blob-store/blob-store.module';
import { FilesystemBlobStore } from '../../src/platform/blob-store/filesystem-blob-store';
import {
  BlobStoreUnavailableError,
  S3BlobStore,
} from '../../src/platform/blob-store/s3-blob-store';
import { ConfigurationError } from '../../src/platform/config/app-config';
import { startS3Server, type TestS3Server } from '../helpers/s3-server';
import { blobStoreContract } from './blob-store-contract';

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
