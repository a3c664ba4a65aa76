import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { CollectionAccessResolver } from '../collections/collection-access.resolver';
import { Clock } from '../platform/clock/clock';
import { invalidInput, notFound } from '../platform/errors/domain-error';
import { newId } from '../platform/ids/ids';
import { PageRequest } from '../platform/pagination/keyset';
import { Page } from '../platform/pagination/page';
import type { Role } from '../platform/policy/roles';
import { SpaceAccessResolver } from '../spaces/space-access.resolver';
import { SpacesRepository } from '../spaces/spaces.repository';
import { CollectionsRepository } from '../collections/collections.repository';
import { Member } from '../orgs/entities/member.entity';
import {
  CreateOrganizationInviteDto,
  DEFAULT_CONTENT_INVITE_LEVEL,
  UpdateOrganizationInviteDto,
} from './dto/link-invite.dto';
import { OrganizationInvite } from './entities/organization-invite.entity';
import { CallerMembership } from './invite-redundancy';
import { InvitesRepository } from './invites.repository';

/**
 * An invite with its space or collection loaded (when it has one) and the caller's effective
 * role there (null: none, or no such target), from which the presenter computes `redundant`
 * and the target's `permissions`.
 */
export interface InviteView {
  invite: OrganizationInvite;
  roleOnTarget: Role | null;
}

const inviteNotFound = () => notFound('Invite');

/**
 * Invite links of an organization; every read and write is scoped to the organization. An
 * invite to a space or collection counts only while its target is in the invite's
 * organization: one whose target left (a transfer) reads as not found.
 */
@Injectable()
export class LinkInvitesService {
  constructor(
    @InjectRepository(OrganizationInvite)
    private readonly invites: Repository<OrganizationInvite>,
    @InjectRepository(Member) private readonly members: Repository<Member>,
    private readonly spaceAccess: SpaceAccessResolver,
    private readonly collectionAccess: CollectionAccessResolver,
    private readonly clock: Clock,
    private readonly repository: InvitesRepository,
    private readonly spaces: SpacesRepository,
    private readonly collections: CollectionsRepository,
  ) {}

  /** Newest first, as seen by `userId`. */
  async list(
    organizationId: string,
    userId: string,
    request: PageRequest,
  ): Promise<Page<InviteView>> {
    const page = await this.repository.pageInOrganization(organizationId, request);
    return { ...page, items: await this.describe(userId, page.items) };
  }

  /**
   * An organization invite (`role`), or a space or collection invite (`level`, default
   * DEFAULT_CONTENT_INVITE_LEVEL) whose target is a live space or a collection of the
   * organization (400 otherwise).
   */
  async create(
    organizationId: string,
    creatorId: string,
    input: CreateOrganizationInviteDto,
  ): Promise<InviteView> {
    if (input.space !== undefined && input.collection !== undefined) {
      throw invalidInput('space, collection: an invite is to one space or one collection.');
    }
    const toContent = input.space !== undefined || input.collection !== undefined;
    if (toContent && input.role !== undefined) throw roleOnContentInvite();
    if (!toContent && input.level !== undefined) throw levelOnOrganizationInvite();
    if (input.space !== undefined) await this.requireLiveSpace(organizationId, input.space);
    if (input.collection !== undefined) {
      await this.requireCollection(organizationId, input.collection);
    }
    const id = newId();
    await this.invites.insert({
      id,
      organizationId,
      role: toContent ? null : (input.role ?? null),
      spaceId: input.space ?? null,
      collectionId: input.collection ?? null,
      level: toContent ? (input.level ?? DEFAULT_CONTENT_INVITE_LEVEL) : null,
      createdBy: creatorId,
      createdAt: this.clock.now(),
    });
    return this.get(organizationId, id, creatorId);
  }

  async get(organizationId: string, inviteId: string, userId: string): Promise<InviteView> {
    const invite = await this.find(organizationId, inviteId);
    const [view] = await this.describe(userId, [invite]);
    return view;
  }

  /**
   * An invite for whoever holds its id (the link), with the caller's membership for
   * `redundant`. While the organization has invite links off, only its admins see them.
   */
  async getForCaller(
    userId: string,
    organizationId: string,
    inviteId: string,
  ): Promise<{ view: InviteView; membership: CallerMembership | null }> {
    const invite = await this.repository.findInOrganization(organizationId, inviteId, {
      withOrganization: true,
    });
    if (!invite) throw inviteNotFound();
    const membership = await this.members.findOne({
      select: { role: true, disabled: true },
      where: { organizationId, userId },
    });
    const admin = membership?.role === 'admin' && !membership.disabled;
    if (!invite.organization!.inviteLinks && !admin) throw inviteNotFound();
    const [view] = await this.describe(userId, [invite]);
    return { view, membership };
  }

  /** `role` for an organization invite, `level` for a space or collection invite. */
  async update(
    organizationId: string,
    inviteId: string,
    userId: string,
    input: UpdateOrganizationInviteDto,
  ): Promise<InviteView> {
    const invite = await this.find(organizationId, inviteId);
    const toContent = invite.level !== null;
    if (toContent) {
      if (input.role !== undefined) throw roleOnContentInvite();
      if (input.level === undefined) throw invalidInput('level: required for this invite.');
      invite.level = input.level;
      await this.invites.update({ id: inviteId, organizationId }, { level: invite.level });
    } else {
      if (input.level !== undefined) throw levelOnOrganizationInvite();
      invite.role = input.role ?? null;
      await this.invites.update({ id: inviteId, organizationId }, { role: invite.role });
    }
    const [view] = await this.describe(userId, [invite]);
    return view;
  }

  /** Deletes the invite; nothing to do when it is already gone. */
  async delete(organizationId: string, inviteId: string): Promise<void> {
    await this.invites.delete({ id: inviteId, organizationId });
  }

  private async find(organizationId: string, inviteId: string): Promise<OrganizationInvite> {
    const invite = await this.repository.findInOrganization(organizationId, inviteId);
    if (!invite) throw inviteNotFound();
    return invite;
  }

  /** The caller's roles on the invites' targets, in one query per kind of target. */
  private async describe(userId: string, invites: OrganizationInvite[]): Promise<InviteView[]> {
    const spaceIds = invites.flatMap((invite) => (invite.spaceId ? [invite.spaceId] : []));
    const collectionIds = invites.flatMap((invite) =>
      invite.collectionId ? [invite.collectionId] : [],
    );
    const [spaces, collections] = await Promise.all([
      this.spaceAccess.resolveMany(userId, spaceIds),
      this.collectionAccess.resolveMany(userId, collectionIds),
    ]);
    return invites.map((invite) => {
      const access = invite.spaceId
        ? spaces.get(invite.spaceId)
        : invite.collectionId
          ? collections.get(invite.collectionId)
          : undefined;
      return { invite, roleOnTarget: access?.role ?? null };
    });
  }

  private async requireLiveSpace(organizationId: string, spaceId: string): Promise<void> {
    if (!(await this.spaces.existsLive(organizationId, spaceId))) {
      throw invalidInput(`space: space ${spaceId} not found in this organization.`);
    }
  }

  private async requireCollection(organizationId: string, collectionId: string): Promise<void> {
    if (!(await this.collections.exists(organizationId, collectionId))) {
      throw invalidInput(`collection: collection ${collectionId} not found in this organization.`);
    }
  }
}

function levelOnOrganizationInvite() {
  return invalidInput(
    'level applies to space and collection invites; an organization invite takes role.',
  );
}

function roleOnContentInvite() {
  return invalidInput(
    'role applies to organization invites; a space or collection invite takes level (who is ' +
      'not a member yet joins as a guest).',
  );
}
