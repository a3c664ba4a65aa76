import { type DynamicModule, Module, type Provider } from '@nestjs/common';
import { BlobStore } from './blob-store';
import { FilesystemBlobStore } from './filesystem-blob-store';
import { S3BlobStore, type S3BlobStoreOptions } from './s3-blob-store';

/**
 * Where the blobs go: files under `root` (removed at shutdown when `temporary`), or the objects
 * of an S3 bucket.
 */
export type BlobStoreOptions = { root: string; temporary?: boolean } | { s3: S3BlobStoreOptions };

@Module({})
export class BlobStoreModule {
  static register(options: BlobStoreOptions): DynamicModule {
    const provider: Provider =
      'root' in options
        ? {
            provide: BlobStore,
            useFactory: () => new FilesystemBlobStore(options.root, options.temporary),
          }
        : {
            provide: BlobStore,
            useFactory: async () => {
              const store = new S3BlobStore(options.s3);
              try {
                await store.checkBucket();
              } catch (error) {
                store.close();
                throw error;
              }
              return store;
            },
          };
    return { module: BlobStoreModule, providers: [provider], exports: [BlobStore] };
  }
}
