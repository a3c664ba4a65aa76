import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { Access, Granted } from '../../platform/auth/access.decorator';
import { ErrorBody } from '../../platform/errors/error-body';
import { contentView } from '../../spaces/content/content.presenter';
import type { SpaceAccess } from '../../spaces/space-access.resolver';
import { ChangesQueryDto, DEFAULT_CHANGES_LIMIT } from './dto/changes-query.dto';
import { PageDiffResponse } from './dto/page-diff.response';
import { RevisionSemanticChangesResponse } from './dto/semantic-changes.response';
import { RevisionChangesPresenter } from './revision-changes.presenter';
import { RevisionChanges } from './revision-changes.service';

const badRequest = ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' });

/**
 * What a change request changes: its head against its merge base (the primary revision it was
 * last updated from, else the one it started from), for reviewers. `:changeRequestId` is its id
 * or its number in the space.
 */
@Controller('spaces/:spaceId/change-requests/:changeRequestId/changes')
export class ChangeRequestChangesController {
  constructor(
    private readonly changes: RevisionChanges,
    private readonly presenter: RevisionChangesPresenter,
  ) {}

  @Get()
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'getChangeRequestChanges',
    summary: 'List semantic content changes in a change request vs its base',
    description:
      'Pages created, edited, deleted and moved to another parent, then files, reusable ' +
      'contents and variables, computed from the parts of the two trees that differ. The first ' +
      '`limit` (10 by default); `more` counts the others.',
  })
  @ApiOkResponse({ type: RevisionSemanticChangesResponse })
  @badRequest
  async list(
    @Granted() space: SpaceAccess,
    @Param('changeRequestId') changeRequestId: string,
    @Query() query: ChangesQueryDto,
  ): Promise<RevisionSemanticChangesResponse> {
    const pair = await this.changes.ofChangeRequest(space, changeRequestId);
    return this.presenter.changes(
      await this.changes.changes(pair),
      query.limit ?? DEFAULT_CHANGES_LIMIT,
      contentView(space, { changeRequestNumber: pair.changeRequest.changeRequest.number }),
    );
  }

  @Get('pages/:pageId')
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'getChangeRequestPageDiff',
    summary: 'Compare a page of a change request with its base, block by block',
    description:
      "Bindery's own. The page before (in the merge base) and after (in the change request), " +
      'what changed of it, and its top-level blocks in the new order, each `added`, `removed`, ' +
      '`changed` (with word-level `inline` differences of its text), `moved` or `unchanged`, ' +
      'matched by `key` (blocks without keys by content). A page on one side only is all ' +
      'added or all removed; 404 when neither side has it.',
  })
  @ApiOkResponse({ type: PageDiffResponse })
  async page(
    @Granted() space: SpaceAccess,
    @Param('changeRequestId') changeRequestId: string,
    @Param('pageId') pageId: string,
  ): Promise<PageDiffResponse> {
    const pair = await this.changes.ofChangeRequest(space, changeRequestId);
    return this.presenter.pageDiff(pageId, pair, await this.changes.page(pair, pageId), {
      before: contentView(space, { revisionId: pair.from.revision.id }),
      after: contentView(space, { changeRequestNumber: pair.changeRequest.changeRequest.number }),
    });
  }
}
