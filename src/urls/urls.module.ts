import { Module } from '@nestjs/common';
import { ChangeRequestsModule } from '../change-requests/change-requests.module';
import { CollectionsModule } from '../collections/collections.module';
import { SitesModule } from '../sites/sites.module';
import { SpacesModule } from '../spaces/spaces.module';
import { ContentByUrlController } from './content-by-url.controller';
import { ContentByUrlService } from './content-by-url.service';

/**
 * URLs resolved to what they name (`getContentByUrl`): Bindery's app URLs and published sites'
 * URLs, across collections, spaces, change requests and sites.
 */
@Module({
  imports: [SpacesModule, CollectionsModule, ChangeRequestsModule, SitesModule],
  controllers: [ContentByUrlController],
  providers: [ContentByUrlService],
})
export class UrlsModule {}
