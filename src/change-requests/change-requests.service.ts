import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Clock } from '../platform/clock/clock';
import { invalidInput, notFound } from '../platform/errors/domain-error';
import { newId } from '../platform/ids/ids';
import { Page } from '../platform/pagination/page';
import type { Role } from '../platform/policy/roles';
import { Space } from '../spaces/entities/space.entity';
import { type SpaceAccess } from '../spaces/space-access.resolver';
import { userActor } from '../platform/events/event-outbox';
import { SpacesRepository, type SpaceCounterDeltas } from '../spaces/spaces.repository';
import {
  CreateChangeRequestDto,
  ListChangeRequestsQueryDto,
  UpdateChangeRequestDto,
} from './dto/change-request.dto';
import { changeRequestMerged } from './change-request-errors';
import {
  ChangeRequestKey,
  ChangeRequestListFilters,
  ChangeRequestsRepository,
} from './change-requests.repository';
import { ChangeRequestEvents } from './change-request-events';
import type { ChangeRequestView } from './change-request-view';
import { ChangeRequest, ChangeRequestStatus } from './entities/change-request.entity';

export type { ChangeRequestView } from './change-request-view';

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
    private readonly repository: ChangeRequestsRepository,
    private readonly clock: Clock,
    private readonly spaces: SpacesRepository,
    private readonly events: ChangeRequestEvents,
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
    return this.dataSource.transaction((manager) =>
      this.insert(manager, access.id, userId, input, undefined),
    );
  }

  /**
   * Opens a change request whose content is already a revision of the space: `revision`, made
   * on top of `revisionInitial` (its merge base), in the caller's transaction. A Git import
   * that both sides changed is proposed this way.
   */
  openWithRevision(
    manager: EntityManager,
    spaceId: string,
    userId: string,
    input: { subject: string; revisionInitial: string; revision: string },
  ): Promise<ChangeRequestView> {
    return this.insert(manager, spaceId, userId, { subject: input.subject }, input);
  }

  /**
   * Opens a change request on the space's primary revision in the caller's transaction (an
   * import writes its content into it in the same transaction).
   */
  openInTransaction(
    manager: EntityManager,
    spaceId: string,
    userId: string,
    input: { subject: string },
  ): Promise<ChangeRequestView> {
    return this.insert(manager, spaceId, userId, { subject: input.subject }, undefined);
  }

  private async insert(
    manager: EntityManager,
    spaceId: string,
    userId: string,
    input: Pick<CreateChangeRequestDto, 'status' | 'subject' | 'conversationsIssuesCluster'>,
    revisions: { revisionInitial: string; revision: string } | undefined,
  ): Promise<ChangeRequestView> {
    const status = input.status ?? 'open';
    // Counting first locks the space row: concurrent creates in the space queue here, so each
    // reads the numbers the previous ones committed.
    const counted = COUNTED[status]!;
    const locked = await this.spaces.adjustLiveCounters(
      spaceId,
      { change_requests: 1, [counted]: 1 },
      manager,
    );
    if (!locked) throw notFound('Space');
    const { revisionId: primary, organizationId } = locked;
    const next = await this.repository.nextNumber(spaceId, manager);
    const cluster = input.conversationsIssuesCluster ?? null;
    if (cluster !== null) {
      if (!(await this.repository.clusterExists(cluster, organizationId, manager))) {
        throw invalidInput('conversationsIssuesCluster: no such cluster in this organization.');
      }
    }
    const now = this.clock.now();
    const id = newId();
    await manager.insert(ChangeRequest, {
      conversationsIssuesClusterId: cluster,
      id,
      spaceId,
      organizationId,
      number: next,
      status,
      subject: input.subject ?? '',
      description: null,
      createdBy: userId,
      revisionInitial: revisions?.revisionInitial ?? primary,
      revision: revisions?.revision ?? primary,
      revisionMergedAncestor: null,
      revisionMerged: null,
      createdAt: now,
      updatedAt: now,
    });
    const opened = await this.load(manager, spaceId, id);
    await this.events.record(manager, 'change_request_opened', opened, userActor(userId));
    return opened;
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
    userId: string,
    changeRequestId: string,
    input: UpdateChangeRequestDto,
  ): Promise<ChangeRequestView> {
    return this.dataSource.transaction(async (manager) => {
      // The space row first (as create does), then the change request: one lock order.
      await this.spaces.lockForUpdate(access.id, manager);
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
      const updated = await this.load(manager, access.id, current.id);
      const changed = Object.keys(changes).filter((field) => field !== 'updatedAt');
      await this.events.record(
        manager,
        changes.status === 'archived' ? 'change_request_closed' : 'change_request_updated',
        updated,
        userActor(userId),
        { changed },
      );
      return updated;
    });
  }

  /** The space's change requests in `status` (open by default), highest number first. */
  listForSpace(
    access: SpaceAccess,
    query: ListChangeRequestsQueryDto,
  ): Promise<Page<ChangeRequestView>> {
    return this.viewPage(this.repository.listForSpace(access.id, this.filters(query), query));
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
    return this.viewPage(
      this.repository.listForOrganization(
        { organizationId, userId, role: organizationRole },
        this.filters(query),
        query,
      ),
    );
  }

  private filters(query: ListChangeRequestsQueryDto): ChangeRequestListFilters {
    return {
      status: query.status ?? 'open',
      creator: query.creator,
      contributor: query.contributor,
      requestedReviewer: query.requestedReviewer,
      conversationsIssuesCluster: query.conversationsIssuesCluster,
    };
  }

  private async viewPage(rows: Promise<Page<ChangeRequest>>): Promise<Page<ChangeRequestView>> {
    const page = await rows;
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
    const changeRequest = await this.repository.findInSpace(
      spaceId,
      changeRequestKey(changeRequestId),
      manager,
    );
    if (!changeRequest) throw changeRequestNotFound();
    return this.view(changeRequest);
  }
}

/** `key` as a change request's id or, all digits, its number in the space. */
export function changeRequestKey(key: string): ChangeRequestKey {
  return /^\d{1,9}$/.test(key) ? { number: Number(key) } : { id: key };
}
