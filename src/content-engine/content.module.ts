import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ChangeRequestsPresenter } from '../change-requests/change-requests.presenter';
import { OpenAPIModule } from '../openapi/openapi.module';
import { OrganizationsPresenter } from '../orgs/organizations.presenter';
import { SpacesPresenter } from '../spaces/spaces.presenter';
import { UsersPresenter } from '../users/users.presenter';
import { ContentEngine } from './content-engine';
import { ContentObject } from './entities/content-object.entity';
import { Revision } from './entities/revision.entity';
import { FileDownloads } from './files/file-downloads';
import { FilesController } from '../spaces/files/files.controller';
import { ContentGarbageCollector } from './gc/content-garbage-collector';
import { ContentGcSchedule } from './gc/content-gc-schedule';
import { LinksController } from '../spaces/links/links.controller';
import { LinksPresenter } from '../spaces/links/links.presenter';
import { LinksService } from '../spaces/links/links.service';
import { ContentReader } from './reads/content-reader';
import { ContentPresenter } from '../spaces/content/content.presenter';
import { RevisionContent } from '../spaces/content/revision-content';
import { SpaceContentController } from '../spaces/content/space-content.controller';
import { PageSearch } from './search/entities/page-search.entity';
import { PageSection } from './search/entities/page-section.entity';
import { SearchController } from '../spaces/search/search.controller';
import { SearchIndexListener } from './search/search-index.listener';
import { SearchIndexer } from './search/search-indexer';
import { SearchService } from '../spaces/search/search.service';
import { ContentWriter } from './writes/content-writer';
import { PrimaryMovedListeners } from './writes/primary-moved-listeners';
import { SpaceTemplates } from './writes/space-templates';
import { SpaceTemplatesController } from '../change-requests/templates/space-templates.controller';

/** Writes on the primary revision (src/content/writes). */
const WRITES = [ContentWriter, PrimaryMovedListeners, SpaceTemplates];

/** Reads of a revision (src/content/reads); a merge revision embeds the change request. */
const READS = [
  ContentReader,
  ContentPresenter,
  RevisionContent,
  ChangeRequestsPresenter,
  UsersPresenter,
];

/** Links of a revision (src/content/links); locations embed organizations and spaces. */
const LINKS = [LinksService, LinksPresenter, OrganizationsPresenter, SpacesPresenter];

/** Garbage collection of unreachable objects and blobs (src/content/gc). */
const GC = [ContentGarbageCollector, ContentGcSchedule];

/**
 * The content engine: revisions and the immutable objects they are made of; content search.
 * OpenAPIModule supplies the OPENAPI_SPEC_CONTENTS port the api-reference template reads specs
 * through (src/content/openapi); it depends on nothing here, so the import is one-way.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([ContentObject, Revision, PageSection, PageSearch]),
    OpenAPIModule,
  ],
  controllers: [
    SearchController,
    SpaceContentController,
    SpaceTemplatesController,
    LinksController,
    FilesController,
  ],
  providers: [
    ContentEngine,
    SearchIndexer,
    SearchIndexListener,
    SearchService,
    ...READS,
    FileDownloads,
    ...WRITES,
    ...LINKS,
    ...GC,
  ],
  exports: [
    ContentEngine,
    SearchIndexer,
    SearchService,
    ContentReader,
    ContentPresenter,
    RevisionContent,
    LinksService,
    LinksPresenter,
    FileDownloads,
    ...WRITES,
  ],
})
export class ContentModule {}
