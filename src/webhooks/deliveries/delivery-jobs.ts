import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../platform/clock/clock';
import { JobsService } from '../../platform/jobs/jobs.service';

export const DELIVER_QUEUE = 'webhooks-deliver';

/**
 * A delivery job: deliveries to attempt, one lane per webhook (a slow endpoint holds up only
 * its own), each in delivery order.
 */
export interface DeliverJob {
  lanes: string[][];
}

/** A delivery to queue: due now unless `nextAttemptAt` says later. */
export interface DeliveryToQueue {
  id: string;
  webhookId: string;
  nextAttemptAt?: Date | null;
}

/**
 * Queues delivery jobs. The deliveries due now go in one job, a lane per webhook; one due
 * later gets a job of its own, starting then.
 */
@Injectable()
export class DeliveryJobs {
  constructor(
    private readonly jobs: JobsService,
    private readonly clock: Clock,
  ) {}

  /** The rest of a lane's deliveries, due now, as a job of their own. */
  async requeue(deliveryIds: string[]): Promise<void> {
    if (deliveryIds.length === 0) return;
    await this.jobs.send<DeliverJob>(DELIVER_QUEUE, { lanes: [deliveryIds] });
  }

  /** With `manager`, in its transaction: the jobs exist once it commits. */
  async queue(deliveries: DeliveryToQueue[], manager?: EntityManager): Promise<void> {
    const now = this.clock.now().getTime();
    const due = new Map<string, string[]>();
    for (const delivery of deliveries) {
      const wait = (delivery.nextAttemptAt?.getTime() ?? now) - now;
      if (wait > 0) {
        await this.jobs.send<DeliverJob>(
          DELIVER_QUEUE,
          { lanes: [[delivery.id]] },
          { manager, startAfter: new Date(Date.now() + wait) },
        );
      } else {
        due.set(delivery.webhookId, [...(due.get(delivery.webhookId) ?? []), delivery.id]);
      }
    }
    if (due.size > 0) {
      await this.jobs.send<DeliverJob>(DELIVER_QUEUE, { lanes: [...due.values()] }, { manager });
    }
  }
}
