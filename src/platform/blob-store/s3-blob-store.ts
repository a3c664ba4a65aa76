import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigurationError } from '../config/app-config';
import { DomainError } from '../errors/domain-error';
import { assertValidKey } from './blob-key';
import { BlobStore } from './blob-store';

/** Bytes per part of a multipart upload; S3 wants 5 MiB at least. */
export const S3_PART_SIZE = 8 * 1024 * 1024;
/** Parts of one upload in flight at once: a streamed upload holds about this many parts in memory. */
const S3_UPLOAD_QUEUE = 2;
/** Time to open a connection to the S3 server. */
const S3_CONNECT_TIMEOUT_MS = 10_000;
/**
 * Time a connection may go without a byte sent or received, while the server works or while a
 * download waits for its reader.
 */
const S3_IDLE_TIMEOUT_MS = 120_000;
// What S3 answers for a key that holds nothing: GetObject says NoSuchKey, HeadObject (no body)
// only NotFound. A missing bucket is NoSuchBucket, an error.
const ABSENT_NAMES = new Set(['NoSuchKey', 'NotFound']);

export interface S3BlobStoreOptions {
  bucket: string;
  region: string;
  /** Base URL of an S3-compatible server; unset means AWS S3. */
  endpoint?: string;
  /** Unset: the AWS SDK's default credential chain. */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  forcePathStyle?: boolean;
  /** Prepended to every key: empty, or a folder ending in "/". */
  prefix?: string;
  /** Bytes per part of a multipart upload (S3_PART_SIZE unless given; 5 MiB at least). */
  partSize?: number;
  /** Milliseconds a connection may stay silent before its request fails (2 minutes unless given). */
  idleTimeoutMs?: number;
}

/**
 * A request to the blob store failed for a reason other than an absent key (the server is
 * unreachable, refuses the credentials, has no such bucket …): answered 503, and logged with its
 * cause by the store.
 */
export class BlobStoreUnavailableError extends DomainError {
  constructor(cause: unknown) {
    super(
      'unavailable',
      'BlobStoreUnavailable',
      'The file storage is unavailable at the moment; try again later.',
    );
    this.cause = cause;
  }
}

/**
 * Keeps each blob as the object `<prefix><key>` of an S3 bucket (AWS S3 or any S3-compatible
 * server: MinIO, Ceph, Garage, R2 …), so that every process of an installation shares them.
 * A PutObject or a completed multipart upload replaces an object at once, so readers never see
 * a partial write; streams are uploaded part by part and never held whole in memory.
 */
export class S3BlobStore extends BlobStore implements OnApplicationShutdown {
  private readonly logger = new Logger('S3BlobStore');
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly partSize: number;

  constructor(options: S3BlobStoreOptions) {
    super();
    const config: S3ClientConfig = {
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle ?? false,
      credentials: options.credentials,
      // Without timeouts, an S3 server that stops answering would hold requests forever.
      requestHandler: {
        connectionTimeout: S3_CONNECT_TIMEOUT_MS,
        socketTimeout: options.idleTimeoutMs ?? S3_IDLE_TIMEOUT_MS,
      },
    };
    if (options.endpoint) {
      // Checksums of the newer S3 protocol (CRC32 in trailers of aws-chunked bodies) are not
      // understood by many S3-compatible servers; send and check them only where S3 needs them.
      config.requestChecksumCalculation = 'WHEN_REQUIRED';
      config.responseChecksumValidation = 'WHEN_REQUIRED';
    }
    this.client = new S3Client(config);
    this.bucket = options.bucket;
    this.prefix = options.prefix ?? '';
    this.partSize = options.partSize ?? S3_PART_SIZE;
  }

  /**
   * Throws a ConfigurationError unless the bucket can be reached with the credentials: checked
   * once at start, since a missing bucket otherwise looks like missing keys to HeadObject.
   */
  async checkBucket(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (error) {
      const status = (error as S3ServiceException).$metadata?.httpStatusCode;
      const reason =
        status === 404
          ? 'it does not exist (Bindery does not create it)'
          : status === 403 || status === 401
            ? 'access is denied: check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY'
            : `${(error as Error).name}: ${(error as Error).message}`;
      throw new ConfigurationError([
        `S3_BUCKET ${JSON.stringify(this.bucket)} cannot be used (BLOB_STORE=s3): ${reason}`,
      ]);
    }
  }

  async put(key: string, data: Buffer | NodeJS.ReadableStream): Promise<{ size: number }> {
    const objectKey = this.objectKey(key);
    if (Buffer.isBuffer(data)) {
      await this.request('put', key, () =>
        this.client.send(
          new PutObjectCommand({
            Bucket: this.bucket,
            Key: objectKey,
            Body: data,
            ContentLength: data.length,
          }),
        ),
      );
      return { size: data.length };
    }
    return this.putStream(key, objectKey, data);
  }

  async get(key: string): Promise<Buffer | null> {
    const body = await this.getBody(key);
    if (!body) return null;
    const bytes = await this.request('get', key, () => body.transformToByteArray());
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  async createReadStream(key: string): Promise<NodeJS.ReadableStream | null> {
    return (await this.getBody(key)) as unknown as Readable | null;
  }

  async exists(key: string): Promise<boolean> {
    return (await this.size(key)) !== null;
  }

  async delete(key: string): Promise<void> {
    const objectKey = this.objectKey(key);
    // S3 answers 204 whether or not the key held something.
    await this.request('delete', key, () =>
      this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: objectKey })),
    );
  }

  async size(key: string): Promise<number | null> {
    const objectKey = this.objectKey(key);
    const head = await this.request('head', key, () =>
      orNullIfAbsent(
        this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: objectKey })),
      ),
    );
    return head ? (head.ContentLength ?? 0) : null;
  }

  onApplicationShutdown(): void {
    this.client.destroy();
  }

  /** Closes the client's connections. */
  close(): void {
    this.client.destroy();
  }

  private async getBody(key: string) {
    const objectKey = this.objectKey(key);
    const object = await this.request('get', key, () =>
      orNullIfAbsent(
        this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: objectKey })),
      ),
    );
    return object?.Body ?? null;
  }

  /**
   * Uploads a stream in parts of `partSize` (one PutObject when it is shorter), counting its
   * bytes on the way. A failing input stream aborts the upload and rejects with its own error;
   * a failing upload stops reading the input.
   */
  private async putStream(
    key: string,
    objectKey: string,
    data: NodeJS.ReadableStream,
  ): Promise<{ size: number }> {
    let size = 0;
    const counted = new Transform({
      transform(chunk: Buffer | string, _encoding, callback) {
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
        size += bytes.length;
        callback(null, bytes);
      },
    });
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: objectKey, Body: counted },
      partSize: this.partSize,
      queueSize: S3_UPLOAD_QUEUE,
      leavePartsOnError: false,
    });
    let uploadFailedFirst = false;
    const uploaded = upload.done().catch((error: unknown) => {
      uploadFailedFirst = !counted.destroyed;
      counted.destroy();
      throw error;
    });
    const source = data instanceof Readable ? data : new Readable().wrap(data);
    const [piped, done] = await Promise.allSettled([pipeline(source, counted), uploaded]);
    if (done.status === 'fulfilled') return { size };
    if (piped.status === 'rejected' && !uploadFailedFirst) throw piped.reason;
    throw this.unavailable('put', key, done.reason);
  }

  /** Runs one request, turning any failure into a BlobStoreUnavailableError (logged). */
  private async request<T>(operation: string, key: string, send: () => Promise<T>): Promise<T> {
    try {
      return await send();
    } catch (error) {
      throw this.unavailable(operation, key, error);
    }
  }

  private unavailable(operation: string, key: string, error: unknown): BlobStoreUnavailableError {
    if (error instanceof BlobStoreUnavailableError) return error;
    this.logger.error(
      { err: error, operation, bucket: this.bucket, key },
      'Blob store request failed',
    );
    return new BlobStoreUnavailableError(error);
  }

  private objectKey(key: string): string {
    assertValidKey(key);
    return this.prefix + key;
  }
}

async function orNullIfAbsent<T>(request: Promise<T>): Promise<T | null> {
  try {
    return await request;
  } catch (error) {
    if (error instanceof S3ServiceException && ABSENT_NAMES.has(error.name)) return null;
    throw error;
  }
}
