import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OrgsModule } from '../orgs/orgs.module';
import { IntegrationVersion } from './entities/integration-version.entity';
import { IntegrationDispatcher } from './events/integration-dispatcher';
import { IntegrationEndpoint } from './events/integration-endpoint';
import { IntegrationEndpointController } from './events/integration-endpoint.controller';
import { IntegrationEvent } from './events/integration-event.entity';
import { IntegrationEventsController } from './events/integration-events.controller';
import { IntegrationEventsRepository } from './events/integration-events.repository';
import { IntegrationTasks } from './events/integration-tasks';
import { IntegrationTasksController } from './events/integration-tasks.controller';
import { Integration } from './entities/integration.entity';
import { IntegrationAccessResolver } from './integration-access.resolver';
import { IntegrationImagesController } from './integration-images.controller';
import { IntegrationsController } from './integrations.controller';
import { IntegrationsPresenter } from './integrations.presenter';
import { IntegrationsRepository } from './integrations.repository';
import { IntegrationsService } from './integrations.service';
import { IntegrationRuntime } from './runtime/integration-runtime';
import { OutboundRelay } from './runtime/outbound-relay';
import { TraceCollector } from './runtime/trace-collector';

/**
 * GitBook's integration platform: integrations published to the instance (manifest, script,
 * development mode), who sees and changes them, and their scripts running in workerd sandboxes
 * with the events sent to them.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([Integration, IntegrationVersion, IntegrationEvent]),
    OrgsModule,
  ],
  controllers: [
    IntegrationsController,
    IntegrationEventsController,
    IntegrationImagesController,
    IntegrationEndpointController,
    IntegrationTasksController,
  ],
  providers: [
    IntegrationsService,
    IntegrationsRepository,
    IntegrationsPresenter,
    IntegrationAccessResolver,
    OutboundRelay,
    TraceCollector,
    IntegrationRuntime,
    IntegrationDispatcher,
    IntegrationEventsRepository,
    IntegrationTasks,
    IntegrationEndpoint,
  ],
  exports: [
    IntegrationsService,
    IntegrationsRepository,
    IntegrationsPresenter,
    IntegrationDispatcher,
    IntegrationEndpoint,
  ],
})
export class IntegrationsModule {}
