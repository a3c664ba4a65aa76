import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { ResolvedAccess } from '../platform/policy/access';
import { AccessResolver, PolicyService } from '../platform/policy/policy.service';
import { Member } from './entities/member.entity';
import { Organization } from './entities/organization.entity';

/** A user's access to an organization is its membership: its role, or null for a guest. */
@Injectable()
export class OrganizationAccessResolver implements AccessResolver, OnModuleInit {
  constructor(
    @InjectRepository(Member) private readonly members: Repository<Member>,
    private readonly policy: PolicyService,
  ) {}

  onModuleInit(): void {
    this.policy.register('organization', this);
  }

  /** One query: the membership and the organization it opens, which handlers then use. */
  async resolve(
    userId: string,
    organizationId: string,
  ): Promise<ResolvedAccess<Organization> | null> {
    const member = await this.members
      .createQueryBuilder('m')
      .innerJoinAndSelect('m.organization', 'o')
      .where('m.organization_id = :organizationId AND m.user_id = :userId AND NOT m.disabled', {
        organizationId,
        userId,
      })
      .getOne();
    if (!member?.organization) return null;
    return {
      resource: 'organization',
      id: organizationId,
      organizationId,
      role: member.role,
      entity: member.organization,
    };
  }
}
