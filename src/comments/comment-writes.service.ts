import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { ChangeRequestContributors } from '../change-requests/reviews/change-request-contributors';
import { ContentReader } from '../content-engine/reads/content-reader';
import { Clock } from '../platform/clock/clock';
import { newId } from '../platform/ids/ids';
import { checkTarget, storedBody } from './comment-input';
import { COMMENTS, type CommentItem, type CommentKind, type ItemAt } from './comment-kinds';
import { CommentReactionsService, reactionChanges } from './comment-reactions.service';
import { CommentEvents } from './comment-events';
import {
  commentNotFound,
  type CommentView,
  type ReplyView,
  type Thread,
  type ThreadRef,
} from './comment-thread';
import { CommentThreadsService, type RowLock } from './comment-threads.service';
import { CommentViews } from './comment-views';
import { MentionMail } from './mention-mail';
import type { PostCommentDto, UpdateCommentDto } from './dto/comment.dto';
import { Comment } from './entities/comment.entity';

/**
 * Posts, updates and deletes comments and replies, one implementation for both kinds
 * (comment-kinds.ts). Every write that opens or closes a comment (post, resolve, reopen,
 * delete) moves the thread's open count in the same transaction. Locks go comment first, then
 * reply: a comment's row is locked for update before its status changes, so a concurrent
 * resolve and delete count once; adding or deleting a reply locks its comment shared, so
 * replies to one comment do not wait for each other and a delete of the comment waits for them.
 */
@Injectable()
export class CommentWritesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly threads: CommentThreadsService,
    private readonly views: CommentViews,
    private readonly reactions: CommentReactionsService,
    private readonly contributors: ChangeRequestContributors,
    private readonly content: ContentReader,
    private readonly events: CommentEvents,
    private readonly mentionMail: MentionMail,
  ) {}

  /**
   * Posts a comment on the thread's revision, about one of its pages (and a node of that page,
   * and a cell of that node's table) if asked, and the thread's open count goes up by one; or a
   * reply to its comment `replyTo`, resolved or not.
   */
  async post<View>(
    kind: CommentKind<View>,
    ref: ThreadRef,
    userId: string,
    input: PostCommentDto,
    replyTo?: string,
  ): Promise<View> {
    const thread = await this.threads.resolve(ref, userId);
    await checkTarget(this.content, thread, input); // A reply has none: nothing to check.
    const stored = await storedBody(input.body);
    const mentioned = await this.mentionMail.readers(thread, userId, stored.body);
    return this.dataSource.transaction(async (manager) => {
      // Shared: replies to one comment do not wait for each other, a delete waits for them.
      const comment =
        replyTo === undefined
          ? null
          : await this.lockComment(manager, thread, replyTo, 'pessimistic_read');
      const id = newId();
      await manager.insert(kind.entity, {
        id,
        ...kind.placement(thread, input),
        ...(comment ? { commentId: comment.id } : {}),
        authorId: userId,
        ...stored,
        postedAt: this.clock.now(),
        editedAt: null,
      } as QueryDeepPartialEntity<CommentItem>);
      if (kind.countsOpen) await this.threads.countOpen(manager, thread, +1);
      await this.recordContribution(manager, thread, userId);
      const view = await kind.view(this.views, manager, thread, comment?.id ?? id, id);
      await this.recordEvent(manager, kind, ref, view, 'created');
      await this.mentionMail.send(manager, ref, thread, userId, stored.body, mentioned);
      return view;
    });
  }

  /**
   * `body`, reactions of the caller, and `resolved` (resolve or reopen the comment, or the
   * comment replied to); who may ask which is decided before (CommentAccessPolicy). A resolve
   * of a resolved comment, or a reopen of an open one, changes nothing.
   */
  async update<View>(
    kind: CommentKind<View>,
    ref: ThreadRef,
    userId: string,
    at: ItemAt,
    input: UpdateCommentDto,
  ): Promise<View> {
    const thread = await this.threads.resolve(ref, userId);
    const reactions = reactionChanges(input);
    const stored = input.body !== undefined ? await storedBody(input.body) : undefined;
    const mentioned = stored ? await this.mentionMail.readers(thread, userId, stored.body) : [];
    return this.dataSource.transaction(async (manager) => {
      // The comment first (it may be resolved), then the reply: the order every write takes.
      const comment = await this.lockComment(manager, thread, at.commentId, 'pessimistic_write');
      const item = await kind.find(manager, comment, at.replyId ?? comment.id, 'pessimistic_write');
      if (!item) throw kind.notFound();
      if (stored) {
        await manager.update(kind.entity, { id: item.id }, {
          ...stored,
          editedAt: this.clock.now(),
        } as QueryDeepPartialEntity<CommentItem>);
        await this.mentionMail.send(
          manager,
          ref,
          thread,
          userId,
          stored.body,
          mentioned,
          item.body,
        );
      }
      const resolves = input.resolved === true && comment.status === 'open';
      if (input.resolved !== undefined) {
        await this.setResolved(manager, thread, comment, input.resolved, userId);
      }
      if (reactions) await this.reactions.react(manager, kind.noun, item.id, userId, reactions);
      const view = await kind.view(this.views, manager, thread, comment.id, item.id);
      if (stored) await this.recordEvent(manager, kind, ref, view, 'updated');
      if (resolves) {
        // A reply's update may resolve its comment: the event is the comment's.
        const resolved =
          kind.noun === 'comment'
            ? (view as CommentView)
            : await COMMENTS.view(this.views, manager, thread, comment.id, comment.id);
        await this.events.comment(manager, 'comment_resolved', ref, resolved);
      }
      return view;
    });
  }

  /**
   * Deletes a comment (with its replies) or a reply, and their reactions (whether the caller
   * may is decided before: CommentAccessPolicy); an absent one is not an error. An open comment
   * leaves the thread's open count.
   */
  async remove(
    kind: CommentKind<unknown>,
    ref: ThreadRef,
    userId: string,
    at: ItemAt,
  ): Promise<void> {
    const thread = await this.threads.resolve(ref, userId);
    await this.dataSource.transaction(async (manager) => {
      // For update when the comment itself goes (its status leaves the count), else shared.
      const lock = at.replyId === undefined ? 'pessimistic_write' : 'pessimistic_read';
      const comment = await this.threads.findComment(manager, thread, at.commentId, lock);
      if (!comment) return;
      const item = await kind.find(manager, comment, at.replyId ?? comment.id);
      if (!item) return;
      await manager.delete(kind.entity, { id: item.id });
      if (kind.countsOpen && comment.status === 'open') {
        await this.threads.countOpen(manager, thread, -1);
      }
    });
  }

  /** The thread's comment `commentId`, locked as asked; 404 when absent. */
  private async lockComment(
    manager: EntityManager,
    thread: Thread,
    commentId: string,
    lock: RowLock,
  ): Promise<Comment> {
    const comment = await this.threads.findComment(manager, thread, commentId, lock);
    if (!comment) throw commentNotFound();
    return comment;
  }

  private async setResolved(
    manager: EntityManager,
    thread: Thread,
    comment: Comment,
    resolved: boolean,
    userId: string,
  ): Promise<void> {
    if (resolved && comment.status === 'open') {
      await manager.update(
        Comment,
        { id: comment.id },
        { status: 'resolved', resolvedAt: this.clock.now(), resolvedBy: userId },
      );
      await this.threads.countOpen(manager, thread, -1);
    } else if (!resolved && comment.status === 'resolved') {
      await manager.update(
        Comment,
        { id: comment.id },
        { status: 'open', resolvedAt: null, resolvedBy: null },
      );
      await this.threads.countOpen(manager, thread, +1);
    }
  }

  /** The comment's or reply's event: it was created, or its body changed. */
  private async recordEvent<View>(
    manager: EntityManager,
    kind: CommentKind<View>,
    ref: ThreadRef,
    view: View,
    what: 'created' | 'updated',
  ): Promise<void> {
    if (kind.noun === 'comment') {
      await this.events.comment(manager, `comment_${what}`, ref, view as CommentView);
    } else {
      await this.events.reply(manager, `comment_reply_${what}`, ref, view as ReplyView);
    }
  }

  /** Commenting on a change request contributes to it (its contributors listing). */
  private async recordContribution(
    manager: EntityManager,
    thread: Thread,
    userId: string,
  ): Promise<void> {
    if (thread.changeRequest) {
      await this.contributors.record(manager, thread.changeRequest.id, userId, 'comment');
    }
  }
}
