import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { Access, Granted } from '../../platform/auth/access.decorator';
import { ErrorBody } from '../../platform/errors/error-body';
import { contentView } from '../../spaces/content/content.presenter';
import type { SpaceAccess } from '../../spaces/space-access.resolver';
import {
  DEFAULT_CHANGES_LIMIT,
  RevisionChangesQueryDto,
  RevisionPageDiffQueryDto,
} from './dto/changes-query.dto';
import { PageDiffResponse } from './dto/page-diff.response';
import { RevisionSemanticChangesResponse } from './dto/semantic-changes.response';
import { RevisionChangesPresenter } from './revision-changes.presenter';
import { RevisionChanges } from './revision-changes.service';

const badRequest = ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' });

/** What a revision of a space changes: against its first parent, or a revision given. */
@Controller('spaces/:spaceId/revisions/:revisionId/changes')
export class RevisionChangesController {
  constructor(
    private readonly changes: RevisionChanges,
    private readonly presenter: RevisionChangesPresenter,
  ) {}

  @Get()
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'getRevisionSemanticChanges',
    summary: 'Get semantic content changes introduced by a revision',
    description:
      'Against its first parent (a merge: the content it merged into, with `mergedFrom`; a ' +
      "space's first revision: everything is created). As getChangeRequestChanges lists them. " +
      'A revision of another space is not found.',
  })
  @ApiOkResponse({ type: RevisionSemanticChangesResponse })
  @badRequest
  async list(
    @Granted() space: SpaceAccess,
    @Param('revisionId') revisionId: string,
    @Query() query: RevisionChangesQueryDto,
  ): Promise<RevisionSemanticChangesResponse> {
    const pair = await this.changes.ofRevision(space, revisionId);
    const [changes, mergedFrom] = await Promise.all([
      this.changes.changes(pair),
      this.changes.mergedFrom(pair.to),
    ]);
    return this.presenter.changes(
      changes,
      query.limit ?? DEFAULT_CHANGES_LIMIT,
      contentView(space, { revisionId, metadata: query.metadata }),
      mergedFrom,
    );
  }

  @Get('pages/:pageId')
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'getRevisionPageDiff',
    summary: 'Compare a page of a revision with the revision before, block by block',
    description:
      "Bindery's own. As getChangeRequestPageDiff, from the revision's first parent (or `from`, " +
      'a revision of the same space: 404 otherwise) to the revision.',
  })
  @ApiOkResponse({ type: PageDiffResponse })
  @badRequest
  async page(
    @Granted() space: SpaceAccess,
    @Param('revisionId') revisionId: string,
    @Param('pageId') pageId: string,
    @Query() query: RevisionPageDiffQueryDto,
  ): Promise<PageDiffResponse> {
    const pair = await this.changes.ofRevision(space, revisionId, query.from);
    return this.presenter.pageDiff(pageId, pair, await this.changes.page(pair, pageId), {
      before: contentView(space, { revisionId: pair.from?.revision.id }),
      after: contentView(space, { revisionId }),
    });
  }
}
