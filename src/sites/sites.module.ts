import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MembersModule } from '../orgs/members/members.module';
import { OrgsModule } from '../orgs/orgs.module';
import { SpacesModule } from '../spaces/spaces.module';
import { SiteAdaptiveSchemaController } from './adaptive/adaptive-schema.controller';
import { SiteAdaptiveSchemaService } from './adaptive/adaptive-schema.service';
import { SiteCustomizationController } from './customization/customization.controller';
import { SiteCustomizationService } from './customization/customization.service';
import { Site } from './entities/site.entity';
import { SiteShareLink } from './entities/site-share-link.entity';
import { PublishedSiteController } from './published/published-site.controller';
import { SiteAccessPolicy } from './site-access.policy';
import { PublishedSiteAccessPolicy } from './published/published-site-access';
import { PublishedSiteService } from './published/published-site.service';
import { AutomaticSiteRedirects } from './redirects/automatic-redirects.listener';
import { SiteRedirect } from './redirects/entities/site-redirect.entity';
import { SiteRedirectDestinations } from './redirects/redirect-destinations';
import { SiteRedirectsController } from './redirects/site-redirects.controller';
import { SiteRedirectsPresenter } from './redirects/site-redirects.presenter';
import { SiteRedirectsRepository } from './redirects/site-redirects.repository';
import { SiteRedirectsService } from './redirects/site-redirects.service';
import { SiteShareLinksController } from './share-links/share-links.controller';
import { SiteShareLinksService } from './share-links/share-links.service';
import { SiteShareLinksRepository } from './share-links/site-share-links.repository';
import { SiteWritesService } from './site-writes.service';
import { SitesController } from './sites.controller';
import { SitesPresenter } from './sites.presenter';
import { SitesRepository } from './sites.repository';
import { SitesService } from './sites.service';
import {
  STRUCTURE_CONTROLLERS,
  STRUCTURE_ENTITIES,
  STRUCTURE_PROVIDERS,
} from './structure/structure.providers';

/**
 * Docs sites: their settings, publishing and published profile, share links, redirects,
 * adaptive schema and customization; and their structure (site spaces, sections, section
 * groups) in `structure/`, which shares this module because the two need each other's services.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([Site, SiteShareLink, SiteRedirect, ...STRUCTURE_ENTITIES]),
    SpacesModule,
    OrgsModule,
    MembersModule,
  ],
  controllers: [
    SitesController,
    PublishedSiteController,
    SiteShareLinksController,
    SiteRedirectsController,
    SiteAdaptiveSchemaController,
    SiteCustomizationController,
    ...STRUCTURE_CONTROLLERS,
  ],
  providers: [
    SitesRepository,
    SiteShareLinksRepository,
    SitesService,
    SiteWritesService,
    SitesPresenter,
    SiteShareLinksService,
    SiteRedirectsRepository,
    SiteRedirectsService,
    SiteRedirectsPresenter,
    SiteRedirectDestinations,
    AutomaticSiteRedirects,
    SiteAdaptiveSchemaService,
    SiteCustomizationService,
    PublishedSiteService,
    PublishedSiteAccessPolicy,
    SiteAccessPolicy,
    ...STRUCTURE_PROVIDERS,
  ],
  exports: [SitesService],
})
export class SitesModule {}
