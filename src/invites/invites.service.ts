import { Injectable } from '@nestjs/common';
import { MemberEvents } from '../orgs/members/member-events';
import { userActor } from '../platform/events/event-outbox';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import type { Actor } from '../platform/auth/actor';
import { Clock } from '../platform/clock/clock';
import { forbidden, invalidInput, notFound } from '../platform/errors/domain-error';
import { CollectionsRepository } from '../collections/collections.repository';
import type { ContentResourceType } from '../collections/entities/content-grant.entity';
import { ContentGrantsRepository } from '../collections/grants/content-grants.repository';
import { newId } from '../platform/ids/ids';
import { highestRole, type Role } from '../platform/policy/roles';
import { SpacesRepository } from '../spaces/spaces.repository';
import { User } from '../users/entities/user.entity';
import { Member } from '../orgs/entities/member.entity';
import { MembersRepository } from '../orgs/members/members.repository';
import { Organization } from '../orgs/entities/organization.entity';
import { InviteUsersDto } from './dto/invite-users.dto';
import { OrganizationInvite } from './entities/organization-invite.entity';
import { normaliseInvitees } from './invitees';
import { InvitesRepository } from './invites.repository';
import { EmailInvitesService } from './email-invites.service';
import { EmailInvite } from './entities/email-invite.entity';

/** The space or collection of a content invite. */
interface ContentTarget {
  type: ContentResourceType;
  id: string;
}

export interface InviteUsersResult {
  /** Users added, in the order of the request. */
  users: string[];
  /** Invitations to the addresses of no user of this instance, in the order of the request. */
  pendingInvites: EmailInvite[];
}

const membershipDisabled = () =>
  forbidden('Your membership of this organization is disabled; an admin can enable it again.');

/** Bringing users into an organization: invited by an admin, by email domain, by invite link. */
@Injectable()
export class InvitesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly invites: InvitesRepository,
    private readonly spaces: SpacesRepository,
    private readonly collections: CollectionsRepository,
    private readonly grants: ContentGrantsRepository,
    private readonly members: MembersRepository,
    private readonly events: MemberEvents,
    private readonly emailInvites: EmailInvitesService,
  ) {}

  /**
   * Adds the existing users with these addresses as members, in one transaction. Members stay
   * as they are (role unchanged). An address of no user gets a pending invite, emailed when
   * email is on.
   */
  inviteUsers(
    organization: Organization,
    input: InviteUsersDto,
    actorId: string,
  ): Promise<InviteUsersResult> {
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
      const added = new Set(
        await this.members.addMembers(
          candidates.map(({ userId, role }) => ({
            organizationId: organization.id,
            userId,
            role,
            sso: input.sso ?? false,
            joinedAt: now,
          })),
          tx,
        ),
      );
      for (const userId of added) {
        await this.events.record(tx, 'member_added', organization.id, userId, userActor(actorId));
      }
      const pendingInvites = await this.emailInvites.invite(
        tx,
        organization,
        invitees.filter((invitee) => !userIds.has(invitee.email)),
        input.sso ?? false,
        actorId,
      );
      return {
        users: candidates.filter(({ userId }) => added.has(userId)).map(({ userId }) => userId),
        pendingInvites,
      };
    });
  }

  /**
   * Joins as a member with the organization's default role when the user's email domain is
   * one of the organization's. Users are created by the instance administrator or by accepting
   * an invitation sent to their address, so their addresses count as verified. A member stays
   * as it is. An organization with `sso` on takes new members through its identity provider.
   */
  joinByEmailDomain(user: User, organizationId: string): Promise<void> {
    return this.dataSource.transaction(async (tx) => {
      const organization = await this.organization(tx, organizationId);
      const membership = await this.membership(tx, organizationId, user.id);
      if (membership) {
        if (membership.disabled) throw membershipDisabled();
        return;
      }
      if (organization.sso) {
        throw forbidden(
          `${organization.title} signs its members in with single sign-on: join by signing in with its identity provider.`,
        );
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
   * member with a lower role is raised to it (never lowered). A space or collection invite
   * (role null: a new member is a guest) also grants its level there, raising a lower grant of
   * the user's and never lowering a higher one; its space must not be in the trash.
   */
  joinWithInvite(userId: string, organizationId: string, inviteId: string): Promise<void> {
    return this.dataSource.transaction(async (tx) => {
      const organization = await this.organization(tx, organizationId);
      const invite = await tx.findOneBy(OrganizationInvite, { id: inviteId, organizationId });
      if (!invite) throw notFound('Invite');
      if (!organization.inviteLinks) {
        throw invalidInput('Invite links are disabled in this organization (inviteLinks is off).');
      }
      const target = await this.contentTarget(tx, invite);
      const membership = await this.membership(tx, organizationId, userId, true);
      if (!membership) {
        await this.addMember(tx, organizationId, userId, invite.role);
      } else {
        if (membership.disabled) throw membershipDisabled();
        const role = highestRole(membership.role, invite.role);
        if (role !== membership.role) {
          await this.members.update(organizationId, userId, { role }, tx);
          await this.events.record(
            tx,
            'member_role_updated',
            organizationId,
            userId,
            userActor(userId),
            { previousRole: membership.role, role },
          );
        }
      }
      if (target) await this.grantAtLeast(tx, organizationId, target, userId, invite.level!);
    });
  }

  /**
   * The organizations whose email domains include `emailDomain`, oldest first: those the caller
   * could join by its email address. A user's own domain leads to them and any other domain to
   * none, answered as an empty list rather than a refusal, so that asking tells a user nothing
   * of the organizations of a domain not theirs; the administrator may ask of any domain.
   */
  async organizationsForEmailDomain(actor: Actor, emailDomain: string): Promise<Organization[]> {
    const domain = emailDomain.toLowerCase();
    if (actor.kind === 'user' && emailDomainOf(actor.user.email) !== domain) return [];
    return this.invites.organizationsWithEmailDomain(domain);
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
    return forUpdate
      ? this.members.lock(organizationId, userId, tx)
      : this.members.find(organizationId, userId, tx);
  }

  /**
   * The space or collection a content invite is to, locked against a concurrent delete until
   * the grant is written; null for an organization invite. 404 (as for a deleted invite) when
   * the target has left the organization; 400 when the space is in the trash.
   */
  private async contentTarget(
    tx: EntityManager,
    invite: OrganizationInvite,
  ): Promise<ContentTarget | null> {
    const target: ContentTarget | null = invite.spaceId
      ? { type: 'space', id: invite.spaceId }
      : invite.collectionId
        ? { type: 'collection', id: invite.collectionId }
        : null;
    if (!target) return null;
    const row =
      target.type === 'space'
        ? await this.spaces.lockShared(target.id, tx)
        : await this.collections.lockShared(target.id, tx);
    if (!row || row.organizationId !== invite.organizationId) {
      throw notFound('Invite');
    }
    if (row.inTrash) {
      throw invalidInput('The space of this invite is in the trash; an admin can restore it.');
    }
    return target;
  }

  /**
   * Gives the user `level` on the content: a new grant, or a raise of a lower one; a higher
   * grant stays. One statement, so concurrent joins cannot lower each other's grant.
   */
  private async grantAtLeast(
    tx: EntityManager,
    organizationId: string,
    target: ContentTarget,
    userId: string,
    level: Role,
  ): Promise<void> {
    await this.grants.upsertAtLeast(
      {
        id: newId(),
        organizationId,
        resourceType: target.type,
        resourceId: target.id,
        userId,
        teamId: null,
        role: level,
        createdAt: this.clock.now(),
      },
      tx,
    );
  }

  /**
   * Inserts the membership of a user joining by themselves; a concurrent join of the same user
   * has already done it (and recorded the event).
   */
  private async addMember(
    tx: EntityManager,
    organizationId: string,
    userId: string,
    role: Role | null,
  ): Promise<void> {
    const added = await this.members.addMembers(
      [{ organizationId, userId, role, sso: false, joinedAt: this.clock.now() }],
      tx,
    );
    if (added.length > 0) {
      await this.events.record(tx, 'member_added', organizationId, userId, userActor(userId));
    }
  }
}

/** The part after the last `@`, lower-cased. */
export function emailDomainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}
