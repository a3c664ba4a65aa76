import { Injectable, OnModuleInit } from '@nestjs/common';
import { DomainError } from '../platform/errors/domain-error';
import { PolicyService } from '../platform/policy/policy.service';
import type { ResolvedAccess } from '../platform/policy/access';
import type { User } from './entities/user.entity';
import { UsersService } from './users.service';

declare module '../platform/policy/access' {
  interface ResourceTypes {
    /** A user, as another caller sees them. */
    user: true;
  }
}

export type UserAccess = ResolvedAccess<User> & { entity: User };

/**
 * Who sees a user: themselves, and the users who share an organization with them; nobody
 * holds a role on a user. (Site readers see the members of their site's organization, by the
 * sites module's rule, with what may be public.)
 */
@Injectable()
export class UserAccessPolicy implements OnModuleInit {
  constructor(
    private readonly policy: PolicyService,
    private readonly users: UsersService,
  ) {}

  onModuleInit(): void {
    this.policy.register('user', {
      resolver: {
        resolve: async (callerId, userId): Promise<UserAccess | null> => {
          try {
            const user = await this.users.getVisibleTo(callerId, userId);
            return { resource: 'user', id: user.id, organizationId: '', role: null, entity: user };
          } catch (error) {
            if (error instanceof DomainError && error.kind === 'not_found') return null;
            throw error;
          }
        },
      },
    });
  }
}
