import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Clock } from '../platform/clock/clock';
import { invalidInput, notFound } from '../platform/errors/domain-error';
import { newId } from '../platform/ids/ids';
import { paginate } from '../platform/pagination/keyset';
import { Page } from '../platform/pagination/page';
import type { Role } from '../platform/policy/roles';
import { Space } from '../spaces/entities/space.entity';
import { type SpaceAccess } from '../spaces/space-access.resolver';
import { SpacesRepository, type SpaceCounterDeltas } from '../spaces/spaces.repository';
import { whereVisibleTo } from '../platform/policy/content-access/granted-content';
import {
  CreateChangeRequestDto,
  ListChangeRequestsQueryDto,
  UpdateChangeRequestDto,
} from './dto/change-request.dto';
import { changeRequestMerged } from './change-request-errors';
import { ChangeRequest, ChangeRequestStatus } from './entities/change-request.entity';

/** A change request with what its wire shape needs: the space's primary revision now. */
export interface ChangeRequestView {
  changeRequest: ChangeRequest;
  primaryRevision: string;
}

const changeRequestNotFound = () => notFound('Change request');

/** Which of the space's counts a change request in this status adds to. */
const COUNTED: Partial<
  Record<ChangeRequestStatus, 'change_requests_open' | 'change_requests_draft'>
> = { open: 'change_requests_open', draft: 'change_requests_draft' };

/** Status moves a PATCH may make (merged is terminal and reached only by merging). */
const MOVES: Record<ChangeRequestStatus, readonly ChangeRequestStatus[]> = {
  draft: ['open', 'archived'],
  open: ['draft', 'archived'],
  archived: ['open', 'draft'],
  merged: [],
};

/**
 * Change requests of a space: numbering, status moves, listings. Every insert and status change
 * updates the space's counts in the same transaction; the space row's lock also serializes
 * numbering.
 */
@Injectable()
export class ChangeRequestsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly spaces: SpacesRepository,
  ) {}

  /**
   * Opens a change request on the space's primary revision (`revisionInitial` = `revision`),
   * numbered after the space's last one.
   */
  create(
    access: SpaceAccess,
    userId: string,
    input: CreateChangeRequestDto,
  ): Promise<ChangeRequestView> {
    if (input.template !== undefined) {
      throw invalidInput('template: applying a template to a change request is not supported yet.');
    }
    const status = input.status ?? 'open';
    return this.dataSource.transaction(async (manager) => {
      // Counting first locks the space row: concurrent creates in the space queue here, so each
      // reads the numbers the previous ones committed.
      const counted = COUNTED[status]!;
      const locked = await this.spaces.adjustLiveCounters(
        access.id,
        { change_requests: 1, [counted]: 1 },
        manager,
      );
      if (!locked) throw notFound('Space');
      const { revisionId: primary, organizationId } = locked;
      const [{ next }]: { next: number }[] = await manager.query(
        `SELECT COALESCE(MAX(number), 0) + 1 AS next FROM change_requests WHERE space_id = $1`,
        [access.id],
      );
      const cluster = input.conversationsIssuesCluster ?? null;
      if (cluster !== null) {
        const found: unknown[] = await manager.query(
          `SELECT 1 FROM conversation_issue_clusters WHERE id = $1 AND organization_id = $2`,
          [cluster, organizationId],
        );
        if (found.length === 0) {
          throw invalidInput('conversationsIssuesCluster: no such cluster in this organization.');
        }
      }
      const now = this.clock.now();
      const id = newId();
      await manager.insert(ChangeRequest, {
        conversationsIssuesClusterId: cluster,
        id,
        spaceId: access.id,
        organizationId,
        number: Number(next),
        status,
        subject: input.subject ?? '',
        description: null,
        createdBy: userId,
        revisionInitial: primary,
        revision: primary,
        revisionMergedAncestor: null,
        revisionMerged: null,
        createdAt: now,
        updatedAt: now,
      });
      return this.load(manager, access.id, id);
    });
  }

  /** By id or by number in the space; 404 otherwise. */
  get(access: SpaceAccess, changeRequestId: string): Promise<ChangeRequestView> {
    return this.load(this.dataSource.manager, access.id, changeRequestId);
  }

  /**
   * Absent fields unchanged. Status moves: draft ↔ open, draft/open → archived, archived →
   * draft/open; a merged change request refuses every change.
   */
  update(
    access: SpaceAccess,
    changeRequestId: string,
    input: UpdateChangeRequestDto,
  ): Promise<ChangeRequestView> {
    return this.dataSource.transaction(async (manager) => {
      // The space row first (as create does), then the change request: one lock order.
      await manager.query(`SELECT 1 FROM spaces WHERE id = $1 FOR UPDATE`, [access.id]);
      const { changeRequest: current } = await this.load(manager, access.id, changeRequestId);
      if (current.status === 'merged') {
        throw changeRequestMerged('it cannot change any more');
      }
      const changes: Partial<ChangeRequest> = {};
      if (input.subject !== undefined) changes.subject = input.subject;
      if (input.description !== undefined) changes.description = input.description;
      if (input.status !== undefined && input.status !== current.status) {
        if (!MOVES[current.status].includes(input.status)) {
          throw invalidInput(
            `status: a ${current.status} change request cannot become ${input.status}.`,
          );
        }
        changes.status = input.status;
        await this.moveCounts(manager, access.id, current.status, input.status);
      }
      if (Object.keys(changes).length === 0) return this.load(manager, access.id, current.id);
      changes.updatedAt = this.clock.now();
      // The document's open `data` map is more than TypeORM's deep-partial type can express.
      await manager.update(
        ChangeRequest,
        { id: current.id },
        changes as QueryDeepPartialEntity<ChangeRequest>,
      );
      return this.load(manager, access.id, current.id);
    });
  }

  /** The space's change requests in `status` (open by default), highest number first. */
  listForSpace(
    access: SpaceAccess,
    query: ListChangeRequestsQueryDto,
  ): Promise<Page<ChangeRequestView>> {
    const rows = this.filtered(
      this.views(this.dataSource.manager).where('cr.space_id = :spaceId', { spaceId: access.id }),
      query,
    );
    return this.page(rows, query, [{ sql: 'cr.number', of: (cr) => cr.number }]);
  }

  /**
   * The organization's change requests in `status` (open by default), newest first, on the
   * live spaces the caller may read: every one for a member with a role, those granted to it
   * for a guest.
   */
  listForOrganization(
    organizationId: string,
    organizationRole: Role | null,
    userId: string,
    query: ListChangeRequestsQueryDto,
  ): Promise<Page<ChangeRequestView>> {
    const rows = this.views(this.dataSource.manager)
      .where('cr.organization_id = :organizationId', { organizationId })
      .andWhere('s.deleted_at IS NULL');
    whereVisibleTo(rows, 'space', 'cr.space_id', {
      organizationId,
      userId,
      role: organizationRole,
    });
    return this.page(this.filtered(rows, query), query, [
      { sql: 'cr.created_at', of: (cr) => cr.createdAt },
      { sql: 'cr.id', of: (cr) => cr.id },
    ]);
  }

  private filtered(
    rows: SelectQueryBuilder<ChangeRequest>,
    query: ListChangeRequestsQueryDto,
  ): SelectQueryBuilder<ChangeRequest> {
    rows.andWhere('cr.status = :status', { status: query.status ?? 'open' });
    if (query.creator !== undefined) {
      rows.andWhere('cr.created_by = :creator', { creator: query.creator });
    }
    // Its creator, and whoever edited its content or commented on it.
    if (query.contributor !== undefined) {
      rows.andWhere(
        `(cr.created_by = :contributor OR EXISTS (
           SELECT 1 FROM change_request_contributors c
            WHERE c.change_request_id = cr.id AND c.user_id = :contributor))`,
        { contributor: query.contributor },
      );
    }
    if (query.requestedReviewer !== undefined) {
      rows.andWhere(
        `EXISTS (SELECT 1 FROM change_request_requested_reviewers q
                  WHERE q.change_request_id = cr.id AND q.user_id = :requestedReviewer)`,
        { requestedReviewer: query.requestedReviewer },
      );
    }
    if (query.conversationsIssuesCluster !== undefined) {
      rows.andWhere('cr.conversations_issues_cluster_id = :conversationsIssuesCluster', {
        conversationsIssuesCluster: query.conversationsIssuesCluster,
      });
    }
    return rows;
  }

  private async page(
    rows: SelectQueryBuilder<ChangeRequest>,
    query: ListChangeRequestsQueryDto,
    keys: { sql: string; of: (cr: ChangeRequest) => string | number | Date }[],
  ): Promise<Page<ChangeRequestView>> {
    const page = await paginate(rows, query, { keys, direction: 'DESC' });
    return { ...page, items: page.items.map((cr) => this.view(cr)) };
  }

  /** Moves a change request between statuses in the space's counts (the total stays). */
  async moveCounts(
    manager: EntityManager,
    spaceId: string,
    from: ChangeRequestStatus,
    to: ChangeRequestStatus,
  ): Promise<void> {
    const deltas: SpaceCounterDeltas = {};
    if (COUNTED[from]) deltas[COUNTED[from]] = -1;
    if (COUNTED[to]) deltas[COUNTED[to]] = (deltas[COUNTED[to]] ?? 0) + 1;
    await this.spaces.adjustCounters(spaceId, deltas, manager);
  }

  private views(manager: EntityManager): SelectQueryBuilder<ChangeRequest> {
    return manager
      .getRepository(ChangeRequest)
      .createQueryBuilder('cr')
      .innerJoin('cr.space', 's')
      .addSelect(['s.id', 's.revisionId', 's.deletedAt'])
      .leftJoinAndSelect('cr.creator', 'u');
  }

  private view(changeRequest: ChangeRequest): ChangeRequestView {
    const space = changeRequest.space as Space;
    return { changeRequest, primaryRevision: space.revisionId };
  }

  /** `changeRequestId` is its id or, all digits, its number in the space; 404 otherwise. */
  async load(
    manager: EntityManager,
    spaceId: string,
    changeRequestId: string,
  ): Promise<ChangeRequestView> {
    const query = this.views(manager).where('cr.space_id = :spaceId', { spaceId });
    if (/^\d{1,9}$/.test(changeRequestId)) {
      query.andWhere('cr.number = :number', { number: Number(changeRequestId) });
    } else {
      query.andWhere('cr.id = :id', { id: changeRequestId });
    }
    const changeRequest = await query.getOne();
    if (!changeRequest) throw changeRequestNotFound();
    return this.view(changeRequest);
  }
}
