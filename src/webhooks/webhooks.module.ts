import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DeliveryJobs } from './deliveries/delivery-jobs';
import { WebhookDeliveriesRepository } from './deliveries/webhook-deliveries.repository';
import { WebhookDispatcher } from './deliveries/webhook-dispatcher';
import { WebhookJobs } from './deliveries/webhook-jobs';
import { WebhookSender } from './deliveries/webhook-sender';
import { WebhookDeliveryAttempt } from './entities/webhook-delivery-attempt.entity';
import { WebhookDelivery } from './entities/webhook-delivery.entity';
import { Webhook } from './entities/webhook.entity';
import { WebhooksController } from './webhooks.controller';
import { WebhooksPresenter } from './webhooks.presenter';
import { WebhooksRepository } from './webhooks.repository';
import { WebhooksService } from './webhooks.service';

/**
 * Webhooks: an organization's endpoints, and the delivery of the events of the outbox to them
 * (dispatch, ordered delivery per resource, retries, signatures, disabling), in the background.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Webhook, WebhookDelivery, WebhookDeliveryAttempt])],
  controllers: [WebhooksController],
  providers: [
    WebhooksService,
    WebhooksRepository,
    WebhooksPresenter,
    WebhookDeliveriesRepository,
    DeliveryJobs,
    WebhookDispatcher,
    WebhookSender,
    WebhookJobs,
  ],
})
export class WebhooksModule {}
