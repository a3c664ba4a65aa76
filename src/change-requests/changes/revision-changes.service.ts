import { Injectable } from '@nestjs/common';
import { ContentDiff, type PageDiff } from '../../content-engine/diff/content-diff';
import type { TreeChange } from '../../content-engine/diff/tree-changes';
import { ContentReader, type ReadRevision } from '../../content-engine/reads/content-reader';
import {
  MergedChangeRequests,
  type PresentedChangeRequest,
} from '../../spaces/content/merged-change-requests';
import type { SpaceAccess } from '../../spaces/space-access.resolver';
import { ChangeRequestsService, type ChangeRequestView } from '../change-requests.service';

/** Two revisions of a space to compare: `from` is null for a revision without a parent. */
export interface RevisionPair {
  from: ReadRevision | null;
  to: ReadRevision;
}

/**
 * What a change request or a revision changes: the pair of revisions each compares (a change
 * request's head against its merge base, a revision against its first parent or a revision
 * given), and the content engine's diff of them.
 */
@Injectable()
export class RevisionChanges {
  constructor(
    private readonly reader: ContentReader,
    private readonly diff: ContentDiff,
    private readonly changeRequests: ChangeRequestsService,
    private readonly mergedChangeRequests: MergedChangeRequests,
  ) {}

  /**
   * The change request (by id or number; 404 otherwise), its head and its merge base: the
   * primary revision it was last updated from, else the one it started from (as its merge does).
   */
  async ofChangeRequest(
    space: SpaceAccess,
    changeRequestId: string,
  ): Promise<{ from: ReadRevision; to: ReadRevision; changeRequest: ChangeRequestView }> {
    const changeRequest = await this.changeRequests.get(space, changeRequestId);
    const { revision, revisionMergedAncestor, revisionInitial } = changeRequest.changeRequest;
    const [from, to] = await Promise.all([
      this.reader.readRevision(space.id, revisionMergedAncestor ?? revisionInitial),
      this.reader.readRevision(space.id, revision),
    ]);
    return { changeRequest, from, to };
  }

  /**
   * A revision of the space (404 otherwise) and the one to compare it with: `fromRevisionId`
   * (of the same space, 404 otherwise) or else its first parent (a merge's is the content it
   * merged into).
   */
  async ofRevision(
    space: SpaceAccess,
    revisionId: string,
    fromRevisionId?: string,
  ): Promise<RevisionPair> {
    const to = await this.reader.readRevision(space.id, revisionId);
    const fromId = fromRevisionId ?? to.revision.parents[0];
    const from = fromId === undefined ? null : await this.reader.readRevision(space.id, fromId);
    return { from, to };
  }

  changes(pair: RevisionPair): Promise<TreeChange[]> {
    return this.diff.changes(pair.from, pair.to);
  }

  page(pair: RevisionPair, pageId: string): Promise<PageDiff> {
    return this.diff.page(pair.from, pair.to, pageId);
  }

  /** For a merge revision, the change request it merged. */
  mergedFrom(read: ReadRevision): Promise<PresentedChangeRequest | undefined> {
    const { revision } = read;
    if (revision.type !== 'merge') return Promise.resolve(undefined);
    return this.mergedChangeRequests.find(revision.spaceId, revision.id);
  }
}
