import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { Clock } from '../../platform/clock/clock';
import { forbidden, invalidInput, notFound } from '../../platform/errors/domain-error';
import { highestRole, type Role } from '../../platform/policy/roles';
import { User } from '../../users/entities/user.entity';
import { Member } from '../entities/member.entity';
import { Organization } from '../entities/organization.entity';
import { InviteUsersDto } from './dto/invite-users.dto';
import { OrganizationInvite } from './entities/organization-invite.entity';
import { normaliseInvitees } from './invitees';

export interface InviteUsersResult {
  /** Users added, in the order of the request. */
  users: string[];
  /** Addresses that belong to no user of this instance. */
  unknownEmails: string[];
}

const membershipDisabled = () =>
  forbidden('Your membership of this organization is disabled; an admin can enable it again.');

/** Bringing users into an organization: invited by an admin, by email domain, by invite link. */
@Injectable()
export class InvitesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  /**
   * Adds the existing users with these addresses as members, in one transaction. Members stay
   * as they are (role unchanged); addresses of no user are reported, not dropped silently.
   */
  inviteUsers(organization: Organization, input: InviteUsersDto): Promise<InviteUsersResult> {
    const defaultRole = input.role !== undefined ? input.role : organization.defaultRole;
    const invitees = normaliseInvitees(input.emails, defaultRole);
    return this.dataSource.transaction(async (tx) => {
      const users = await tx.find(User, {
        select: { id: true, email: true },
        where: { email: In(invitees.map((invitee) => invitee.email)) },
      });
      const userIds = new Map(users.map((user) => [user.email, user.id]));
      const now = this.clock.now();
      const candidates = invitees.flatMap((invitee) => {
        const userId = userIds.get(invitee.email);
        return userId ? [{ userId, role: invitee.role }] : [];
      });
      const added = new Set<string>();
      if (candidates.length > 0) {
        const result = await tx
          .createQueryBuilder()
          .insert()
          .into(Member)
          .values(
            candidates.map(({ userId, role }) => ({
              organizationId: organization.id,
              userId,
              role,
              sso: input.sso ?? false,
              disabled: false,
              joinedAt: now,
              lastSeenAt: null,
            })),
          )
          .orIgnore()
          .returning('user_id')
          .execute();
        for (const row of result.raw as { user_id: string }[]) added.add(row.user_id);
      }
      return {
        users: candidates.filter(({ userId }) => added.has(userId)).map(({ userId }) => userId),
        unknownEmails: invitees
          .filter((invitee) => !userIds.has(invitee.email))
          .map((invitee) => invitee.given),
      };
    });
  }

  /**
   * Joins as a member with the organization's default role when the user's email domain is
   * one of the organization's. Users are created by the instance administrator, so their
   * addresses count as verified. A member stays as it is.
   */
  joinByEmailDomain(user: User, organizationId: string): Promise<void> {
    return this.dataSource.transaction(async (tx) => {
      const organization = await this.organization(tx, organizationId);
      const membership = await this.membership(tx, organizationId, user.id);
      if (membership) {
        if (membership.disabled) throw membershipDisabled();
        return;
      }
      const domain = emailDomainOf(user.email);
      if (!organization.emailDomains.includes(domain)) {
        throw invalidInput(
          `email domain not allowed: ${domain} is not one of this organization's email domains.`,
        );
      }
      await this.addMember(tx, organizationId, user.id, organization.defaultRole);
    });
  }

  /**
   * Joins with an invite link of the organization: a new member gets the invite's role, a
   * member with a lower role is raised to it (never lowered).
   */
  joinWithInvite(userId: string, organizationId: string, inviteId: string): Promise<void> {
    return this.dataSource.transaction(async (tx) => {
      const organization = await this.organization(tx, organizationId);
      const invite = await tx.findOneBy(OrganizationInvite, { id: inviteId, organizationId });
      if (!invite) throw notFound('Invite');
      if (!organization.inviteLinks) {
        throw invalidInput('Invite links are disabled in this organization (inviteLinks is off).');
      }
      const membership = await this.membership(tx, organizationId, userId, true);
      if (!membership) {
        await this.addMember(tx, organizationId, userId, invite.role);
        return;
      }
      if (membership.disabled) throw membershipDisabled();
      const role = highestRole(membership.role, invite.role);
      if (role !== membership.role) await tx.update(Member, { organizationId, userId }, { role });
    });
  }

  /** Organizations that users of this email domain may join, oldest first. */
  organizationsForEmailDomain(emailDomain: string): Promise<Organization[]> {
    return this.dataSource
      .getRepository(Organization)
      .createQueryBuilder('o')
      .where(':domain = ANY(o.email_domains)', { domain: emailDomain.toLowerCase() })
      .orderBy('o.created_at', 'ASC')
      .addOrderBy('o.id', 'ASC')
      .getMany();
  }

  private async organization(tx: EntityManager, organizationId: string): Promise<Organization> {
    const organization = await tx.findOneBy(Organization, { id: organizationId });
    if (!organization) throw notFound('Organization');
    return organization;
  }

  private membership(
    tx: EntityManager,
    organizationId: string,
    userId: string,
    forUpdate = false,
  ): Promise<Member | null> {
    return tx.findOne(Member, {
      where: { organizationId, userId },
      ...(forUpdate ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }

  /** Inserts the membership; a concurrent join of the same user has already done it. */
  private async addMember(
    tx: EntityManager,
    organizationId: string,
    userId: string,
    role: Role | null,
  ): Promise<void> {
    await tx
      .createQueryBuilder()
      .insert()
      .into(Member)
      .values({
        organizationId,
        userId,
        role,
        sso: false,
        disabled: false,
        joinedAt: this.clock.now(),
        lastSeenAt: null,
      })
      .orIgnore()
      .execute();
  }
}

/** The part after the last `@`, lower-cased. */
export function emailDomainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}
