import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { markdownToDocument } from '../../content-engine/documents/markdown';
import type { FileNode } from '../../content-engine/tree/format';
import {
  assertChangeRequestWritable,
  assertSpaceEditable,
  ContentWriter,
} from '../../content-engine/writes/content-writer';
import { newId } from '../../platform/ids/ids';
import { OutboundHttp } from '../../platform/outbound-http';
import type { SpaceAccess } from '../../spaces/space-access.resolver';
import { RevisionsRepository } from '../../content-engine/revisions.repository';
import { SpacesRepository } from '../../spaces/spaces.repository';
import { ChangeRequestsService, type ChangeRequestView } from '../change-requests.service';
import { ChangeRequest } from '../entities/change-request.entity';
import { ChangeRequestContributors } from '../reviews/change-request-contributors';
import { planTreeChanges, type TouchedPage, type TreeChangePlan } from './tree-change-plan';
import type { Change } from './dto/update-change-request-content.dto';
import { FileSources } from './file-sources';

/** A write as done: the change request after it, and what the batch did. */
export interface ContentWriteResult {
  changeRequest: ChangeRequestView;
  /** The new head (the response's ETag). */
  revisionId: string;
  pages: TouchedPage[];
  insertedFiles: FileNode[];
}

/**
 * `updateChangeRequestContent` (REFERENCE §16): a batch of page and file changes becomes one
 * new revision on the change request, all or nothing. Files given by URL are fetched before
 * the transaction (no lock is held during the network calls); the batch is translated and
 * committed under the change request's row lock, so concurrent writes each apply on the head
 * the previous one made.
 */
@Injectable()
export class ChangeRequestContentWrites {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly changeRequests: ChangeRequestsService,
    private readonly writer: ContentWriter,
    private readonly revisions: RevisionsRepository,
    private readonly spaces: SpacesRepository,
    private readonly http: OutboundHttp,
    private readonly contributors: ChangeRequestContributors,
  ) {}

  async update(
    access: SpaceAccess,
    changeRequestId: string,
    authorId: string,
    input: { changes: readonly Change[]; expectedRevisionId?: string },
  ): Promise<ContentWriteResult> {
    const { changeRequest } = await this.changeRequests.get(access, changeRequestId);
    // Early refusals, so that no file is fetched for nothing; checked again under the locks.
    assertSpaceEditable(access.entity);
    assertChangeRequestWritable(changeRequest, input.expectedRevisionId);
    const files = await FileSources.read(input.changes, this.http);
    return this.dataSource.transaction(async (manager) => {
      let plan: TreeChangePlan | undefined;
      const { revision } = await this.writer.commitOnChangeRequest(manager, {
        spaceId: access.id,
        changeRequestId: changeRequest.id,
        expectedRevisionId: input.expectedRevisionId,
        authorId,
        changes: async ({ tree, store, changeRequest: head }) => {
          plan = await planTreeChanges(
            {
              store,
              tree,
              baseRevisionId: head.revisionMergedAncestor ?? head.revisionInitial,
              revisionTree: (revisionId) => this.revisionTree(manager, access.id, revisionId),
              fileBytes: (change, file) => files.get(change, file),
              storeFile: (file) => this.writer.storeFile(manager, file),
              markdownToDocument: (markdown) => markdownToDocument(markdown),
              newId,
            },
            input.changes,
          );
          return plan.changes;
        },
      });
      const done = plan as TreeChangePlan;
      await this.contributors.record(manager, changeRequest.id, authorId, 'edit');
      return {
        changeRequest: await this.view(manager, access.id, changeRequest.id),
        revisionId: revision.id,
        pages: done.pages,
        insertedFiles: done.insertedFiles,
      };
    });
  }

  private async revisionTree(
    manager: EntityManager,
    spaceId: string,
    revisionId: string,
  ): Promise<string | undefined> {
    return this.revisions.findTree(revisionId, spaceId, manager);
  }

  /** The change request as this transaction left it (a later write cannot show through). */
  private async view(
    manager: EntityManager,
    spaceId: string,
    changeRequestId: string,
  ): Promise<ChangeRequestView> {
    const changeRequest = await manager.findOneOrFail(ChangeRequest, {
      where: { id: changeRequestId, spaceId },
      relations: { creator: true },
    });
    const space = await this.spaces.findHead(spaceId, '', manager);
    if (!space) throw new Error(`Space ${spaceId} is missing`);
    return { changeRequest, primaryRevision: space.revisionId };
  }
}
