import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { EventOutbox } from '../../platform/events/event-outbox';
import type { EventActor } from '../../platform/events/outbox-event.entity';
import type { MemberRecord } from './members.repository';
import { MembersPresenter } from './members.presenter';
import { MembersRepository } from './members.repository';

type MemberEventType = 'member_added' | 'member_removed' | 'member_role_updated';

/**
 * The events of an organization's members, recorded in the transaction of their change, with
 * the member as the API presents it (for a removal, as it was).
 */
@Injectable()
export class MemberEvents {
  constructor(
    private readonly outbox: EventOutbox,
    private readonly members: MembersRepository,
    private readonly presenter: MembersPresenter,
  ) {}

  /** The event of member `userId` now (read in the transaction), or of `record` when given. */
  async record(
    manager: EntityManager,
    type: MemberEventType,
    organizationId: string,
    userId: string,
    actor: EventActor,
    fields: Record<string, unknown> = {},
    record?: MemberRecord,
  ): Promise<void> {
    const member = record ?? (await this.members.findRecord(organizationId, userId, manager));
    await this.outbox.record(manager, {
      type,
      organizationId,
      resource: { type: 'member', id: userId },
      actor,
      fields: {
        userId,
        ...fields,
        ...(member ? { member: this.presenter.present(member) } : {}),
      },
    });
  }
}
