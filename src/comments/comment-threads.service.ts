import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ChangeRequestsRepository } from '../change-requests/change-requests.repository';
import { ChangeRequestsService } from '../change-requests/change-requests.service';
import { Page } from '../platform/pagination/page';
import { SpacesRepository } from '../spaces/spaces.repository';
import {
  commentNotFound,
  type CommentView,
  type ReplyView,
  type Thread,
  type ThreadRef,
  threadScope,
} from './comment-thread';
import { CommentViews } from './comment-views';
import { CommentRowLock, CommentsRepository } from './comments.repository';
import { ListCommentsQueryDto, ListRepliesQueryDto } from './dto/comment.dto';
import { Comment } from './entities/comment.entity';

export type RowLock = CommentRowLock;

/**
 * Threads: a space's own comments or a change request's, their comments and replies as read,
 * and their open counts (`spaces.comments`, `change_requests.comments`).
 */
@Injectable()
export class CommentThreadsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly changeRequests: ChangeRequestsService,
    private readonly changeRequestsRepository: ChangeRequestsRepository,
    private readonly comments: CommentsRepository,
    private readonly views: CommentViews,
    private readonly spaces: SpacesRepository,
  ) {}

  /** The thread, for the caller; 404 for a change request not in the space. */
  async resolve(ref: ThreadRef, userId: string): Promise<Thread> {
    const caller = { userId, role: ref.space.role };
    if (ref.changeRequestId === null) {
      return {
        spaceId: ref.space.id,
        changeRequest: null,
        revision: ref.space.entity.revisionId,
        caller,
      };
    }
    const { changeRequest } = await this.changeRequests.get(ref.space, ref.changeRequestId);
    return {
      spaceId: ref.space.id,
      changeRequest,
      revision: changeRequest.revision,
      caller,
    };
  }

  /** Oldest or newest first (by posting time, then id), filtered. */
  async list(
    ref: ThreadRef,
    userId: string,
    query: ListCommentsQueryDto,
  ): Promise<Page<CommentView>> {
    const thread = await this.resolve(ref, userId);
    const manager = this.dataSource.manager;
    const page = await this.comments.listInThread(
      threadScope(thread),
      {
        status: query.status !== undefined && query.status !== 'all' ? query.status : undefined,
        pageId: query.targetPage,
        authors: query.authors,
      },
      query.order === 'asc' ? 'ASC' : 'DESC',
      query,
      manager,
    );
    return { ...page, items: await this.views.ofComments(manager, thread, page.items) };
  }

  async get(ref: ThreadRef, userId: string, commentId: string): Promise<CommentView> {
    const thread = await this.resolve(ref, userId);
    return this.views.comment(this.dataSource.manager, thread, commentId);
  }

  /** Oldest first. */
  async listReplies(
    ref: ThreadRef,
    userId: string,
    commentId: string,
    query: ListRepliesQueryDto,
  ): Promise<Page<ReplyView>> {
    const thread = await this.resolve(ref, userId);
    const manager = this.dataSource.manager;
    const comment = await this.findComment(manager, thread, commentId);
    if (!comment) throw commentNotFound();
    const page = await this.comments.listReplies(comment.id, query, manager);
    return { ...page, items: await this.views.ofReplies(manager, thread, page.items) };
  }

  async getReply(
    ref: ThreadRef,
    userId: string,
    commentId: string,
    replyId: string,
  ): Promise<ReplyView> {
    const thread = await this.resolve(ref, userId);
    const manager = this.dataSource.manager;
    const comment = await this.findComment(manager, thread, commentId);
    if (!comment) throw commentNotFound();
    return this.views.reply(manager, thread, comment.id, replyId);
  }

  /** The thread's comment `commentId` alone (no relations), locked as asked; null when absent. */
  findComment(
    manager: EntityManager,
    thread: Thread,
    commentId: string,
    lock?: RowLock,
  ): Promise<Comment | null> {
    return this.comments.findRowInThread(threadScope(thread), commentId, lock, manager);
  }

  /** Moves the thread's count of open comments, atomically (`comments = comments ± 1`). */
  async countOpen(manager: EntityManager, thread: Thread, delta: 1 | -1): Promise<void> {
    if (thread.changeRequest) {
      await this.changeRequestsRepository.adjustComments(thread.changeRequest.id, delta, manager);
    } else {
      await this.spaces.adjustCounters(thread.spaceId, { comments: delta }, manager);
    }
  }
}
