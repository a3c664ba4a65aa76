export { BlobStore } from './blob-store';
export { BlobStoreModule } from './blob-store.module';
export { FilesystemBlobStore, InvalidBlobKeyError } from './filesystem-blob-store';
