import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { ResolvedAccess } from '../platform/policy/access';
import { AccessResolver, PolicyService } from '../platform/policy/policy.service';
import { Member } from './entities/member.entity';

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

  async resolve(userId: string, organizationId: string): Promise<ResolvedAccess | null> {
    const member = await this.members.findOne({
      // Select a non-null column too: TypeORM reads a row of only nulls (a guest) as no row.
      select: { userId: true, role: true },
      where: { organizationId, userId, disabled: false },
    });
    if (!member) return null;
    return { resource: 'organization', id: organizationId, organizationId, role: member.role };
  }
}
