import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ContentWriter } from '../../content-engine/writes/content-writer';
import {
  SpaceTemplates,
  type SpaceTemplateParams,
} from '../../content-engine/writes/space-templates';
import { notFound } from '../../platform/errors/domain-error';
import type { Space } from '../../spaces/entities/space.entity';
import { ChangeRequestsRepository } from '../change-requests.repository';
import { changeRequestKey } from '../change-requests.service';
import { ChangeRequestContributors } from '../reviews/change-request-contributors';

/**
 * applyTemplateToSpace: the template's pages replace the primary's, as one `edits` commit; with
 * `changeRequestId` (its id or its number in the space), they replace the change request's
 * pages instead, as one commit on its head, and count as the author's edit.
 */
@Injectable()
export class TemplateApplication {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly templates: SpaceTemplates,
    private readonly writer: ContentWriter,
    private readonly changeRequests: ChangeRequestsRepository,
    private readonly contributors: ChangeRequestContributors,
  ) {}

  async applyToSpace(
    space: Space,
    authorId: string,
    input: { id: string; params?: SpaceTemplateParams; changeRequestId?: string },
  ): Promise<void> {
    const { changes, link } = await this.templates.replacement(space.organizationId, input);
    const key = input.changeRequestId;
    await this.dataSource.transaction(async (manager) => {
      // Pages computed from a specification follow its new versions (on the primary).
      await link(manager, space.id);
      if (key === undefined) {
        await this.writer.commitOnPrimary(manager, {
          spaceId: space.id,
          expectedRevisionId: space.revisionId,
          authorId,
          type: 'edits',
          changes,
        });
        return;
      }
      const changeRequestId = await this.changeRequests.findIdInSpace(
        space.id,
        changeRequestKey(key),
        manager,
      );
      if (changeRequestId === null) throw notFound('Change request');
      await this.writer.commitOnChangeRequest(manager, {
        spaceId: space.id,
        changeRequestId,
        authorId,
        changes,
      });
      await this.contributors.record(manager, changeRequestId, authorId, 'edit');
    });
  }
}
