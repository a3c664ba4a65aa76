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
} from '@nestjs/swagger';
import type { Response } from 'express';
import { MemberResponse } from '../orgs/members/dto/member.response';
import { Access, CurrentUser, Granted } from '../platform/auth/access.decorator';
import type { UserActor } from '../platform/auth/actor';
import { ErrorBody } from '../platform/errors/error-body';
import { BodyOf } from '../platform/validation/typed-params';
import { mapPage, Page, PageOf } from '../platform/pagination/page';
import { PageQueryDto } from '../platform/pagination/page-query.dto';
import type { SpaceAccess } from '../spaces/space-access.resolver';
import { CommentersService } from './commenters.service';
import type { CommentAccess } from './comment-access';
import { COMMENTS, type ItemAt, REPLIES } from './comment-kinds';
import type { ThreadRef } from './comment-thread';
import { CommentThreadsService } from './comment-threads.service';
import { CommentWritesService } from './comment-writes.service';
import { CommentsPresenter } from './comments.presenter';
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

type Named = { operationId: string; summary: string };
type Described = Named & { description: string };

/** What tells a change request's comment routes from a space's own. */
export interface CommentRoutes {
  /** Whose thread: the space's own comments, or those of its change request `:changeRequestId`. */
  thread: 'space' | 'changeRequest';
  /** Routes are `<path>/comments...` and `<path>/commenters`. */
  path: string;
  tag: string;
  /** GitBook's operationId and summary of each route; a description where the threads differ. */
  operations: Record<
    'get' | 'update' | 'remove' | 'listReplies' | 'postReply' | 'getReply' | 'removeReply',
    Named
  > &
    Record<'list' | 'post' | 'updateReply' | 'commenters', Described>;
  /** The body of updateReply: on a change request's reply, `resolved` (UpdateCommentDto) too. */
  updateReplyBody: typeof UpdateCommentReplyDto;
}

const badRequest = ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' });

/**
 * The comment routes of a thread, a space's own or a change request's, which behave alike, as
 * a base class per thread. Reading takes the view role on the space, posting the comment role;
 * updating and deleting are actions of the comment or reply (CommentAccessPolicy: only the
 * author edits a body, the author or a space admin deletes, resolving and reacting need the
 * comment role).
 */
export function CommentsController(routes: CommentRoutes) {
  const { operations: op } = routes;
  /** `:changeRequestId` on a change request's routes; a space's have none (undefined, unread). */
  const changeRequestId = (): ParameterDecorator =>
    routes.thread === 'changeRequest' ? Param('changeRequestId') : () => undefined;
  const thread = (space: SpaceAccess, changeRequest: string): ThreadRef => ({
    space,
    changeRequestId: routes.thread === 'changeRequest' ? changeRequest : null,
  });
  /** The thread of a comment or reply the access policy found. */
  const threadOf = ({ entity }: CommentAccess): ThreadRef => ({
    space: entity.space,
    changeRequestId: entity.changeRequestId,
  });
  const at = ({ entity }: CommentAccess): ItemAt => ({
    commentId: entity.commentId,
    ...(entity.replyId !== undefined ? { replyId: entity.replyId } : {}),
  });

  @Controller(routes.path)
  class CommentsControllerBase {
    constructor(
      private readonly threads: CommentThreadsService,
      private readonly writes: CommentWritesService,
      private readonly commentersService: CommentersService,
      private readonly presenter: CommentsPresenter,
    ) {}

    @Get('comments')
    @Access('space', 'view')
    @ApiOperation(op.list)
    @ApiOkResponse({ type: PageOf(CommentResponse) })
    @badRequest
    async list(
      @CurrentUser() actor: UserActor,
      @Granted() space: SpaceAccess,
      @changeRequestId() changeRequest: string,
      @Query() query: ListCommentsQueryDto,
    ): Promise<Page<CommentResponse>> {
      const page = await this.threads.list(thread(space, changeRequest), actor.userId, query);
      const items = await Promise.all(
        page.items.map((view) => this.presenter.comment(view, query.format)),
      );
      return { ...page, items };
    }

    @Post('comments')
    @HttpCode(201)
    @Access('space', 'comment')
    @ApiOperation(op.post)
    @ApiCreatedResponse({ type: CommentResponse })
    @badRequest
    async post(
      @CurrentUser() actor: UserActor,
      @Granted() space: SpaceAccess,
      @changeRequestId() changeRequest: string,
      @Body() body: PostCommentDto,
      @Query() query: CommentFormatQueryDto,
      @Res({ passthrough: true }) response: Response,
    ): Promise<CommentResponse> {
      const presented = await this.presenter.comment(
        await this.writes.post(COMMENTS, thread(space, changeRequest), actor.userId, body),
        query.format,
      );
      response.location(presented.urls.location);
      return presented;
    }

    @Get('comments/:commentId')
    @Access('space', 'view')
    @ApiOperation(op.get)
    @ApiOkResponse({ type: CommentResponse })
    @badRequest
    async get(
      @CurrentUser() actor: UserActor,
      @Granted() space: SpaceAccess,
      @changeRequestId() changeRequest: string,
      @Param('commentId') commentId: string,
      @Query() query: CommentFormatQueryDto,
    ): Promise<CommentResponse> {
      return this.presenter.comment(
        await this.threads.get(thread(space, changeRequest), actor.userId, commentId),
        query.format,
      );
    }

    @Put('comments/:commentId')
    @Access('comment', 'update')
    @ApiOperation({
      ...op.update,
      description:
        '`body`: its author only. `resolved`, `addedReactions`, `removedReactions`: the comment ' +
        'role or higher. Reactions are the caller’s own, one per emoji.',
    })
    @ApiOkResponse({ type: CommentResponse })
    @badRequest
    async update(
      @CurrentUser() actor: UserActor,
      @Granted() comment: CommentAccess,
      @Body() body: UpdateCommentDto,
      @Query() query: CommentFormatQueryDto,
    ): Promise<CommentResponse> {
      return this.presenter.comment(
        await this.writes.update(COMMENTS, threadOf(comment), actor.userId, at(comment), body),
        query.format,
      );
    }

    @Delete('comments/:commentId')
    @HttpCode(204)
    @Access('comment', 'delete', { ifAbsent: 'proceed' })
    @ApiOperation({
      ...op.remove,
      description:
        'With its replies; its author or an admin of the space. Also 204 when there is no such comment.',
    })
    @ApiNoContentResponse({ description: 'The comment is gone.' })
    async remove(
      @CurrentUser() actor: UserActor,
      @Granted() comment: CommentAccess | null,
    ): Promise<void> {
      if (!comment) return;
      await this.writes.remove(COMMENTS, threadOf(comment), actor.userId, at(comment));
    }

    @Get('comments/:commentId/replies')
    @Access('space', 'view')
    @ApiOperation({ ...op.listReplies, description: 'Oldest first.' })
    @ApiOkResponse({ type: PageOf(CommentReplyResponse) })
    @badRequest
    async listReplies(
      @CurrentUser() actor: UserActor,
      @Granted() space: SpaceAccess,
      @changeRequestId() changeRequest: string,
      @Param('commentId') commentId: string,
      @Query() query: ListRepliesQueryDto,
    ): Promise<Page<CommentReplyResponse>> {
      const ref = thread(space, changeRequest);
      const page = await this.threads.listReplies(ref, actor.userId, commentId, query);
      const items = await Promise.all(
        page.items.map((view) => this.presenter.reply(view, query.format)),
      );
      return { ...page, items };
    }

    @Post('comments/:commentId/replies')
    @HttpCode(201)
    @Access('space', 'comment')
    @ApiOperation(op.postReply)
    @ApiCreatedResponse({ type: CommentReplyResponse })
    @badRequest
    async postReply(
      @CurrentUser() actor: UserActor,
      @Granted() space: SpaceAccess,
      @changeRequestId() changeRequest: string,
      @Param('commentId') commentId: string,
      @Body() body: PostCommentReplyDto,
      @Query() query: CommentFormatQueryDto,
      @Res({ passthrough: true }) response: Response,
    ): Promise<CommentReplyResponse> {
      const ref = thread(space, changeRequest);
      const presented = await this.presenter.reply(
        await this.writes.post(REPLIES, ref, actor.userId, body, commentId),
        query.format,
      );
      response.location(presented.urls.location);
      return presented;
    }

    @Get('comments/:commentId/replies/:commentReplyId')
    @Access('space', 'view')
    @ApiOperation(op.getReply)
    @ApiOkResponse({ type: CommentReplyResponse })
    @badRequest
    async getReply(
      @CurrentUser() actor: UserActor,
      @Granted() space: SpaceAccess,
      @changeRequestId() changeRequest: string,
      @Param('commentId') commentId: string,
      @Param('commentReplyId') replyId: string,
      @Query() query: CommentFormatQueryDto,
    ): Promise<CommentReplyResponse> {
      const ref = thread(space, changeRequest);
      return this.presenter.reply(
        await this.threads.getReply(ref, actor.userId, commentId, replyId),
        query.format,
      );
    }

    @Put('comments/:commentId/replies/:commentReplyId')
    @Access('commentReply', 'update')
    @ApiOperation(op.updateReply)
    @ApiOkResponse({ type: CommentReplyResponse })
    @badRequest
    async updateReply(
      @CurrentUser() actor: UserActor,
      @Granted() reply: CommentAccess,
      @BodyOf(routes.updateReplyBody) body: UpdateCommentReplyDto,
      @Query() query: CommentFormatQueryDto,
    ): Promise<CommentReplyResponse> {
      return this.presenter.reply(
        await this.writes.update(REPLIES, threadOf(reply), actor.userId, at(reply), body),
        query.format,
      );
    }

    @Delete('comments/:commentId/replies/:commentReplyId')
    @HttpCode(204)
    @Access('commentReply', 'delete', { ifAbsent: 'proceed' })
    @ApiOperation({
      ...op.removeReply,
      description:
        'Its author or an admin of the space. Also 204 when there is no such comment or reply.',
    })
    @ApiNoContentResponse({ description: 'The reply is gone.' })
    async removeReply(
      @CurrentUser() actor: UserActor,
      @Granted() reply: CommentAccess | null,
    ): Promise<void> {
      if (!reply) return;
      await this.writes.remove(REPLIES, threadOf(reply), actor.userId, at(reply));
    }

    @Get('commenters')
    @Access('space', 'view')
    @ApiOperation(op.commenters)
    @ApiOkResponse({ type: PageOf(MemberResponse) })
    @badRequest
    async commenters(
      @CurrentUser() actor: UserActor,
      @Granted() space: SpaceAccess,
      @changeRequestId() changeRequest: string,
      @Query() query: PageQueryDto,
    ): Promise<Page<MemberResponse>> {
      const page = await this.commentersService.list(
        thread(space, changeRequest),
        actor.userId,
        query,
      );
      return mapPage(page, (record) => this.presenter.commenter(record));
    }
  }
  return CommentsControllerBase;
}
