import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Clock } from '../../platform/clock/clock';
import { invalidInput, notFound } from '../../platform/errors/domain-error';
import { newId } from '../../platform/ids/ids';
import { paginate, PageRequest } from '../../platform/pagination/keyset';
import { Page } from '../../platform/pagination/page';
import { Member } from '../entities/member.entity';
import { CreateOrganizationInviteDto, UpdateOrganizationInviteDto } from './dto/link-invite.dto';
import { OrganizationInvite } from './entities/organization-invite.entity';
import { CallerMembership } from './invite-redundancy';

const inviteNotFound = () => notFound('Invite');

/** Invite links of an organization; every read and write is scoped to the organization. */
@Injectable()
export class LinkInvitesService {
  constructor(
    @InjectRepository(OrganizationInvite)
    private readonly invites: Repository<OrganizationInvite>,
    @InjectRepository(Member) private readonly members: Repository<Member>,
    private readonly clock: Clock,
  ) {}

  /** Newest first. */
  list(organizationId: string, request: PageRequest): Promise<Page<OrganizationInvite>> {
    const query = this.invites
      .createQueryBuilder('i')
      .where('i.organization_id = :organizationId', { organizationId });
    return paginate(query, request, {
      keys: [
        { sql: 'i.created_at', of: (i) => i.createdAt },
        { sql: 'i.id', of: (i) => i.id },
      ],
      direction: 'DESC',
    });
  }

  async create(
    organizationId: string,
    creatorId: string,
    input: CreateOrganizationInviteDto,
  ): Promise<OrganizationInvite> {
    // Space and collection invites arrive with spaces and collections (issue #4); until then
    // no space or collection exists in any organization.
    if (input.space !== undefined) {
      throw invalidInput(`space: space ${input.space} not found in this organization.`);
    }
    if (input.collection !== undefined) {
      throw invalidInput(
        `collection: collection ${input.collection} not found in this organization.`,
      );
    }
    if (input.level !== undefined) throw levelOnOrganizationInvite();
    const invite = this.invites.create({
      id: newId(),
      organizationId,
      role: input.role ?? null,
      createdBy: creatorId,
      createdAt: this.clock.now(),
    });
    await this.invites.insert(invite);
    return invite;
  }

  async get(organizationId: string, inviteId: string): Promise<OrganizationInvite> {
    const invite = await this.invites.findOneBy({ id: inviteId, organizationId });
    if (!invite) throw inviteNotFound();
    return invite;
  }

  /**
   * An invite for whoever holds its id (the link), with the caller's membership for
   * `redundant`. While the organization has invite links off, only its admins see them.
   */
  async getForCaller(
    userId: string,
    organizationId: string,
    inviteId: string,
  ): Promise<{ invite: OrganizationInvite; membership: CallerMembership | null }> {
    const invite = await this.invites.findOne({
      where: { id: inviteId, organizationId },
      relations: { organization: true },
    });
    if (!invite) throw inviteNotFound();
    const membership = await this.members.findOne({
      select: { role: true, disabled: true },
      where: { organizationId, userId },
    });
    const admin = membership?.role === 'admin' && !membership.disabled;
    if (!invite.organization!.inviteLinks && !admin) throw inviteNotFound();
    return { invite, membership };
  }

  async update(
    organizationId: string,
    inviteId: string,
    input: UpdateOrganizationInviteDto,
  ): Promise<OrganizationInvite> {
    const invite = await this.get(organizationId, inviteId);
    if (input.level !== undefined) throw levelOnOrganizationInvite();
    invite.role = input.role ?? null;
    await this.invites.update({ id: inviteId, organizationId }, { role: invite.role });
    return invite;
  }

  /** Deletes the invite; nothing to do when it is already gone. */
  async delete(organizationId: string, inviteId: string): Promise<void> {
    await this.invites.delete({ id: inviteId, organizationId });
  }
}

function levelOnOrganizationInvite() {
  return invalidInput(
    'level applies to space and collection invites; an organization invite takes role.',
  );
}
