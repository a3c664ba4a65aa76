import { Module } from '@nestjs/common';
import { StorageController } from './storage.controller';
import { StorageUploads } from './storage-uploads';
import { StorageUploadsController } from './storage-uploads.controller';

/**
 * Files sent to the organization by signed URL (GitBook's storage uploads), kept until the
 * operation that names them takes them: a custom font's files.
 */
@Module({
  controllers: [StorageController, StorageUploadsController],
  providers: [StorageUploads],
  exports: [StorageUploads],
})
export class StorageModule {}
