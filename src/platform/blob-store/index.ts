export { BlobStore } from './blob-store';
export { BlobStoreModule, type BlobStoreOptions } from './blob-store.module';
export { FilesystemBlobStore, InvalidBlobKeyError } from './filesystem-blob-store';
export { BlobStoreUnavailableError, S3BlobStore, type S3BlobStoreOptions } from './s3-blob-store';
