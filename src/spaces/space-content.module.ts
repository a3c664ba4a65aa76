import { Module } from '@nestjs/common';
import { ContentEngineModule } from '../content-engine/content-engine.module';
import { MembersModule } from '../orgs/members/members.module';
import { OrganizationsPresenter } from '../orgs/organizations.presenter';
import { UsersPresenter } from '../users/users.presenter';
import { ContentPresenter } from './content/content.presenter';
import { MergedChangeRequests } from './content/merged-change-requests';
import { PageMetaLinks } from './content/page-meta-links';
import { RevisionContent } from './content/revision-content';
import { SpaceContentController } from './content/space-content.controller';
import { SpaceRedirects } from './content/space-redirects';
import { SpaceSites } from './content/space-sites';
import { TranslatedSpaces } from './content/translated-spaces';
import { EmbedsController } from './embeds/embeds.controller';
import { EmbedsService } from './embeds/embeds.service';
import { UrlEmbedsController } from './embeds/url-embeds.controller';
import { FilesController } from './files/files.controller';
import { LinksController } from './links/links.controller';
import { LinksPresenter } from './links/links.presenter';
import { LinksService } from './links/links.service';
import { OrganizationSearchController, SearchController } from './search/search.controller';
import { SearchHits } from './search/search-hits';
import { SearchPlanner } from './search/search-planner';
import { SearchRepository } from './search/search.repository';
import { SearchService } from './search/search.service';
import { SpacesPresenter } from './spaces.presenter';

/**
 * Reads of a revision as GitBook shapes them; a merge revision embeds its change request, a
 * page's meta links name its translations.
 */
const READS = [
  ContentPresenter,
  RevisionContent,
  MergedChangeRequests,
  UsersPresenter,
  PageMetaLinks,
  TranslatedSpaces,
];

/**
 * The redirects a space asks for, made by the sites that publish it; the structure of those
 * sites, read and written by a Git sync of the space.
 */
const PORTS = [SpaceRedirects, SpaceSites];

/** Links of a revision; locations embed organizations and spaces. */
const LINKS = [LinksService, LinksPresenter, OrganizationsPresenter, SpacesPresenter];

/**
 * The HTTP surfaces of space content over the content engine: pages and files of a revision,
 * file downloads, links and backlinks, search in a space or an organization, and embeds of the
 * external pages content links to. Change requests read their content through the same
 * services (they import this module).
 */
@Module({
  imports: [ContentEngineModule, MembersModule],
  controllers: [
    SearchController,
    OrganizationSearchController,
    SpaceContentController,
    LinksController,
    FilesController,
    EmbedsController,
    UrlEmbedsController,
  ],
  providers: [
    ...READS,
    ...PORTS,
    ...LINKS,
    SearchService,
    SearchRepository,
    SearchPlanner,
    SearchHits,
    EmbedsService,
  ],
  exports: [
    ContentEngineModule,
    ContentPresenter,
    RevisionContent,
    MergedChangeRequests,
    SpaceRedirects,
    SpaceSites,
    TranslatedSpaces,
    PageMetaLinks,
    LinksService,
    LinksPresenter,
    SearchService,
  ],
})
export class SpaceContentModule {}
