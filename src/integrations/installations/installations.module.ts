import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OrgsModule } from '../../orgs/orgs.module';
import { SitesModule } from '../../sites/sites.module';
import { SpacesModule } from '../../spaces/spaces.module';
import { IntegrationsModule } from '../integrations.module';
import { ComputedContentController } from './computed-content.controller';
import { ComputedContentService } from './computed-content.service';
import { IntegrationInstallation } from './entities/integration-installation.entity';
import { IntegrationSiteInstallation } from './entities/integration-site-installation.entity';
import { IntegrationSpaceInstallation } from './entities/integration-space-installation.entity';
import { InstallationAccessPolicy } from './installation-access.policy';
import { InstallationContentEvents } from './installation-content-events';
import { InstallationEndpointController } from './installation-endpoint.controller';
import { InstallationTokensController } from './installation-tokens.controller';
import { IntegrationCallerAccess } from './integration-caller-access';
import { IntegrationInstallationEvents } from './installation-events';
import { IntegrationRenderController } from './integration-render.controller';
import { IntegrationRenderService } from './integration-render.service';
import { IntegrationSiteReaderAccess } from './integration-site-reader-access';
import { InstallationsController } from './installations.controller';
import { InstallationsPresenter } from './installations.presenter';
import { InstallationsRepository } from './installations.repository';
import { InstallationsService } from './installations.service';
import { OrganizationInstallationsController } from './organization-installations.controller';
import { SiteScriptController } from './site-script.controller';
import { SiteScriptsService } from './site-scripts.service';
import { SpaceIntegrationsController } from './space-integrations.controller';

/**
 * Installations of integrations: on organizations, and below them on spaces and sites; their
 * configurations, who may install, and what a space or site has installed (blocks, scripts,
 * which SiteScriptsService serves and tells the published site of).
 * The integration hears of changes through IntegrationInstallationEvents.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      IntegrationInstallation,
      IntegrationSpaceInstallation,
      IntegrationSiteInstallation,
    ]),
    IntegrationsModule,
    OrgsModule,
    SpacesModule,
    SitesModule,
  ],
  controllers: [
    InstallationsController,
    OrganizationInstallationsController,
    SpaceIntegrationsController,
    IntegrationRenderController,
    InstallationTokensController,
    InstallationEndpointController,
    SiteScriptController,
    ComputedContentController,
  ],
  providers: [
    InstallationsService,
    InstallationsRepository,
    InstallationsPresenter,
    InstallationAccessPolicy,
    IntegrationCallerAccess,
    InstallationContentEvents,
    IntegrationInstallationEvents,
    IntegrationRenderService,
    IntegrationSiteReaderAccess,
    SiteScriptsService,
    ComputedContentService,
  ],
  exports: [InstallationsService, IntegrationInstallationEvents],
})
export class IntegrationInstallationsModule {}
