import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { EventOutbox } from '../platform/events/event-outbox';
import type { EventActor } from '../platform/events/outbox-event.entity';
import { ChangeRequestsPresenter } from './change-requests.presenter';
import type { ChangeRequestView } from './change-request-view';
import type { ChangeRequest } from './entities/change-request.entity';

export type ChangeRequestEventType =
  | 'change_request_opened'
  | 'change_request_updated'
  | 'change_request_merged'
  | 'change_request_closed'
  | 'change_request_review_submitted';

/**
 * The events of change requests, recorded in the transaction of their change, each with the
 * change request as the API presents it: opened, updated (subject, description, status),
 * merged (with the revision it made), closed (archived), review submitted (with the review).
 */
@Injectable()
export class ChangeRequestEvents {
  constructor(
    private readonly outbox: EventOutbox,
    private readonly presenter: ChangeRequestsPresenter,
  ) {}

  async record(
    manager: EntityManager,
    type: ChangeRequestEventType,
    view: ChangeRequestView,
    actor: EventActor,
    fields: Record<string, unknown> = {},
  ): Promise<void> {
    await this.recordOf(manager, type, view.changeRequest, actor, {
      ...fields,
      changeRequest: this.presenter.present(view),
    });
  }

  /** An event of the change request carrying `fields` (what it is about) but not the request. */
  async recordOf(
    manager: EntityManager,
    type: ChangeRequestEventType,
    changeRequest: ChangeRequest,
    actor: EventActor,
    fields: Record<string, unknown>,
  ): Promise<void> {
    await this.outbox.record(manager, {
      type,
      organizationId: changeRequest.organizationId,
      resource: { type: 'changeRequest', id: changeRequest.id },
      spaceId: changeRequest.spaceId,
      actor,
      fields: { spaceId: changeRequest.spaceId, changeRequestId: changeRequest.id, ...fields },
    });
  }
}
