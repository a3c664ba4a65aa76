import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import {
  ContentHeads,
  type ChangeRequestHeads,
  type LockedChangeRequest,
} from '../content-engine/writes/content-heads';
import type { MergeRulesConfiguration } from '../orgs/entities/organization.entity';
import { entityFromRow, selectColumns } from '../platform/database/entity-from-row';
import { preparedQuery } from '../platform/database/prepared-query';
import { paginate, PageRequest } from '../platform/pagination/keyset';
import { Page } from '../platform/pagination/page';
import {
  type ContentViewer,
  whereVisibleTo,
} from '../platform/policy/content-access/granted-content';
import { Space, type SpaceMergeRules } from '../spaces/entities/space.entity';
import { User } from '../users/entities/user.entity';
import { ChangeRequest, ChangeRequestStatus } from './entities/change-request.entity';

/** The filters of the change request lists; the status is required (the default is the caller's). */
export interface ChangeRequestListFilters {
  status: ChangeRequestStatus;
  creator?: string;
  /** Its creator, or whoever edited its content or commented on it. */
  contributor?: string;
  requestedReviewer?: string;
  conversationsIssuesCluster?: string;
}

/** A change request by its id, or by its number in the space. */
export type ChangeRequestKey = { id: string } | { number: number };

/** The space row a merge or an update holds, with what the merge rules need. */
export interface MergeLockedSpace {
  revision_id: string;
  merge_rules: SpaceMergeRules;
  organization_merge_rules: MergeRulesConfiguration;
}

/** A change request as access to it needs it: its creator, and whether the caller is asked to review it. */
export interface ChangeRequestAccessRow {
  id: string;
  created_by: string;
  /** Whether `userId` (the caller) has a request to review it. */
  requested: boolean;
}

type ListKey = { sql: string; of: (cr: ChangeRequest) => string | number | Date };

/**
 * The `change_requests` table. Change requests are read with their space (its primary revision
 * and whether it is deleted) and their creator joined, as their wire shape needs. Its head
 * columns (`revision`, its merge base, `status`), as the content writer locks and moves them,
 * are the engine's ChangeRequestHeads: registered with its ContentHeads when the module starts.
 */
@Injectable()
export class ChangeRequestsRepository implements ChangeRequestHeads, OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly contentHeads: ContentHeads,
  ) {}

  onModuleInit(): void {
    this.contentHeads.registerChangeRequests(this);
  }

  /** The change request of `spaceId`, its row locked FOR UPDATE; undefined when there is none. */
  async lockHead(
    spaceId: string,
    changeRequestId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<LockedChangeRequest | undefined> {
    const rows: {
      revision: string;
      revision_initial: string;
      revision_merged_ancestor: string | null;
      status: string;
    }[] = await manager.query(
      `SELECT revision, revision_initial, revision_merged_ancestor, status
         FROM change_requests WHERE id = $1 AND space_id = $2 FOR UPDATE`,
      [changeRequestId, spaceId],
    );
    const row = rows[0];
    return (
      row && {
        revision: row.revision,
        revisionInitial: row.revision_initial,
        revisionMergedAncestor: row.revision_merged_ancestor,
        status: row.status,
      }
    );
  }

  /** Moves the head from `expected` to `next` (no row changes when it was not `expected`). */
  async moveHead(
    changeRequestId: string,
    expected: string,
    next: string,
    at: Date,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(
      'UPDATE change_requests SET revision = $1, updated_at = $2 WHERE id = $3 AND revision = $4',
      [next, at, changeRequestId, expected],
    );
  }

  /**
   * The change request `key` of the space, with its space (id, revision, deletion) and
   * creator; null when absent. Hand-written SQL, prepared: every read of a change request
   * runs it, and the query builder cost more CPU than the query.
   */
  async findInSpace(
    spaceId: string,
    key: ChangeRequestKey,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<ChangeRequest | null> {
    return 'number' in key
      ? this.findOneInSpace(spaceId, 'number', key.number, manager)
      : this.findOneInSpace(spaceId, 'id', key.id, manager);
  }

  /**
   * The head revisions of the space's change requests still being worked on (draft or open),
   * the last updated first, `limit` at most.
   */
  async activeHeads(
    spaceId: string,
    limit: number,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<string[]> {
    const rows: { revision: string }[] = await manager.query(
      `SELECT revision FROM change_requests
        WHERE space_id = $1 AND status IN ('draft', 'open')
        ORDER BY updated_at DESC, id DESC LIMIT $2`,
      [spaceId, limit],
    );
    return rows.map((row) => row.revision);
  }

  /** The change request of the space whose merge made `revisionId`, as findInSpace reads it. */
  findMergedAs(spaceId: string, revisionId: string): Promise<ChangeRequest | null> {
    return this.findOneInSpace(spaceId, 'revision_merged', revisionId, this.dataSource.manager);
  }

  private async findOneInSpace(
    spaceId: string,
    column: 'id' | 'number' | 'revision_merged',
    value: string | number,
    manager: EntityManager,
  ): Promise<ChangeRequest | null> {
    const rows = await preparedQuery<Record<string, unknown>>(
      manager,
      `bindery_change_request_by_${column}`,
      `SELECT cr.*, s.revision_id AS s_revision_id, s.deleted_at AS s_deleted_at,
              ${selectColumns(this.dataSource, User, 'u', 'u_')}
         FROM change_requests cr
         JOIN spaces s ON s.id = cr.space_id
         LEFT JOIN users u ON u.id = cr.created_by
        WHERE cr.space_id = $1 AND cr.${column} = $2`,
      [spaceId, value],
    );
    if (rows.length === 0) return null;
    const [row] = rows;
    const changeRequest = entityFromRow(this.dataSource, ChangeRequest, row);
    changeRequest.space = Object.assign(this.dataSource.getMetadata(Space).create() as Space, {
      id: changeRequest.spaceId,
      revisionId: row.s_revision_id as string,
      deletedAt: row.s_deleted_at as Date | null,
    });
    changeRequest.creator =
      row.u_id === null ? null : entityFromRow(this.dataSource, User, row, 'u_');
    return changeRequest;
  }

  /**
   * The change request `key` of the space alone (no space nor creator), its row locked FOR
   * UPDATE for the rest of the transaction; null when absent.
   */
  lockInSpace(
    spaceId: string,
    key: ChangeRequestKey,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<ChangeRequest | null> {
    const query = manager.getRepository(ChangeRequest).createQueryBuilder('cr');
    return this.whereInSpace(query, spaceId, key).setLock('pessimistic_write').getOne();
  }

  /** The id of the change request `key` of the space, or null. */
  async findIdInSpace(
    spaceId: string,
    key: ChangeRequestKey,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<string | null> {
    const byNumber = 'number' in key;
    const rows: { id: string }[] = await manager.query(
      `SELECT id FROM change_requests WHERE space_id = $1 AND ${byNumber ? 'number' : 'id'} = $2`,
      [spaceId, byNumber ? key.number : key.id],
    );
    return rows[0]?.id ?? null;
  }

  /**
   * For access decisions (ChangeRequestAccessPolicy): the change request `key` of the space,
   * with whether `userId` is a requested reviewer of it (`change_request_requested_reviewers`),
   * in one statement; null when absent.
   */
  async accessRow(
    spaceId: string,
    key: ChangeRequestKey,
    userId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<ChangeRequestAccessRow | null> {
    const rows = await preparedQuery<ChangeRequestAccessRow>(
      manager,
      'bindery_resolve_change_request',
      `SELECT cr.id, cr.created_by,
              EXISTS (SELECT 1 FROM change_request_requested_reviewers q
                       WHERE q.change_request_id = cr.id AND q.user_id = $4) AS requested
         FROM change_requests cr
        WHERE cr.space_id = $1
          AND CASE WHEN $3::int IS NULL THEN cr.id = $2 ELSE cr.number = $3::int END`,
      [spaceId, 'id' in key ? key.id : null, 'number' in key ? key.number : null, userId],
    );
    return rows[0] ?? null;
  }

  /** Gives the change requests of the spaces `spaceIds` to `organizationId` (a transfer). */
  async moveToOrganization(
    spaceIds: string[],
    organizationId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(
      `UPDATE change_requests SET organization_id = $1 WHERE space_id = ANY($2::varchar[])`,
      [organizationId, spaceIds],
    );
  }

  /** A page of the space's change requests matching `filters`, highest number first. */
  listForSpace(
    spaceId: string,
    filters: ChangeRequestListFilters,
    request: PageRequest,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Page<ChangeRequest>> {
    const rows = this.filtered(
      this.views(manager).where('cr.space_id = :spaceId', { spaceId }),
      filters,
    );
    return this.page(rows, request, [{ sql: 'cr.number', of: (cr) => cr.number }]);
  }

  /**
   * A page of the organization's change requests on live spaces matching `filters`, newest
   * first, on the spaces `viewer` may see.
   */
  listForOrganization(
    viewer: ContentViewer,
    filters: ChangeRequestListFilters,
    request: PageRequest,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Page<ChangeRequest>> {
    const rows = this.views(manager)
      .where('cr.organization_id = :organizationId', { organizationId: viewer.organizationId })
      .andWhere('s.deleted_at IS NULL');
    whereVisibleTo(rows, 'space', 'cr.space_id', viewer);
    return this.page(this.filtered(rows, filters), request, [
      { sql: 'cr.created_at', of: (cr) => cr.createdAt },
      { sql: 'cr.id', of: (cr) => cr.id },
    ]);
  }

  /** The number the space's next change request takes: one more than its highest. */
  async nextNumber(
    spaceId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<number> {
    const [{ next }]: { next: number }[] = await manager.query(
      `SELECT COALESCE(MAX(number), 0) + 1 AS next FROM change_requests WHERE space_id = $1`,
      [spaceId],
    );
    return Number(next);
  }

  /** Moves the change request's count of open comments, atomically (`comments = comments ± 1`). */
  async adjustComments(
    changeRequestId: string,
    delta: 1 | -1,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(`UPDATE change_requests SET comments = comments + $2 WHERE id = $1`, [
      changeRequestId,
      delta,
    ]);
  }

  /** Locks the change request's row for the rest of the transaction. */
  async lock(
    changeRequestId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query('SELECT 1 FROM change_requests WHERE id = $1 FOR UPDATE', [
      changeRequestId,
    ]);
  }

  /**
   * Locks the live space's row and reads its primary revision with its own and its
   * organization's merge rules; null when the space is absent or deleted.
   */
  async lockSpaceForMerge(
    spaceId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<MergeLockedSpace | null> {
    // Reads spaces and organizations, owned by spaces and orgs: one statement takes the space
    // row's lock and reads, under it, the primary and both levels of merge rules.
    const rows: MergeLockedSpace[] = await manager.query(
      `SELECT s.revision_id, s.merge_rules, o.merge_rules AS organization_merge_rules
         FROM spaces s JOIN organizations o ON o.id = s.organization_id
        WHERE s.id = $1 AND s.deleted_at IS NULL
          FOR UPDATE OF s`,
      [spaceId],
    );
    return rows[0] ?? null;
  }

  /** Whether the organization has the conversations issues cluster `clusterId`. */
  async clusterExists(
    clusterId: string,
    organizationId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    // Reads conversation_issue_clusters, owned by conversations: that module exports no
    // service, and its cluster read computes a pulse a check does not need.
    const found: unknown[] = await manager.query(
      `SELECT 1 FROM conversation_issue_clusters WHERE id = $1 AND organization_id = $2`,
      [clusterId, organizationId],
    );
    return found.length > 0;
  }

  private views(manager: EntityManager): SelectQueryBuilder<ChangeRequest> {
    // Joins spaces and users, owned by spaces and users: a change request's wire shape carries
    // its space's primary revision and its creator, read with it in one query.
    return manager
      .getRepository(ChangeRequest)
      .createQueryBuilder('cr')
      .innerJoin('cr.space', 's')
      .addSelect(['s.id', 's.revisionId', 's.deletedAt'])
      .leftJoinAndSelect('cr.creator', 'u');
  }

  /** Keeps the change request `key` of the space (aliased `cr`). */
  private whereInSpace(
    query: SelectQueryBuilder<ChangeRequest>,
    spaceId: string,
    key: ChangeRequestKey,
  ): SelectQueryBuilder<ChangeRequest> {
    query.where('cr.space_id = :spaceId', { spaceId });
    if ('number' in key) {
      query.andWhere('cr.number = :number', { number: key.number });
    } else {
      query.andWhere('cr.id = :id', { id: key.id });
    }
    return query;
  }

  private filtered(
    rows: SelectQueryBuilder<ChangeRequest>,
    filters: ChangeRequestListFilters,
  ): SelectQueryBuilder<ChangeRequest> {
    rows.andWhere('cr.status = :status', { status: filters.status });
    if (filters.creator !== undefined) {
      rows.andWhere('cr.created_by = :creator', { creator: filters.creator });
    }
    // Its creator, and whoever edited its content or commented on it.
    if (filters.contributor !== undefined) {
      rows.andWhere(
        `(cr.created_by = :contributor OR EXISTS (
           SELECT 1 FROM change_request_contributors c
            WHERE c.change_request_id = cr.id AND c.user_id = :contributor))`,
        { contributor: filters.contributor },
      );
    }
    if (filters.requestedReviewer !== undefined) {
      rows.andWhere(
        `EXISTS (SELECT 1 FROM change_request_requested_reviewers q
                  WHERE q.change_request_id = cr.id AND q.user_id = :requestedReviewer)`,
        { requestedReviewer: filters.requestedReviewer },
      );
    }
    if (filters.conversationsIssuesCluster !== undefined) {
      rows.andWhere('cr.conversations_issues_cluster_id = :conversationsIssuesCluster', {
        conversationsIssuesCluster: filters.conversationsIssuesCluster,
      });
    }
    return rows;
  }

  private page(
    rows: SelectQueryBuilder<ChangeRequest>,
    request: PageRequest,
    keys: ListKey[],
  ): Promise<Page<ChangeRequest>> {
    return paginate(rows, request, { keys, direction: 'DESC' });
  }
}
