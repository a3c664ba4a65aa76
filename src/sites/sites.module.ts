import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CollectionsModule } from '../collections/collections.module';
import { ContentEngineModule } from '../content-engine/content-engine.module';
import { MembersModule } from '../orgs/members/members.module';
import { OrgsModule } from '../orgs/orgs.module';
import { StorageModule } from '../orgs/storage/storage.module';
import { RevalidationModule } from '../platform/revalidation/revalidation.module';
import { SpacesModule } from '../spaces/spaces.module';
import { UsersModule } from '../users/users.module';
import { SiteAdaptiveSchemaController } from './adaptive/adaptive-schema.controller';
import { SiteAdaptiveSchemaService } from './adaptive/adaptive-schema.service';
import { SiteCustomizationController } from './customization/customization.controller';
import { SiteCustomizationService } from './customization/customization.service';
import { CustomizationFonts } from './customization/customization-fonts';
import { CustomHostnamesController } from './custom-hostnames/custom-hostnames.controller';
import { CustomHostnamesPresenter } from './custom-hostnames/custom-hostnames.presenter';
import { CustomHostnamesService } from './custom-hostnames/custom-hostnames.service';
import { HostnameDns } from './custom-hostnames/hostname-dns';
import { CustomFontFilesController } from './custom-fonts/custom-font-files.controller';
import { CustomFontsController } from './custom-fonts/custom-fonts.controller';
import { CustomFontsPresenter } from './custom-fonts/custom-fonts.presenter';
import { CustomFontsRepository } from './custom-fonts/custom-fonts.repository';
import { CustomFontsService } from './custom-fonts/custom-fonts.service';
import { CustomFont } from './custom-fonts/entities/custom-font.entity';
import { Site } from './entities/site.entity';
import { SiteInsightsCounter } from './entities/site-insights-counter.entity';
import { SitePublishingAuth } from './entities/site-publishing-auth.entity';
import { SiteShareLink } from './entities/site-share-link.entity';
import { SiteInsightsController } from './insights/site-insights.controller';
import { SiteInsightsRepository } from './insights/site-insights.repository';
import { SiteInsightsService } from './insights/site-insights.service';
import { PublishedSiteController } from './published/published-site.controller';
import { SiteAccessPolicy } from './site-access.policy';
import { SitePermissionsController } from './permissions/site-permissions.controller';
import { PublishedSiteAccessPolicy } from './published/published-site-access';
import { PublishedSiteService } from './published/published-site.service';
import { SitePreviewController } from './published/site-preview.controller';
import { SitePreviewService } from './published/site-preview.service';
import { PublishedContentRepository } from './published/published-content.repository';
import { PublishedLookupController } from './published/lookup/published-lookup.controller';
import { PublishedLookupService } from './published/lookup/published-lookup.service';
import { SiteReaderAccess } from './published/site-reader-access';
import { SiteScripts } from './published/site-scripts';
import { SiteVisitorAuth } from './published/site-visitor-auth';
import { SitePublishingAuthController } from './publishing-auth/site-publishing-auth.controller';
import { SitePublishingAuthRepository } from './publishing-auth/site-publishing-auth.repository';
import { SitePublishingAuthService } from './publishing-auth/site-publishing-auth.service';
import { PublishedSpaceRevalidation } from './revalidation/published-space-revalidation';
import { AutomaticSiteRedirects } from './redirects/automatic-redirects.listener';
import { SiteRedirect } from './redirects/entities/site-redirect.entity';
import { SiteRedirectDestinations } from './redirects/redirect-destinations';
import { SiteRedirectsController } from './redirects/site-redirects.controller';
import { SiteRedirectsPresenter } from './redirects/site-redirects.presenter';
import { SiteRedirectsRepository } from './redirects/site-redirects.repository';
import { SiteRedirectsService } from './redirects/site-redirects.service';
import { SpaceRedirectsRegistration } from './redirects/space-redirects.registration';
import { SiteShareLinksController } from './share-links/share-links.controller';
import { SiteShareLinksService } from './share-links/share-links.service';
import { SiteShareLinksRepository } from './share-links/site-share-links.repository';
import { SiteWritesService } from './site-writes.service';
import { SitesController } from './sites.controller';
import { SitesPresenter } from './sites.presenter';
import { SitesRepository } from './sites.repository';
import { SitesService } from './sites.service';
import { SiteSearchController } from './search/site-search.controller';
import { SiteSearchService } from './search/site-search.service';
import {
  STRUCTURE_CONTROLLERS,
  STRUCTURE_ENTITIES,
  STRUCTURE_PROVIDERS,
} from './structure/structure.providers';
import { SiteStructureRepository } from './structure/site-structure.repository';

/**
 * Docs sites: their settings, publishing and published profile, share links, redirects,
 * visitor authentication, insights, adaptive schema, customization (with the organization's
 * custom fonts, `custom-fonts/`), custom hostnames and their DNS checks (`custom-hostnames/`) and search; and their structure (site
 * spaces, sections, section groups) in `structure/`, which shares this module because the two
 * need each other's services. Their changes, and those of the spaces they publish, are told to
 * the site renderer (Revalidation).
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      Site,
      SiteShareLink,
      SitePublishingAuth,
      SiteInsightsCounter,
      SiteRedirect,
      CustomFont,
      ...STRUCTURE_ENTITIES,
    ]),
    SpacesModule,
    CollectionsModule,
    OrgsModule,
    MembersModule,
    ContentEngineModule,
    RevalidationModule,
    UsersModule,
    StorageModule,
  ],
  controllers: [
    SitesController,
    SitePermissionsController,
    PublishedSiteController,
    SitePreviewController,
    PublishedLookupController,
    SiteShareLinksController,
    SiteRedirectsController,
    SiteAdaptiveSchemaController,
    SiteCustomizationController,
    CustomFontsController,
    CustomFontFilesController,
    CustomHostnamesController,
    SitePublishingAuthController,
    SiteInsightsController,
    SiteSearchController,
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
    SpaceRedirectsRegistration,
    SiteAdaptiveSchemaService,
    SiteCustomizationService,
    CustomizationFonts,
    CustomFontsRepository,
    CustomFontsService,
    CustomFontsPresenter,
    HostnameDns,
    CustomHostnamesService,
    CustomHostnamesPresenter,
    PublishedSiteService,
    SitePreviewService,
    PublishedSiteAccessPolicy,
    PublishedContentRepository,
    PublishedLookupService,
    SiteReaderAccess,
    SiteScripts,
    { provide: SiteVisitorAuth, useExisting: SitePublishingAuthService },
    SiteAccessPolicy,
    SitePublishingAuthRepository,
    SitePublishingAuthService,
    SiteInsightsRepository,
    SiteInsightsService,
    PublishedSpaceRevalidation,
    SiteSearchService,
    ...STRUCTURE_PROVIDERS,
  ],
  exports: [
    SitesService,
    PublishedLookupService,
    SitesPresenter,
    SitePublishingAuthService,
    SiteSearchService,
    SiteInsightsService,
    SiteScripts,
    SiteStructureRepository,
  ],
})
export class SitesModule {}
