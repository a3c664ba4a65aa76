import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** What a module does when a user is deleted, in the deletion's transaction. */
export type UserDeletionHook = (manager: EntityManager, userId: string) => Promise<void>;

/**
 * The port through which modules above users take part in deleting a user (the instance
 * administrator's `adminDeleteUser`): organizations remove its memberships, with their
 * `member_removed` events. Hooks register at `onModuleInit` and run in registration order,
 * before the user's own rows change.
 */
@Injectable()
export class UserDeletionHooks {
  private readonly hooks: UserDeletionHook[] = [];

  register(hook: UserDeletionHook): void {
    this.hooks.push(hook);
  }

  async run(manager: EntityManager, userId: string): Promise<void> {
    for (const hook of this.hooks) await hook(manager, userId);
  }
}
