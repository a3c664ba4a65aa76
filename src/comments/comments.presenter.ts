import { Injectable } from '@nestjs/common';
import type { JSONDocument } from '../content-engine/documents/document';
import { documentToMarkdown } from '../content-engine/documents/markdown';
import { stableUrl } from '../content-engine/refs/markdown-refs';
import type { MemberResponse } from '../orgs/members/dto/member.response';
import { MembersPresenter } from '../orgs/members/members.presenter';
import { UrlBuilder } from '../platform/urls/url-builder';
import { UsersPresenter } from '../users/users.presenter';
import { commentPermissions } from './comment-permissions';
import type {
  CommenterRecord,
  CommentView,
  ReactionRow,
  ReplyView,
  Thread,
} from './comment-thread';
import type { CommentFormat } from './dto/comment.dto';
import {
  CommentBodyResponse,
  CommentReplyResponse,
  CommentResponse,
  EmojiReactionResponse,
} from './dto/comment.response';

@Injectable()
export class CommentsPresenter {
  constructor(
    private readonly urls: UrlBuilder,
    private readonly users: UsersPresenter,
    private readonly members: MembersPresenter,
  ) {}

  async comment(
    { thread, comment, reactions, repliers, replies }: CommentView,
    format: CommentFormat = 'markdown',
  ): Promise<CommentResponse> {
    const resolved = comment.status === 'resolved' && comment.resolvedAt !== null;
    return {
      object: 'comment',
      id: comment.id,
      postedBy: this.users.user(comment.author!),
      postedAt: comment.postedAt.toISOString(),
      ...(comment.editedAt ? { editedAt: comment.editedAt.toISOString() } : {}),
      reactions: this.reactions(reactions),
      replies,
      repliers: repliers.map(({ user, count, updatedAt }) => ({
        user: this.users.user(user),
        count,
        updatedAt: updatedAt.toISOString(),
      })),
      body: await this.body(comment.body, comment.bodyMarkdown, format),
      target: {
        space: comment.spaceId,
        revision: comment.revision,
        ...(comment.pageId !== null ? { page: { id: comment.pageId } } : {}),
        ...(comment.nodeId !== null ? { node: { id: comment.nodeId } } : {}),
        ...(comment.tableCellRecord !== null && comment.tableCellDefinition !== null
          ? {
              tableCell: {
                record: comment.tableCellRecord,
                definition: comment.tableCellDefinition,
              },
            }
          : {}),
        ...(comment.changeRequestId !== null ? { changeRequest: comment.changeRequestId } : {}),
      },
      urls: { location: this.urls.api(...this.commentPath(thread, comment.id)) },
      permissions: commentPermissions(
        thread.caller.role,
        comment.authorId === thread.caller.userId,
      ),
      ...(resolved
        ? {
            status: 'resolved' as const,
            resolvedAt: comment.resolvedAt!.toISOString(),
            ...(comment.resolver ? { resolvedBy: this.users.user(comment.resolver) } : {}),
          }
        : { status: 'open' as const }),
    };
  }

  async reply(
    { thread, reply, reactions }: ReplyView,
    format: CommentFormat = 'markdown',
  ): Promise<CommentReplyResponse> {
    return {
      object: 'comment-reply',
      id: reply.id,
      postedBy: this.users.user(reply.author!),
      postedAt: reply.postedAt.toISOString(),
      ...(reply.editedAt ? { editedAt: reply.editedAt.toISOString() } : {}),
      reactions: this.reactions(reactions),
      body: await this.body(reply.body, reply.bodyMarkdown, format),
      urls: {
        location: this.urls.api(...this.commentPath(thread, reply.commentId), 'replies', reply.id),
      },
      permissions: commentPermissions(thread.caller.role, reply.authorId === thread.caller.userId),
    };
  }

  commenter(record: CommenterRecord): MemberResponse {
    return this.members.present(record);
  }

  /** One item per emoji, in the order of each emoji's first reaction (rows come oldest first). */
  private reactions(rows: ReactionRow[]): EmojiReactionResponse[] {
    const byEmoji = new Map<string, EmojiReactionResponse>();
    for (const { emoji, user, reactedAt } of rows) {
      let reaction = byEmoji.get(emoji);
      if (!reaction) {
        reaction = { emoji, count: 0, users: [] };
        byEmoji.set(emoji, reaction);
      }
      reaction.count++;
      reaction.users.push({ user: this.users.user(user), reactedAt: reactedAt.toISOString() });
    }
    return [...byEmoji.values()];
  }

  /** The markdown as written when it was written in markdown, otherwise the document's. */
  private async body(
    document: JSONDocument,
    markdown: string | null,
    format: CommentFormat,
  ): Promise<CommentBodyResponse> {
    if (format === 'document') return { document };
    return { markdown: markdown ?? (await documentToMarkdown(document, { refToUrl: stableUrl })) };
  }

  private commentPath(thread: Thread, commentId: string): string[] {
    return thread.changeRequest
      ? [
          'spaces',
          thread.spaceId,
          'change-requests',
          thread.changeRequest.id,
          'comments',
          commentId,
        ]
      : ['spaces', thread.spaceId, 'comments', commentId];
  }
}
