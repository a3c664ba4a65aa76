import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OrgsModule } from '../orgs/orgs.module';
import { IntegrationVersion } from './entities/integration-version.entity';
import { Integration } from './entities/integration.entity';
import { IntegrationAccessResolver } from './integration-access.resolver';
import { IntegrationImagesController } from './integration-images.controller';
import { IntegrationsController } from './integrations.controller';
import { IntegrationsPresenter } from './integrations.presenter';
import { IntegrationsRepository } from './integrations.repository';
import { IntegrationsService } from './integrations.service';

/**
 * GitBook's integration platform: integrations published to the instance (manifest, script,
 * development mode) and who sees and changes them.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Integration, IntegrationVersion]), OrgsModule],
  controllers: [IntegrationsController, IntegrationImagesController],
  providers: [
    IntegrationsService,
    IntegrationsRepository,
    IntegrationsPresenter,
    IntegrationAccessResolver,
  ],
  exports: [IntegrationsService, IntegrationsRepository],
})
export class IntegrationsModule {}
