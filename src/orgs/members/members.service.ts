import { Injectable } from '@nestjs/common';
import { userActor } from '../../platform/events/event-outbox';
import { MemberEvents } from './member-events';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { UserActor } from '../../platform/auth/actor';
import { Clock } from '../../platform/clock/clock';
import { DomainError, notFound } from '../../platform/errors/domain-error';
import type { ResolvedAccess } from '../../platform/policy/access';
import { Page } from '../../platform/pagination/page';
import { InstanceSecret } from '../../platform/settings/instance-secret';
import { ListMembersQueryDto } from './dto/list-members.query';
import { UpdateMemberDto } from './dto/update-member.dto';
import { AdminSeat, removesLastAdmin } from './last-admin';
import { MemberRecord, MembersRepository } from './members.repository';
import { signVisitorClaims, VISITOR_CLAIMS_PURPOSE } from './visitor-claims';

const memberNotFound = () => notFound('Member');

const lastAdmin = (what: 'demoted' | 'removed') =>
  new DomainError(
    'bad_request',
    'LastAdmin',
    `The member is the last admin of the organization and cannot be ${what}: make another member admin first.`,
  );

@Injectable()
export class MembersService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly members: MembersRepository,
    private readonly clock: Clock,
    private readonly secret: InstanceSecret,
    private readonly events: MemberEvents,
  ) {}

  /** The organization's members (disabled ones included), by join date or last activity. */
  list(organizationId: string, request: ListMembersQueryDto): Promise<Page<MemberRecord>> {
    const { role, search, sort, order } = request;
    return this.members.pageInOrganization(organizationId, { role, search, sort, order }, request);
  }

  get(organizationId: string, userId: string): Promise<MemberRecord> {
    return this.getWith(this.dataSource.manager, organizationId, userId);
  }

  /**
   * Changes the member's role (null: guest). The organization stays locked from the check of
   * its admins to the commit, so two concurrent demotions cannot remove both last admins.
   */
  update(
    organizationId: string,
    userId: string,
    input: UpdateMemberDto,
    actorId: string,
  ): Promise<MemberRecord> {
    return this.dataSource.transaction(async (tx) => {
      if (input.role !== undefined) {
        const admins = await this.lockAdmins(tx, organizationId);
        const member = await this.members.find(organizationId, userId, tx);
        if (!member) throw memberNotFound();
        if (removesLastAdmin(admins, { ...member, next: input.role })) throw lastAdmin('demoted');
        await this.members.update(organizationId, userId, { role: input.role }, tx);
        if (member.role !== input.role) {
          await this.events.record(
            tx,
            'member_role_updated',
            organizationId,
            userId,
            userActor(actorId),
            { previousRole: member.role, role: input.role },
          );
        }
      }
      return this.getWith(tx, organizationId, userId);
    });
  }

  /**
   * Removes the member, and with it its team memberships (the foreign key cascades); who may
   * is decided before (MemberAccessPolicy). Nothing to remove is not an error.
   */
  async remove(organizationId: string, userId: string, actorId: string): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const admins = await this.lockAdmins(tx, organizationId);
      const member = await this.members.find(organizationId, userId, tx);
      if (!member) return;
      if (removesLastAdmin(admins, member)) throw lastAdmin('removed');
      const record = await this.members.findRecord(organizationId, userId, tx);
      await this.members.delete(organizationId, userId, tx);
      await this.events.record(
        tx,
        'member_removed',
        organizationId,
        userId,
        userActor(actorId),
        {},
        record ?? undefined,
      );
    });
  }

  async setSso(organizationId: string, userId: string): Promise<MemberRecord> {
    await this.members.update(organizationId, userId, { sso: true });
    return this.get(organizationId, userId);
  }

  /** Records the caller's activity now and returns its visitor claims. */
  async ping(access: ResolvedAccess, actor: UserActor): Promise<string> {
    const now = this.clock.now();
    await this.members.update(access.organizationId, actor.userId, { lastSeenAt: now });
    return signVisitorClaims(
      {
        userId: actor.userId,
        organizationId: access.organizationId,
        role: access.role,
        email: actor.user.email,
      },
      this.secret.signingKey(VISITOR_CLAIMS_PURPOSE),
      now,
    );
  }

  private async getWith(
    manager: EntityManager,
    organizationId: string,
    userId: string,
  ): Promise<MemberRecord> {
    const record = await this.members.findRecord(organizationId, userId, manager);
    if (!record) throw memberNotFound();
    return record;
  }

  /**
   * Takes the organization's membership lock (its row, FOR NO KEY UPDATE: inserts that only
   * reference it go on) until the transaction ends, then reads its admins. Role changes and
   * removals of one organization thus run one after the other, each seeing the admins the
   * previous one left. Locking the admin rows themselves deadlocked: a transaction locks the
   * admins it saw, then the member it changes, which a newer transaction may have seen as an
   * admin and locked first.
   */
  private async lockAdmins(tx: EntityManager, organizationId: string): Promise<AdminSeat[]> {
    await this.members.lockOrganization(organizationId, tx);
    return this.members.admins(organizationId, tx);
  }
}
