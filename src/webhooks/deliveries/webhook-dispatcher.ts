import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../../platform/clock/clock';
import { OutboxEventsRepository } from '../../platform/events/outbox-events.repository';
import { newId } from '../../platform/ids/ids';
import { WebhookDelivery } from '../entities/webhook-delivery.entity';
import { WebhooksRepository } from '../webhooks.repository';
import { DeliveryJobs } from './delivery-jobs';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { webhookWants } from './webhook-matching';

export const DISPATCH_QUEUE = 'webhooks-dispatch';

/** Events read per dispatch transaction. */
const BATCH = 200;

/**
 * Turns recorded events into deliveries: in `sequence` order, one delivery per active webhook
 * of the event's organization that wants it, the event marked dispatched and a job queued for
 * the deliveries, all in one transaction. One dispatcher works at a time (an advisory lock), so
 * deliveries are created in the order of their events.
 */
@Injectable()
export class WebhookDispatcher {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly events: OutboxEventsRepository,
    private readonly webhooks: WebhooksRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly deliveryJobs: DeliveryJobs,
    private readonly clock: Clock,
  ) {}

  /** Dispatches every event waiting; answers how many. */
  async dispatch(): Promise<number> {
    let total = 0;
    for (;;) {
      const count = await this.dispatchBatch();
      total += count;
      if (count < BATCH) return total;
    }
  }

  private dispatchBatch(): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      await this.webhooks.lockDispatch(manager);
      const now = this.clock.now();
      const events = await this.events.takeUndispatched(BATCH, now, manager);
      if (events.length === 0) return 0;
      const organizations = [...new Set(events.map((event) => event.organizationId))];
      const webhooks = await this.webhooks.activeIn(organizations, manager);
      const deliveries: WebhookDelivery[] = [];
      for (const event of events) {
        for (const webhook of webhooks) {
          if (webhook.organizationId !== event.organizationId) continue;
          if (!webhookWants(webhook, event)) continue;
          deliveries.push(
            Object.assign(new WebhookDelivery(), {
              id: newId(),
              webhookId: webhook.id,
              eventId: event.id,
              eventType: event.type,
              resourceKey: event.resourceKey,
              status: 'pending',
              attempts: 0,
              nextAttemptAt: now,
              leaseUntil: null,
              redeliveryOf: null,
              createdAt: now,
              finishedAt: null,
            }),
          );
        }
      }
      await this.deliveries.insertMany(deliveries, manager);
      await this.deliveryJobs.queue(deliveries, manager);
      return events.length;
    });
  }
}
