import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Put,
  Query,
  Res,
} from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { MemberResponse } from '../orgs/members/dto/member.response';
import { Access, CurrentUser, Granted } from '../platform/auth/access.decorator';
import type { UserActor } from '../platform/auth/actor';
import { ErrorBody } from '../platform/errors/error-body';
import { mapPage, Page, PageOf } from '../platform/pagination/page';
import { PageQueryDto } from '../platform/pagination/page-query.dto';
import type { SpaceAccess } from '../spaces/space-access.resolver';
import { CommentsPresenter } from './comments.presenter';
import { CommentersService } from './commenters.service';
import { COMMENTS, REPLIES } from './comment-kinds';
import type { ThreadRef } from './comment-thread';
import { CommentThreadsService } from './comment-threads.service';
import { CommentWritesService } from './comment-writes.service';
import {
  CommentFormatQueryDto,
  ListCommentsQueryDto,
  ListRepliesQueryDto,
  PostCommentDto,
  PostCommentReplyDto,
  UpdateCommentDto,
} from './dto/comment.dto';
import { CommentReplyResponse, CommentResponse } from './dto/comment.response';

const badRequest = ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' });
const BASE = 'spaces/:spaceId/change-requests/:changeRequestId';
const COMMENT = `${BASE}/comments/:commentId`;
const REPLY = `${COMMENT}/replies/:commentReplyId`;

/** The comments of a change request (by id or number) of the space. */
const thread = (space: SpaceAccess, changeRequestId: string): ThreadRef => ({
  space,
  changeRequestId,
});

/**
 * Comments of a change request. A merged or archived change request still takes comments:
 * discussion goes on after a merge, as in GitBook.
 */
@ApiTags('change-request-comments')
@Controller()
export class ChangeRequestCommentsController {
  constructor(
    private readonly threads: CommentThreadsService,
    private readonly writes: CommentWritesService,
    private readonly commentersService: CommentersService,
    private readonly presenter: CommentsPresenter,
  ) {}

  @Get(`${BASE}/comments`)
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'listCommentsInChangeRequest',
    summary: 'List all change request comments',
    description: 'Newest first unless `order=asc`.',
  })
  @ApiOkResponse({ type: PageOf(CommentResponse) })
  @badRequest
  async list(
    @CurrentUser() actor: UserActor,
    @Granted() space: SpaceAccess,
    @Param('changeRequestId') changeRequestId: string,
    @Query() query: ListCommentsQueryDto,
  ): Promise<Page<CommentResponse>> {
    const page = await this.threads.list(thread(space, changeRequestId), actor.userId, query);
    const items = await Promise.all(
      page.items.map((view) => this.presenter.comment(view, query.format)),
    );
    return { ...page, items };
  }

  @Post(`${BASE}/comments`)
  @HttpCode(201)
  @Access('space', 'comment')
  @ApiOperation({
    operationId: 'postCommentInChangeRequest',
    summary: 'Create a change request comment',
    description:
      "On the change request's head revision; `page` must be one of its pages, `node` (with " +
      '`page`) the key of a node of that page, `tableCell` needs `node`.',
  })
  @ApiCreatedResponse({ type: CommentResponse })
  @badRequest
  async post(
    @CurrentUser() actor: UserActor,
    @Granted() space: SpaceAccess,
    @Param('changeRequestId') changeRequestId: string,
    @Body() body: PostCommentDto,
    @Query() query: CommentFormatQueryDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<CommentResponse> {
    const presented = await this.presenter.comment(
      await this.writes.post(COMMENTS, thread(space, changeRequestId), actor.userId, body),
      query.format,
    );
    response.location(presented.urls.location);
    return presented;
  }

  @Get(COMMENT)
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'getCommentInChangeRequest',
    summary: 'Get a change request comment',
  })
  @ApiOkResponse({ type: CommentResponse })
  @badRequest
  async get(
    @CurrentUser() actor: UserActor,
    @Granted() space: SpaceAccess,
    @Param('changeRequestId') changeRequestId: string,
    @Param('commentId') commentId: string,
    @Query() query: CommentFormatQueryDto,
  ): Promise<CommentResponse> {
    return this.presenter.comment(
      await this.threads.get(thread(space, changeRequestId), actor.userId, commentId),
      query.format,
    );
  }

  @Put(COMMENT)
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'updateCommentInChangeRequest',
    summary: 'Update a change request comment',
    description:
      '`body`: its author only. `resolved`, `addedReactions`, `removedReactions`: the comment ' +
      'role or higher. Reactions are the caller’s own, one per emoji.',
  })
  @ApiOkResponse({ type: CommentResponse })
  @badRequest
  async update(
    @CurrentUser() actor: UserActor,
    @Granted() space: SpaceAccess,
    @Param('changeRequestId') changeRequestId: string,
    @Param('commentId') commentId: string,
    @Body() body: UpdateCommentDto,
    @Query() query: CommentFormatQueryDto,
  ): Promise<CommentResponse> {
    return this.presenter.comment(
      await this.writes.update(
        COMMENTS,
        thread(space, changeRequestId),
        actor.userId,
        { commentId },
        body,
      ),
      query.format,
    );
  }

  @Delete(COMMENT)
  @HttpCode(204)
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'deleteCommentInChangeRequest',
    summary: 'Delete a change request comment',
    description:
      'With its replies; its author or an admin of the space. Also 204 when there is no such comment.',
  })
  @ApiNoContentResponse({ description: 'The comment is gone.' })
  async remove(
    @CurrentUser() actor: UserActor,
    @Granted() space: SpaceAccess,
    @Param('changeRequestId') changeRequestId: string,
    @Param('commentId') commentId: string,
  ): Promise<void> {
    await this.writes.remove(COMMENTS, thread(space, changeRequestId), actor.userId, { commentId });
  }

  @Get(`${COMMENT}/replies`)
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'listCommentRepliesInChangeRequest',
    summary: 'List all change request comment replies',
    description: 'Oldest first.',
  })
  @ApiOkResponse({ type: PageOf(CommentReplyResponse) })
  @badRequest
  async listReplies(
    @CurrentUser() actor: UserActor,
    @Granted() space: SpaceAccess,
    @Param('changeRequestId') changeRequestId: string,
    @Param('commentId') commentId: string,
    @Query() query: ListRepliesQueryDto,
  ): Promise<Page<CommentReplyResponse>> {
    const page = await this.threads.listReplies(
      thread(space, changeRequestId),
      actor.userId,
      commentId,
      query,
    );
    const items = await Promise.all(
      page.items.map((view) => this.presenter.reply(view, query.format)),
    );
    return { ...page, items };
  }

  @Post(`${COMMENT}/replies`)
  @HttpCode(201)
  @Access('space', 'comment')
  @ApiOperation({
    operationId: 'postCommentReplyInChangeRequest',
    summary: 'Create a change request comment reply',
  })
  @ApiCreatedResponse({ type: CommentReplyResponse })
  @badRequest
  async postReply(
    @CurrentUser() actor: UserActor,
    @Granted() space: SpaceAccess,
    @Param('changeRequestId') changeRequestId: string,
    @Param('commentId') commentId: string,
    @Body() body: PostCommentReplyDto,
    @Query() query: CommentFormatQueryDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<CommentReplyResponse> {
    const presented = await this.presenter.reply(
      await this.writes.post(
        REPLIES,
        thread(space, changeRequestId),
        actor.userId,
        body,
        commentId,
      ),
      query.format,
    );
    response.location(presented.urls.location);
    return presented;
  }

  @Get(REPLY)
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'getCommentReplyInChangeRequest',
    summary: 'Get a change request comment reply',
  })
  @ApiOkResponse({ type: CommentReplyResponse })
  @badRequest
  async getReply(
    @CurrentUser() actor: UserActor,
    @Granted() space: SpaceAccess,
    @Param('changeRequestId') changeRequestId: string,
    @Param('commentId') commentId: string,
    @Param('commentReplyId') replyId: string,
    @Query() query: CommentFormatQueryDto,
  ): Promise<CommentReplyResponse> {
    return this.presenter.reply(
      await this.threads.getReply(thread(space, changeRequestId), actor.userId, commentId, replyId),
      query.format,
    );
  }

  @Put(REPLY)
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'updateCommentReplyInChangeRequest',
    summary: 'Update a change request comment reply',
    description:
      '`body`: its author only. `addedReactions`, `removedReactions`, and `resolved` (which ' +
      'resolves or reopens the comment replied to): the comment role or higher.',
  })
  @ApiOkResponse({ type: CommentReplyResponse })
  @badRequest
  async updateReply(
    @CurrentUser() actor: UserActor,
    @Granted() space: SpaceAccess,
    @Param('changeRequestId') changeRequestId: string,
    @Param('commentId') commentId: string,
    @Param('commentReplyId') replyId: string,
    @Body() body: UpdateCommentDto,
    @Query() query: CommentFormatQueryDto,
  ): Promise<CommentReplyResponse> {
    return this.presenter.reply(
      await this.writes.update(
        REPLIES,
        thread(space, changeRequestId),
        actor.userId,
        { commentId, replyId },
        body,
      ),
      query.format,
    );
  }

  @Delete(REPLY)
  @HttpCode(204)
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'deleteCommentReplyInChangeRequest',
    summary: 'Delete a change request comment reply',
    description:
      'Its author or an admin of the space. Also 204 when there is no such comment or reply.',
  })
  @ApiNoContentResponse({ description: 'The reply is gone.' })
  async removeReply(
    @CurrentUser() actor: UserActor,
    @Granted() space: SpaceAccess,
    @Param('changeRequestId') changeRequestId: string,
    @Param('commentId') commentId: string,
    @Param('commentReplyId') replyId: string,
  ): Promise<void> {
    await this.writes.remove(REPLIES, thread(space, changeRequestId), actor.userId, {
      commentId,
      replyId,
    });
  }

  @Get(`${BASE}/commenters`)
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'listCommentersInChangeRequest',
    summary: 'List all change request commenters',
    description: 'Members who commented or replied on the change request, latest activity first.',
  })
  @ApiOkResponse({ type: PageOf(MemberResponse) })
  @badRequest
  async commenters(
    @CurrentUser() actor: UserActor,
    @Granted() space: SpaceAccess,
    @Param('changeRequestId') changeRequestId: string,
    @Query() query: PageQueryDto,
  ): Promise<Page<MemberResponse>> {
    const page = await this.commentersService.list(
      thread(space, changeRequestId),
      actor.userId,
      query,
    );
    return mapPage(page, (record) => this.presenter.commenter(record));
  }
}
