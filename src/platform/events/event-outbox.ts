import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Clock } from '../clock/clock';
import { newId } from '../ids/ids';
import { type EventActor, OutboxEvent } from './outbox-event.entity';

/** An event as a service records it, in the transaction of its change. */
export interface EventInput {
  /** `space_content_updated`, as GitBook's integration events name theirs. */
  type: string;
  organizationId: string;
  /** What it is about (`{ type: 'space', id }`): delivered in order with its other events. */
  resource: { type: string; id: string };
  /** The space, the site it concerns (webhooks may be limited to some). */
  spaceId?: string;
  siteId?: string;
  actor: EventActor;
  /** The event's own fields (GitBook's for its events: `spaceId`, `revisionId`, …). */
  fields: Record<string, unknown>;
}

/** The actor of a change a user made through the API. */
export const userActor = (userId: string): EventActor => ({ kind: 'user', id: userId });

/** Hears that events were recorded, in their transaction (the webhooks module queues delivery). */
export type OutboxListener = (manager: EntityManager, events: OutboxEvent[]) => Promise<void>;

/**
 * The outbox: services record the events of a change in its transaction, so an event exists
 * exactly when its change committed, and a crash between the commit and the delivery loses
 * nothing. Delivering them is the webhooks module's (it listens here); the platform only keeps
 * them. With no listener (no webhooks module), events are still kept.
 */
@Injectable()
export class EventOutbox {
  private readonly listeners: OutboxListener[] = [];

  constructor(private readonly clock: Clock) {}

  listen(listener: OutboxListener): void {
    this.listeners.push(listener);
  }

  /**
   * Writes the events with `manager`, which must be the change's transaction. The body each
   * carries: `eventId`, `type`, `occurredAt`, `organizationId`, `actor`, then its own fields.
   */
  async record(manager: EntityManager, ...inputs: EventInput[]): Promise<OutboxEvent[]> {
    if (inputs.length === 0) return [];
    const now = this.clock.now();
    const events = inputs.map((input) => {
      const id = `evt_${newId()}`;
      return Object.assign(new OutboxEvent(), {
        id,
        organizationId: input.organizationId,
        type: input.type,
        resourceKey: `${input.resource.type}:${input.resource.id}`,
        spaceId: input.spaceId ?? null,
        siteId: input.siteId ?? null,
        payload: {
          eventId: id,
          type: input.type,
          occurredAt: now.toISOString(),
          organizationId: input.organizationId,
          actor: input.actor,
          ...input.fields,
        },
        createdAt: now,
        dispatchedAt: null,
      });
    });
    await manager.insert(OutboxEvent, events as QueryDeepPartialEntity<OutboxEvent>[]);
    for (const listener of this.listeners) await listener(manager, events);
    return events;
  }
}
