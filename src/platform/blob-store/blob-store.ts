/**
 * Storage for opaque blobs (uploaded files, generated PDFs, OpenAPI documents) addressed by key.
 * Abstract so it can serve as the Nest injection token: FilesystemBlobStore (DATA_DIR/blobs) or
 * S3BlobStore (BLOB_STORE=s3), which pass one contract test (test/platform/blob-store-contract.ts).
 */
export abstract class BlobStore {
  /** Stores `data` under `key`, replacing any previous blob; readers never see a partial write. */
  abstract put(key: string, data: Buffer | NodeJS.ReadableStream): Promise<{ size: number }>;

  /** The whole blob, or null when there is none under `key`. */
  abstract get(key: string): Promise<Buffer | null>;

  /** A stream of the blob, or null when there is none under `key`. */
  abstract createReadStream(key: string): Promise<NodeJS.ReadableStream | null>;

  abstract exists(key: string): Promise<boolean>;

  /** Removes the blob; deleting a key that holds nothing is not an error. */
  abstract delete(key: string): Promise<void>;

  /** Size in bytes, or null when there is no blob under `key`. */
  abstract size(key: string): Promise<number | null>;
}
