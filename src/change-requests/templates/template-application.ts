import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ContentWriter } from '../../content-engine/writes/content-writer';
import {
  SpaceTemplates,
  type SpaceTemplateParams,
} from '../../content-engine/writes/space-templates';
import { Clock } from '../../platform/clock/clock';
import { notFound } from '../../platform/errors/domain-error';
import type { Space } from '../../spaces/entities/space.entity';
import { countContribution } from '../reviews/change-request-contributors';

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
    private readonly clock: Clock,
  ) {}

  async applyToSpace(
    space: Space,
    authorId: string,
    input: { id: string; params?: SpaceTemplateParams; changeRequestId?: string },
  ): Promise<void> {
    const changes = await this.templates.replacement(space.organizationId, input);
    const changeRequestKey = input.changeRequestId;
    await this.dataSource.transaction(async (manager) => {
      if (changeRequestKey === undefined) {
        await this.writer.commitOnPrimary(manager, {
          spaceId: space.id,
          expectedRevisionId: space.revisionId,
          authorId,
          type: 'edits',
          changes,
        });
        return;
      }
      const changeRequestId = await changeRequestIdOf(manager, space.id, changeRequestKey);
      await this.writer.commitOnChangeRequest(manager, {
        spaceId: space.id,
        changeRequestId,
        authorId,
        changes,
      });
      await countContribution(manager, changeRequestId, authorId, 'edit', this.clock.now());
    });
  }
}

/** The id of change request `key` (its id, or its number in the space); 404 otherwise. */
async function changeRequestIdOf(
  manager: EntityManager,
  spaceId: string,
  key: string,
): Promise<string> {
  const byNumber = /^\d{1,9}$/.test(key);
  const rows: { id: string }[] = await manager.query(
    `SELECT id FROM change_requests WHERE space_id = $1 AND ${byNumber ? 'number' : 'id'} = $2`,
    [spaceId, byNumber ? Number(key) : key],
  );
  if (!rows[0]) throw notFound('Change request');
  return rows[0].id;
}
