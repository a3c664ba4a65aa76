import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';
import { Clock } from '../platform/clock/clock';
import { newId } from '../platform/ids/ids';
import { paginate, PageRequest } from '../platform/pagination/keyset';
import { Page } from '../platform/pagination/page';
import { CreateOrganizationDto } from './dto/create-organization.dto';
import { Member } from './entities/member.entity';
import { Organization } from './entities/organization.entity';

@Injectable()
export class OrganizationsService {
  constructor(
    @InjectRepository(Member) private readonly members: Repository<Member>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  /** Creates the organization with its creator as admin member, in one transaction. */
  create(
    creatorId: string,
    input: CreateOrganizationDto,
    manager?: EntityManager,
  ): Promise<Organization> {
    const work = async (tx: EntityManager) => {
      const now = this.clock.now();
      const organization = tx.create(Organization, {
        id: newId(),
        title: input.title.trim(),
        emailDomains: [...new Set((input.emailDomains ?? []).map((d) => d.toLowerCase()))],
        hostname: null,
        type: input.type ?? 'business',
        useCase: input.useCase ?? null,
        communityType: input.communityType ?? null,
        defaultRole: 'read',
        defaultContent: null,
        sso: false,
        ai: true,
        inviteLinks: true,
        mergeRules: { type: 'none' },
        logoUrl: null,
        customHostname: null,
        onboardingPreferences: input.onboardingPreferences
          ? { ...input.onboardingPreferences }
          : null,
        createdAt: now,
        updatedAt: now,
      });
      await tx.insert(Organization, organization);
      await tx.insert(Member, {
        organizationId: organization.id,
        userId: creatorId,
        role: 'admin',
        sso: false,
        disabled: false,
        joinedAt: now,
        lastSeenAt: null,
      });
      return organization;
    };
    return manager ? work(manager) : this.dataSource.transaction(work);
  }

  /** The organizations the user is a member of (guest included), newest first. */
  listForUser(userId: string, request: PageRequest): Promise<Page<Member>> {
    const query = this.members
      .createQueryBuilder('m')
      .innerJoinAndSelect('m.organization', 'o')
      .where('m.user_id = :userId AND NOT m.disabled', { userId });
    return paginate(query, request, {
      keys: [
        { sql: 'o.created_at', of: (m) => m.organization!.createdAt },
        { sql: 'o.id', of: (m) => m.organizationId },
      ],
      direction: 'DESC',
    });
  }
}
