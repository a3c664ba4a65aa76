import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { EventOutbox, userActor } from '../platform/events/event-outbox';
import type { CommentView, ReplyView, Thread, ThreadRef } from './comment-thread';
import { CommentsPresenter } from './comments.presenter';

type CommentEventType =
  | 'comment_created'
  | 'comment_updated'
  | 'comment_resolved'
  | 'comment_reply_created'
  | 'comment_reply_updated';

/**
 * The events of comments and replies, recorded in the transaction of their change, each with
 * the comment or reply as the API presents it (in markdown), its space and change request.
 * Events of a comment and of its replies are one resource's: delivered in order.
 */
@Injectable()
export class CommentEvents {
  constructor(
    private readonly outbox: EventOutbox,
    private readonly presenter: CommentsPresenter,
  ) {}

  async comment(
    manager: EntityManager,
    type: 'comment_created' | 'comment_updated' | 'comment_resolved',
    ref: ThreadRef,
    view: CommentView,
  ): Promise<void> {
    await this.record(manager, type, ref, view.thread, view.comment.id, {
      comment: await this.presenter.comment(view),
    });
  }

  async reply(
    manager: EntityManager,
    type: 'comment_reply_created' | 'comment_reply_updated',
    ref: ThreadRef,
    view: ReplyView,
  ): Promise<void> {
    await this.record(manager, type, ref, view.thread, view.reply.commentId, {
      commentReplyId: view.reply.id,
      reply: await this.presenter.reply(view),
    });
  }

  private async record(
    manager: EntityManager,
    type: CommentEventType,
    ref: ThreadRef,
    thread: Thread,
    commentId: string,
    fields: Record<string, unknown>,
  ): Promise<void> {
    const changeRequestId = thread.changeRequest?.id;
    await this.outbox.record(manager, {
      type,
      organizationId: ref.space.organizationId,
      resource: { type: 'comment', id: commentId },
      spaceId: ref.space.id,
      actor: userActor(thread.caller.userId),
      fields: {
        spaceId: ref.space.id,
        ...(changeRequestId ? { changeRequestId } : {}),
        commentId,
        ...fields,
      },
    });
  }
}
