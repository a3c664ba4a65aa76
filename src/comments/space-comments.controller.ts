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
  UpdateCommentReplyDto,
} from './dto/comment.dto';
import { CommentReplyResponse, CommentResponse } from './dto/comment.response';

const badRequest = ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' });
const COMMENT = 'spaces/:spaceId/comments/:commentId';
const REPLY = `${COMMENT}/replies/:commentReplyId`;

/** A space's own comments (those of its change requests are elsewhere). */
const thread = (space: SpaceAccess): ThreadRef => ({ space, changeRequestId: null });

@ApiTags('space-comments')
@Controller()
export class SpaceCommentsController {
  constructor(
    private readonly threads: CommentThreadsService,
    private readonly writes: CommentWritesService,
    private readonly commentersService: CommentersService,
    private readonly presenter: CommentsPresenter,
  ) {}

  @Get('spaces/:spaceId/comments')
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'listCommentsInSpace',
    summary: 'List all space comments',
    description:
      "The space's own comments (not its change requests'), newest first unless `order=asc`.",
  })
  @ApiOkResponse({ type: PageOf(CommentResponse) })
  @badRequest
  async list(
    @CurrentUser() actor: UserActor,
    @Granted() space: SpaceAccess,
    @Query() query: ListCommentsQueryDto,
  ): Promise<Page<CommentResponse>> {
    const page = await this.threads.list(thread(space), actor.userId, query);
    const items = await Promise.all(
      page.items.map((view) => this.presenter.comment(view, query.format)),
    );
    return { ...page, items };
  }

  @Post('spaces/:spaceId/comments')
  @HttpCode(201)
  @Access('space', 'comment')
  @ApiOperation({
    operationId: 'postCommentInSpace',
    summary: 'Create a space comment',
    description:
      "On the space's primary revision; `page` must be one of its pages, `node` (with `page`) " +
      'the key of a node of that page, `tableCell` needs `node`.',
  })
  @ApiCreatedResponse({ type: CommentResponse })
  @badRequest
  async post(
    @CurrentUser() actor: UserActor,
    @Granted() space: SpaceAccess,
    @Body() body: PostCommentDto,
    @Query() query: CommentFormatQueryDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<CommentResponse> {
    const presented = await this.presenter.comment(
      await this.writes.post(COMMENTS, thread(space), actor.userId, body),
      query.format,
    );
    response.location(presented.urls.location);
    return presented;
  }

  @Get(COMMENT)
  @Access('space', 'view')
  @ApiOperation({ operationId: 'getCommentInSpace', summary: 'Get a space comment' })
  @ApiOkResponse({ type: CommentResponse })
  @badRequest
  async get(
    @CurrentUser() actor: UserActor,
    @Granted() space: SpaceAccess,
    @Param('commentId') commentId: string,
    @Query() query: CommentFormatQueryDto,
  ): Promise<CommentResponse> {
    return this.presenter.comment(
      await this.threads.get(thread(space), actor.userId, commentId),
      query.format,
    );
  }

  @Put(COMMENT)
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'updateCommentInSpace',
    summary: 'Update a space comment',
    description:
      '`body`: its author only. `resolved`, `addedReactions`, `removedReactions`: the comment ' +
      'role or higher. Reactions are the caller’s own, one per emoji.',
  })
  @ApiOkResponse({ type: CommentResponse })
  @badRequest
  async update(
    @CurrentUser() actor: UserActor,
    @Granted() space: SpaceAccess,
    @Param('commentId') commentId: string,
    @Body() body: UpdateCommentDto,
    @Query() query: CommentFormatQueryDto,
  ): Promise<CommentResponse> {
    return this.presenter.comment(
      await this.writes.update(COMMENTS, thread(space), actor.userId, { commentId }, body),
      query.format,
    );
  }

  @Delete(COMMENT)
  @HttpCode(204)
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'deleteCommentInSpace',
    summary: 'Delete a space comment',
    description:
      'With its replies; its author or an admin of the space. Also 204 when there is no such comment.',
  })
  @ApiNoContentResponse({ description: 'The comment is gone.' })
  async remove(
    @CurrentUser() actor: UserActor,
    @Granted() space: SpaceAccess,
    @Param('commentId') commentId: string,
  ): Promise<void> {
    await this.writes.remove(COMMENTS, thread(space), actor.userId, { commentId });
  }

  @Get(`${COMMENT}/replies`)
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'listCommentRepliesInSpace',
    summary: 'List all space comment replies',
    description: 'Oldest first.',
  })
  @ApiOkResponse({ type: PageOf(CommentReplyResponse) })
  @badRequest
  async listReplies(
    @CurrentUser() actor: UserActor,
    @Granted() space: SpaceAccess,
    @Param('commentId') commentId: string,
    @Query() query: ListRepliesQueryDto,
  ): Promise<Page<CommentReplyResponse>> {
    const page = await this.threads.listReplies(thread(space), actor.userId, commentId, query);
    const items = await Promise.all(
      page.items.map((view) => this.presenter.reply(view, query.format)),
    );
    return { ...page, items };
  }

  @Post(`${COMMENT}/replies`)
  @HttpCode(201)
  @Access('space', 'comment')
  @ApiOperation({ operationId: 'postCommentReplyInSpace', summary: 'Create a space comment reply' })
  @ApiCreatedResponse({ type: CommentReplyResponse })
  @badRequest
  async postReply(
    @CurrentUser() actor: UserActor,
    @Granted() space: SpaceAccess,
    @Param('commentId') commentId: string,
    @Body() body: PostCommentReplyDto,
    @Query() query: CommentFormatQueryDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<CommentReplyResponse> {
    const presented = await this.presenter.reply(
      await this.writes.post(REPLIES, thread(space), actor.userId, body, commentId),
      query.format,
    );
    response.location(presented.urls.location);
    return presented;
  }

  @Get(REPLY)
  @Access('space', 'view')
  @ApiOperation({ operationId: 'getCommentReplyInSpace', summary: 'Get a space comment reply' })
  @ApiOkResponse({ type: CommentReplyResponse })
  @badRequest
  async getReply(
    @CurrentUser() actor: UserActor,
    @Granted() space: SpaceAccess,
    @Param('commentId') commentId: string,
    @Param('commentReplyId') replyId: string,
    @Query() query: CommentFormatQueryDto,
  ): Promise<CommentReplyResponse> {
    return this.presenter.reply(
      await this.threads.getReply(thread(space), actor.userId, commentId, replyId),
      query.format,
    );
  }

  @Put(REPLY)
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'updateCommentReplyInSpace',
    summary: 'Update a space comment reply',
    description:
      '`body`: its author only. `addedReactions`, `removedReactions`: the comment role or higher.',
  })
  @ApiOkResponse({ type: CommentReplyResponse })
  @badRequest
  async updateReply(
    @CurrentUser() actor: UserActor,
    @Granted() space: SpaceAccess,
    @Param('commentId') commentId: string,
    @Param('commentReplyId') replyId: string,
    @Body() body: UpdateCommentReplyDto,
    @Query() query: CommentFormatQueryDto,
  ): Promise<CommentReplyResponse> {
    return this.presenter.reply(
      await this.writes.update(REPLIES, thread(space), actor.userId, { commentId, replyId }, body),
      query.format,
    );
  }

  @Delete(REPLY)
  @HttpCode(204)
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'deleteCommentReplyInSpace',
    summary: 'Delete a space comment reply',
    description:
      'Its author or an admin of the space. Also 204 when there is no such comment or reply.',
  })
  @ApiNoContentResponse({ description: 'The reply is gone.' })
  async removeReply(
    @CurrentUser() actor: UserActor,
    @Granted() space: SpaceAccess,
    @Param('commentId') commentId: string,
    @Param('commentReplyId') replyId: string,
  ): Promise<void> {
    await this.writes.remove(REPLIES, thread(space), actor.userId, { commentId, replyId });
  }

  @Get('spaces/:spaceId/commenters')
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'listCommentersInSpace',
    summary: 'List all space commenters',
    description:
      "Members who commented or replied on the space's own comments, latest activity first.",
  })
  @ApiOkResponse({ type: PageOf(MemberResponse) })
  @badRequest
  async commenters(
    @CurrentUser() actor: UserActor,
    @Granted() space: SpaceAccess,
    @Query() query: PageQueryDto,
  ): Promise<Page<MemberResponse>> {
    const page = await this.commentersService.list(thread(space), actor.userId, query);
    return mapPage(page, (record) => this.presenter.commenter(record));
  }
}
