import { Body, Controller, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiExtraModels,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiPreconditionFailedResponse,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Access, CurrentUser, Granted } from '../../platform/auth/access.decorator';
import { LargeBody } from '../../platform/validation/request-body';
import type { UserActor } from '../../platform/auth/actor';
import { ErrorBody } from '../../platform/errors/error-body';
import type { SpaceAccess } from '../../spaces/space-access.resolver';
import { ChangeRequestsPresenter } from '../change-requests.presenter';
import { ChangeRequestResponse } from '../dto/change-request.response';
import { ChangeRequestContentWrites } from './change-request-content-writes.service';
import { ChangeRequestContentWritesPresenter } from './change-request-content-writes.presenter';
import { ChangeRequestContentUpdateResponse } from './dto/change-request-content-update.response';
import {
  MAX_CHANGES,
  UpdateChangeRequestContentDto,
  UpdateChangeRequestContentQueryDto,
} from './dto/update-change-request-content.dto';
import { entityTagOf, expectedRevisionOf } from './if-match';

@ApiExtraModels(ChangeRequestResponse, ChangeRequestContentUpdateResponse)
@Controller()
export class ChangeRequestContentWritesController {
  constructor(
    private readonly writes: ChangeRequestContentWrites,
    private readonly changeRequests: ChangeRequestsPresenter,
    private readonly presenter: ChangeRequestContentWritesPresenter,
  ) {}

  @Post('spaces/:spaceId/change-requests/:changeRequestId/content')
  @HttpCode(200)
  @Access('space', 'edit')
  @LargeBody()
  @ApiOperation({
    operationId: 'updateChangeRequestContent',
    summary: 'Update the content of a change request',
    description:
      `1 to ${MAX_CHANGES} changes (insert_page, update_page, delete_page, revert_page, ` +
      'insert_files), applied in order as one new `edits` revision on top of the change ' +
      'request\'s head, all or nothing: an invalid change is a 400 naming it ("Change 3 ' +
      '(update_page): …"), and nothing is written. Pages and files inserted in the batch may ' +
      'be linked from its markdown as `./<ref>.md` and `./<ref>`; other links are resolved ' +
      "against the change request's pages and files once the batch is applied: paths " +
      'relative to the page as `format=markdown` reads and the Git export write them, and ' +
      'the stable forms of `format.markdown.refs=stable` (`/pages/<pageId>`, ' +
      '`/files/<fileId>`, …, which keep naming a page or file that is no longer there). A ' +
      'link that resolves to nothing stays a link to what was written. Markdown frontmatter ' +
      'sets page metadata; a new page takes its title from the frontmatter, else from a ' +
      'leading `# heading` (removed from the body), else `title`, else "Untitled". ' +
      '`If-Match: "<revision id>"` makes the write conditional on the head (412 when it ' +
      'moved); the response carries the new head as `ETag`. Refused with 409: a space whose ' +
      'edit mode is `locked`, and a merged or archived change request (reopen an archived ' +
      'one first). `{changeRequestId}` is its id or its number in the space.',
  })
  @ApiHeader({
    name: 'If-Match',
    required: false,
    description: 'The ETag (`"<revision id>"`) of the head the changes were made against.',
  })
  @ApiOkResponse({
    description: '`compat=true` (default): the change request; `compat=false`: the details.',
    headers: {
      ETag: { description: 'The new head: `"<revision id>"`.', schema: { type: 'string' } },
    },
    schema: {
      oneOf: [
        { $ref: getSchemaPath(ChangeRequestResponse) },
        { $ref: getSchemaPath(ChangeRequestContentUpdateResponse) },
      ],
    },
  })
  @ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input or an invalid change.' })
  @ApiConflictResponse({
    type: ErrorBody,
    description: 'The space is locked, or the change request is merged or archived.',
  })
  @ApiPreconditionFailedResponse({
    type: ErrorBody,
    description: "If-Match does not name the change request's head.",
  })
  async update(
    @CurrentUser() actor: UserActor,
    @Granted() space: SpaceAccess,
    @Param('changeRequestId') changeRequestId: string,
    @Query() query: UpdateChangeRequestContentQueryDto,
    @Body() body: UpdateChangeRequestContentDto,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) response: Response,
  ): Promise<ChangeRequestResponse | ChangeRequestContentUpdateResponse> {
    const result = await this.writes.update(space, changeRequestId, actor.userId, {
      changes: body.changes,
      expectedRevisionId: expectedRevisionOf(ifMatch),
    });
    response.setHeader('ETag', entityTagOf(result.revisionId));
    return query.compat === false
      ? this.presenter.present(result)
      : this.changeRequests.present(result.changeRequest);
  }
}
