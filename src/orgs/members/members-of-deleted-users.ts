import { Injectable, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { UserDeletionHooks } from '../../users/user-deletion';
import { MemberEvents } from './member-events';
import { MembersRepository } from './members.repository';

/**
 * When the instance administrator deletes a user, its memberships end as a removal by a member
 * does: each is deleted (its team memberships with it) and a `member_removed` event, with the
 * member as it was, is recorded for its organization, by the system (the administrator is no
 * user). Whether the user was an organization's last admin is checked before.
 */
@Injectable()
export class MembersOfDeletedUsers implements OnModuleInit {
  constructor(
    private readonly hooks: UserDeletionHooks,
    private readonly members: MembersRepository,
    private readonly events: MemberEvents,
  ) {}

  onModuleInit(): void {
    this.hooks.register((manager, userId) => this.remove(manager, userId));
  }

  private async remove(manager: EntityManager, userId: string): Promise<void> {
    for (const organizationId of await this.members.organizationIdsOf(userId, manager)) {
      const record = await this.members.findRecord(organizationId, userId, manager);
      await this.members.delete(organizationId, userId, manager);
      await this.events.record(
        manager,
        'member_removed',
        organizationId,
        userId,
        { kind: 'system' },
        {},
        record ?? undefined,
      );
    }
  }
}
