import { type DynamicModule, Module } from '@nestjs/common';
import { BlobStore } from './blob-store';
import { FilesystemBlobStore } from './filesystem-blob-store';

@Module({})
export class BlobStoreModule {
  static register(options: { root: string }): DynamicModule {
    return {
      module: BlobStoreModule,
      providers: [{ provide: BlobStore, useValue: new FilesystemBlobStore(options.root) }],
      exports: [BlobStore],
    };
  }
}
