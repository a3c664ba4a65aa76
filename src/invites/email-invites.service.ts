import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../platform/clock/clock';
import { DomainError, notFound } from '../platform/errors/domain-error';
import { userActor } from '../platform/events/event-outbox';
import { newId } from '../platform/ids/ids';
import { renderMail } from '../platform/mail/localised-mail';
import { Mailer } from '../platform/mail/mailer';
import { PageRequest } from '../platform/pagination/keyset';
import { Page } from '../platform/pagination/page';
import type { Role } from '../platform/policy/roles';
import type { SignedUrlQuery } from '../platform/urls/url-signer';
import { Organization } from '../orgs/entities/organization.entity';
import { MemberEvents } from '../orgs/members/member-events';
import { MembersRepository } from '../orgs/members/members.repository';
import { User } from '../users/entities/user.entity';
import { UsersService } from '../users/users.service';
import { EmailInviteLinks } from './email-invite-links';
import { EmailInvitesRepository } from './email-invites.repository';
import { EmailInvite } from './entities/email-invite.entity';
import { INVITATION } from './invitation-mail';

/** An address to invite, lower-cased, with the role it is invited at. */
export interface EmailInvitee {
  email: string;
  role: Role | null;
}

/** An invitation as its link shows it: the invite and its organization. */
export interface OpenedInvite {
  invite: EmailInvite;
  organization: Organization;
}

/** What accepting an invitation made. */
export interface AcceptedInvite {
  organization: Organization;
  user: User;
  /** The new user's first API token (shown once); null for a user who had one already. */
  token: string | null;
}

const inviteGone = () =>
  new DomainError(
    'not_found',
    'InviteNotFound',
    'This invitation is no longer valid: it was accepted or revoked. Ask an admin of the organization for a new one.',
  );
const inviteExpired = () =>
  new DomainError(
    'forbidden',
    'InviteExpired',
    'This invitation has expired. Ask an admin of the organization to invite you again.',
  );

/**
 * Invitations emailed to addresses of no user yet (pending invites): made by
 * inviteUsersToOrganization, listed and revoked by the organization's admins, accepted by
 * whoever follows the link, who becomes a user with that address and a member.
 */
@Injectable()
export class EmailInvitesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly invites: EmailInvitesRepository,
    private readonly links: EmailInviteLinks,
    private readonly mailer: Mailer,
    private readonly members: MembersRepository,
    private readonly events: MemberEvents,
    private readonly users: UsersService,
  ) {}

  /** Whether invitations go out by email; when not, admins pass on the links themselves. */
  get emailing(): boolean {
    return this.mailer.enabled;
  }

  /** The invite's link, for its admins when email is off (never read when it is on). */
  linkOf(invite: EmailInvite): string | null {
    return this.mailer.enabled ? null : this.links.url(invite);
  }

  /**
   * Stores (or renews) an invite for each address in `tx`, and queues its email when email is
   * on: sent only if the transaction commits.
   */
  async invite(
    tx: EntityManager,
    organization: Organization,
    invitees: EmailInvitee[],
    sso: boolean,
    inviterId: string,
  ): Promise<EmailInvite[]> {
    if (invitees.length === 0) return [];
    const now = this.clock.now();
    const expiresAt = this.links.expiresAt();
    const invites = invitees.map(({ email, role }): EmailInvite => ({
      id: newId(),
      organizationId: organization.id,
      email,
      role,
      sso,
      invitedBy: inviterId,
      createdAt: now,
      expiresAt,
    }));
    await this.invites.upsert(invites, tx);
    if (this.mailer.enabled) {
      const inviter = await tx.findOne(User, {
        select: { id: true, displayName: true },
        where: { id: inviterId },
      });
      for (const invite of invites) {
        const mail = renderMail(INVITATION, undefined, {
          inviter: inviter?.displayName ?? 'Someone',
          organization: organization.title,
          role: invite.role,
          url: this.links.url(invite),
          expiresAt: invite.expiresAt,
        });
        await this.mailer.queue(tx, { to: invite.email, ...mail });
      }
    }
    return invites;
  }

  /** The organization's pending invites (unexpired), oldest first. */
  list(organizationId: string, request: PageRequest): Promise<Page<EmailInvite>> {
    return this.invites.pagePending(organizationId, this.clock.now(), request);
  }

  /** Deletes the invite: its link stops working at once. */
  async revoke(organizationId: string, inviteId: string): Promise<void> {
    if (!(await this.invites.delete(organizationId, inviteId))) throw notFound('Invite');
  }

  /** The invite a link is to, when the link is valid and unexpired. */
  open(inviteId: string, link: SignedUrlQuery): Promise<OpenedInvite> {
    // Two reads that change nothing: no transaction (accepting locks the invite in one).
    return this.checked(this.dataSource.manager, inviteId, link, false);
  }

  /**
   * Accepts the invitation of a valid link, in one transaction: a new user with the invited
   * address (and a first API token), or the user who has taken that address since; a member at
   * the invited role (a member stays as it is). The invite is used up.
   */
  accept(inviteId: string, link: SignedUrlQuery, displayName?: string): Promise<AcceptedInvite> {
    return this.dataSource.transaction(async (tx) => {
      const { invite, organization } = await this.checked(tx, inviteId, link, true);
      if (organization.sso || invite.sso) {
        throw new DomainError(
          'forbidden',
          'SsoRequired',
          `${organization.title} signs its members in with single sign-on: accept this invitation by signing in with its identity provider.`,
        );
      }
      const joined = await this.join(tx, invite, organization, displayName);
      return { organization, ...joined };
    });
  }

  /**
   * Uses up the organization's unexpired invitation of `email`, if there is one, for a person
   * who signed in another way with that address (single sign-on), in the caller's transaction:
   * the caller makes them a member at its role.
   */
  takePending(
    tx: EntityManager,
    organizationId: string,
    email: string,
  ): Promise<EmailInvite | null> {
    return this.invites.takeUnexpired(organizationId, email.toLowerCase(), this.clock.now(), tx);
  }

  /** The invite and its organization, or the error a link to it gets. */
  private async checked(
    manager: EntityManager,
    inviteId: string,
    link: SignedUrlQuery,
    forUpdate: boolean,
  ): Promise<OpenedInvite> {
    const invite = forUpdate
      ? await this.invites.lock(inviteId, manager)
      : await manager.findOneBy(EmailInvite, { id: inviteId });
    if (!invite) throw inviteGone();
    const verdict = this.links.check(invite, link);
    // A link of an earlier (renewed) invite, or a forged one, is no link to this invite.
    if (verdict === 'invalid') throw inviteGone();
    if (verdict === 'expired') throw inviteExpired();
    const organization = await manager.findOneByOrFail(Organization, {
      id: invite.organizationId,
    });
    return { invite, organization };
  }

  private async join(
    tx: EntityManager,
    invite: EmailInvite,
    organization: Organization,
    givenName: string | undefined,
  ): Promise<{ user: User; token: string | null }> {
    const existing = await tx.findOneBy(User, { email: invite.email });
    if (existing?.disabled) {
      throw new DomainError(
        'forbidden',
        'UserDisabled',
        'The user with this address is disabled; the instance administrator can enable it.',
      );
    }
    const created = existing
      ? null
      : await this.users.create(
          { email: invite.email, displayName: nameOf(invite.email, givenName) },
          tx,
        );
    const user = existing ?? created!.user;
    await this.addMember(tx, invite, user.id);
    await this.invites.delete(organization.id, invite.id, tx);
    return { user, token: created?.token ?? null };
  }

  private async addMember(tx: EntityManager, invite: EmailInvite, userId: string): Promise<void> {
    const added = await this.members.addMembers(
      [
        {
          organizationId: invite.organizationId,
          userId,
          role: invite.role,
          sso: invite.sso,
          joinedAt: this.clock.now(),
        },
      ],
      tx,
    );
    if (added.length > 0) {
      await this.events.record(
        tx,
        'member_added',
        invite.organizationId,
        userId,
        userActor(userId),
      );
    }
  }
}

/** The name a new user goes by: the one they gave, else their address before the `@`. */
export function nameOf(email: string, given: string | undefined): string {
  const name = given?.trim();
  return name ? name.slice(0, 255) : email.slice(0, email.lastIndexOf('@'));
}
