import { Injectable, OnModuleInit } from '@nestjs/common';
import { notFound } from '../platform/errors/domain-error';
import type { ResolvedAccess } from '../platform/policy/access';
import {
  type AccessContext,
  type ActionRequest,
  type ActionRule,
  PolicyService,
} from '../platform/policy/policy.service';
import type { SpaceAccess } from '../spaces/space-access.resolver';
import { type CommentChainRow, CommentsRepository } from './comments.repository';
import { type CommentNoun, deleteDenial, updateAsked, updateDenial } from './comment-permissions';
import { commentNotFound } from './comment-thread';

type CommentAction = 'view' | 'update' | 'delete';

declare module '../platform/policy/access' {
  interface ResourceTypes {
    /** A comment of a thread: a space's own, or one of its change requests'. */
    comment: true;
    /** A reply to a comment. */
    commentReply: true;
  }
  interface ResourceActions {
    comment: CommentAction;
    commentReply: CommentAction;
  }
}

/** A comment or reply as its access sees it: where it is and who wrote it. */
export interface CommentTarget {
  /** The caller's access to the space, whose role is the caller's role on the item. */
  space: SpaceAccess;
  /** The change request whose thread it is in; null for the space's own thread. */
  changeRequestId: string | null;
  commentId: string;
  /** Set for a reply. */
  replyId?: string;
  authorId: string;
}

export type CommentAccess = ResolvedAccess<CommentTarget> & { entity: CommentTarget };

const changeRequestNotFound = () => notFound('Change request');

/**
 * The access policy of comments and replies. A caller sees a comment or reply when it sees the
 * space (its role there is its role on the item), the route's change request is the space's
 * and the item is in that thread; the chain is read in one statement (the space's access comes
 * from the space's policy, once per request). Actions (comment-permissions.ts): `view`;
 * `update`, whose need depends on what the body asks (the body is its author's, resolving and
 * reacting need the comment role); `delete`, its author or a space admin.
 */
@Injectable()
export class CommentAccessPolicy implements OnModuleInit {
  constructor(
    private readonly policy: PolicyService,
    private readonly comments: CommentsRepository,
  ) {}

  onModuleInit(): void {
    this.policy.register('comment', {
      resolver: { resolve: (_userId, id, context) => this.resolve(id, undefined, context!) },
      actions: actions('comment'),
      readsBody: ['update'],
    });
    this.policy.register('commentReply', {
      resolver: {
        resolve: (_userId, id, context) => this.resolve(context!.params.commentId, id, context!),
      },
      noun: 'comment reply',
      actions: actions('reply'),
      readsBody: ['update'],
    });
  }

  private async resolve(
    commentId: string,
    replyId: string | undefined,
    context: AccessContext,
  ): Promise<CommentAccess | null> {
    const { params } = context;
    const space = (await context.parent('space', params.spaceId)) as SpaceAccess | null;
    if (!space) throw notFound('Space');
    const row: CommentChainRow = await this.comments.chain({
      spaceId: space.id,
      changeRequest: params.changeRequestId,
      commentId,
      replyId,
    });
    if (params.changeRequestId !== undefined && row.change_request_id === null) {
      throw changeRequestNotFound();
    }
    if (row.comment_id === null) {
      // A reply's route names its comment: that one missing is its own 404.
      if (replyId !== undefined && !context.proceedsIfAbsent) throw commentNotFound();
      return null;
    }
    const authorId = replyId === undefined ? row.comment_author_id : row.reply_author_id;
    if (authorId === null) return null;
    return {
      resource: replyId === undefined ? 'comment' : 'commentReply',
      id: replyId ?? commentId,
      organizationId: space.organizationId,
      spaceId: space.id,
      role: space.role,
      entity: {
        space,
        changeRequestId: row.change_request_id,
        commentId,
        ...(replyId !== undefined ? { replyId } : {}),
        authorId,
      },
    };
  }
}

function actions(noun: CommentNoun): Record<CommentAction, ActionRule> {
  const rule =
    (decide: (access: CommentAccess, userId: string, body: unknown) => ReturnType<ActionRule>) =>
    (access: ResolvedAccess, request: ActionRequest) =>
      decide(access as CommentAccess, request.userId, request.body);
  return {
    view: () => null,
    update: rule((access, userId, body) =>
      updateDenial({ userId, role: access.role }, access.entity.authorId, noun, updateAsked(body)),
    ),
    delete: rule((access, userId) =>
      deleteDenial({ userId, role: access.role }, access.entity.authorId, noun),
    ),
  };
}
