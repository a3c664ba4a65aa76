import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ChangeRequestsService } from '../change-requests/change-requests.service';
import { paginate } from '../platform/pagination/keyset';
import { Page } from '../platform/pagination/page';
import { SpacesRepository } from '../spaces/spaces.repository';
import {
  commentNotFound,
  type CommentView,
  inThread,
  type ReplyView,
  type Thread,
  type ThreadRef,
} from './comment-thread';
import { CommentViews } from './comment-views';
import { ListCommentsQueryDto, ListRepliesQueryDto } from './dto/comment.dto';
import { Comment } from './entities/comment.entity';

export type RowLock = 'pessimistic_read' | 'pessimistic_write';

/**
 * Threads: a space's own comments or a change request's, their comments and replies as read,
 * and their open counts (`spaces.comments`, `change_requests.comments`).
 */
@Injectable()
export class CommentThreadsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly changeRequests: ChangeRequestsService,
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
    const rows = this.views.comments(manager, thread);
    if (query.status !== undefined && query.status !== 'all') {
      rows.andWhere('c.status = :status', { status: query.status });
    }
    if (query.targetPage !== undefined) {
      rows.andWhere('c.page_id = :targetPage', { targetPage: query.targetPage });
    }
    if (query.authors !== undefined) {
      rows.andWhere('c.author_id = ANY(:authors)', { authors: query.authors });
    }
    const page = await paginate(rows, query, {
      keys: [
        { sql: 'c.posted_at', of: (c) => c.postedAt },
        { sql: 'c.id', of: (c) => c.id },
      ],
      direction: query.order === 'asc' ? 'ASC' : 'DESC',
    });
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
    const page = await paginate(this.views.replies(manager, comment.id), query, {
      keys: [
        { sql: 'r.posted_at', of: (r) => r.postedAt },
        { sql: 'r.id', of: (r) => r.id },
      ],
      direction: 'ASC',
    });
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
    const { sql, params } = inThread(thread);
    const query = manager
      .getRepository(Comment)
      .createQueryBuilder('c')
      .where('c.id = :commentId', { commentId })
      .andWhere(sql, params);
    if (lock) query.setLock(lock);
    return query.getOne();
  }

  /** Moves the thread's count of open comments, atomically (`comments = comments ± 1`). */
  async countOpen(manager: EntityManager, thread: Thread, delta: 1 | -1): Promise<void> {
    if (thread.changeRequest) {
      await manager.query(`UPDATE change_requests SET comments = comments + $2 WHERE id = $1`, [
        thread.changeRequest.id,
        delta,
      ]);
    } else {
      await this.spaces.adjustCounters(thread.spaceId, { comments: delta }, manager);
    }
  }
}
