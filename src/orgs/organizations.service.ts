import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, Not, QueryFailedError } from 'typeorm';
import { Clock } from '../platform/clock/clock';
import { DomainError, invalidInput } from '../platform/errors/domain-error';
import { newId } from '../platform/ids/ids';
import { PageRequest } from '../platform/pagination/keyset';
import { Page } from '../platform/pagination/page';
import { CreateOrganizationDto } from './dto/create-organization.dto';
import { mergeRuleUsers, normaliseMergeRules } from './dto/merge-rules';
import { UpdateOrganizationDto } from './dto/update-organization.dto';
import { Member } from './entities/member.entity';
import { MergeRulesConfiguration, Organization } from './entities/organization.entity';
import { OrganizationsRepository } from './organizations.repository';

const hostnameTaken = (hostname: string) =>
  new DomainError(
    'conflict',
    'OrganizationHostnameTaken',
    `hostname already taken: another organization uses "${hostname}".`,
  );

@Injectable()
export class OrganizationsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly organizations: OrganizationsRepository,
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
  /** The user's memberships, newest organization first; only one's, for a token limited to it. */
  listForUser(
    userId: string,
    request: PageRequest,
    onlyOrganization: string | null = null,
  ): Promise<Page<Member>> {
    return this.organizations.pageMembershipsOfUser(userId, request, onlyOrganization);
  }

  /**
   * Applies the fields present in `input` (absent = unchanged, null clears where allowed) and
   * returns the organization as stored. An empty update changes nothing, not even `updatedAt`.
   */
  update(organization: Organization, input: UpdateOrganizationDto): Promise<Organization> {
    return this.dataSource.transaction(async (tx) => {
      const changes: Partial<Organization> = {};
      if (input.title !== undefined) changes.title = input.title;
      if (input.emailDomains !== undefined) {
        changes.emailDomains = [...new Set(input.emailDomains.map((d) => d.toLowerCase()))];
      }
      if (input.hostname !== undefined) {
        if (input.hostname !== null)
          await this.assertHostnameFree(tx, organization.id, input.hostname);
        changes.hostname = input.hostname;
      }
      if (input.defaultRole !== undefined) changes.defaultRole = input.defaultRole;
      if (input.defaultContent !== undefined) {
        if (input.defaultContent !== null) {
          const { site } = input.defaultContent;
          if (!(await this.organizations.hasSite(organization.id, site, tx))) {
            throw invalidInput(`defaultContent.site: site ${site} not found in this organization.`);
          }
          changes.defaultContent = { type: 'site', site };
        } else {
          changes.defaultContent = null;
        }
      }
      if (input.logo !== undefined) changes.logoUrl = input.logo;
      if (input.sso !== undefined) changes.sso = input.sso;
      if (input.ai !== undefined) changes.ai = input.ai;
      if (input.inviteLinks !== undefined) changes.inviteLinks = input.inviteLinks;
      if (input.mergeRules !== undefined) {
        const mergeRules = normaliseMergeRules(input.mergeRules);
        await this.assertMergeRuleUsersAreMembers(tx, organization.id, mergeRules);
        changes.mergeRules = mergeRules;
      }
      if (Object.keys(changes).length === 0) return organization;

      changes.updatedAt = this.clock.now();
      try {
        await tx.update(Organization, { id: organization.id }, changes);
      } catch (error) {
        // Two organizations claiming the same hostname at once: the unique index decides.
        if (isUniqueViolation(error) && changes.hostname) throw hostnameTaken(changes.hostname);
        throw error;
      }
      return tx.findOneByOrFail(Organization, { id: organization.id });
    });
  }

  private async assertHostnameFree(
    tx: EntityManager,
    organizationId: string,
    hostname: string,
  ): Promise<void> {
    const taken = await tx.existsBy(Organization, { hostname, id: Not(organizationId) });
    if (taken) throw hostnameTaken(hostname);
  }

  private async assertMergeRuleUsersAreMembers(
    tx: EntityManager,
    organizationId: string,
    mergeRules: MergeRulesConfiguration,
  ): Promise<void> {
    const users = mergeRuleUsers(mergeRules);
    if (users.length === 0) return;
    const members = await tx.find(Member, {
      select: { userId: true },
      where: { organizationId, userId: In(users), disabled: false },
    });
    const found = new Set(members.map((m) => m.userId));
    if (mergeRules.type !== 'rules') return;
    for (const [i, rule] of mergeRules.rules.entries()) {
      const stranger = (rule.users ?? []).find((user) => !found.has(user));
      if (stranger !== undefined) {
        throw invalidInput(
          `mergeRules.rules.${i}.users: user ${stranger} is not a member of this organization.`,
        );
      }
    }
  }
}

function isUniqueViolation(error: unknown): boolean {
  return (
    error instanceof QueryFailedError &&
    (error.driverError as { code?: string } | undefined)?.code === '23505'
  );
}
