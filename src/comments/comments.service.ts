import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { ChangeRequestsService } from '../change-requests/change-requests.service';
import type { ChangeRequest } from '../change-requests/entities/change-request.entity';
import { ChangeRequestContributors } from '../change-requests/reviews/change-request-contributors';
import type { JSONDocument } from '../content-engine/documents/document';
import { markdownToDocument } from '../content-engine/documents/markdown';
import { ContentReader } from '../content-engine/reads/content-reader';
import { Member } from '../orgs/entities/member.entity';
import {
  MEMBER_TEAMS_COUNT_SQL,
  memberSpacesCountSql,
  type MemberRecord,
} from '../orgs/members/members.service';
import { Clock } from '../platform/clock/clock';
import { DomainError, invalidInput, notFound } from '../platform/errors/domain-error';
import { newId } from '../platform/ids/ids';
import { paginate } from '../platform/pagination/keyset';
import { Page } from '../platform/pagination/page';
import type { PageQueryDto } from '../platform/pagination/page-query.dto';
import type { SpaceAccess } from '../spaces/space-access.resolver';
import { User } from '../users/entities/user.entity';
import { assertMayDelete, assertMayUpdate, type Caller } from './comment-permissions';
import { findNodeByKey, hasTableCell } from './document-nodes';
import type { CommentBodyInput } from './dto/comment-body';
import {
  ListCommentsQueryDto,
  ListRepliesQueryDto,
  PostCommentDto,
  PostCommentReplyDto,
  UpdateCommentDto,
} from './dto/comment.dto';
import { Comment } from './entities/comment.entity';
import { CommentReaction, CommentReplyReaction } from './entities/comment-reaction.entity';
import { CommentReply } from './entities/comment-reply.entity';

/** Which thread a route is about: a space's own comments, or a change request's. */
export interface ThreadRef {
  space: SpaceAccess;
  /** The change request's id or number; null for the space's own comments. */
  changeRequestId: string | null;
}

/** A thread as resolved for one caller. */
export interface Thread {
  spaceId: string;
  /** Null for the space's own comments. */
  changeRequest: ChangeRequest | null;
  /** The revision new comments are made on: the space's primary or the change request's head. */
  revision: string;
  caller: Caller;
}

/** One user's reaction, in the order reactions were made. */
export interface ReactionRow {
  emoji: string;
  user: User;
  reactedAt: Date;
}

/** A comment with what its wire shape needs. */
export interface CommentView {
  thread: Thread;
  comment: Comment;
  reactions: ReactionRow[];
  /** Per user who replied, latest first. */
  repliers: { user: User; count: number; updatedAt: Date }[];
  replies: number;
}

export interface ReplyView {
  thread: Thread;
  reply: CommentReply;
  reactions: ReactionRow[];
}

/** A commenter: an organization member and when it last commented or replied in the thread. */
export interface CommenterRecord extends MemberRecord {
  lastActivityAt: Date;
}

/** A body as stored: always a document; the markdown too when it was written in markdown. */
interface StoredBody {
  body: JSONDocument;
  bodyMarkdown: string | null;
}

const commentNotFound = () => notFound('Comment');
const replyNotFound = () => notFound('Comment reply');

const TEAMS_COUNT_ALIAS = 'member_teams';
const SPACES_COUNT_ALIAS = 'member_spaces';
const LAST_ACTIVITY_ALIAS = 'last_activity_at';

/**
 * Comments and replies of a thread: a space's own comments or a change request's. Every write
 * that opens or closes a comment (post, resolve, reopen, delete) moves the thread's open count
 * (`spaces.comments` or `change_requests.comments`) in the same transaction, with an atomic
 * `comments = comments ± 1`. A comment's row is locked before its status changes, so a
 * concurrent resolve and delete count once.
 */
@Injectable()
export class CommentsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly changeRequests: ChangeRequestsService,
    private readonly contributors: ChangeRequestContributors,
    private readonly content: ContentReader,
  ) {}

  /** Oldest or newest first (by posting time, then id), filtered. */
  async list(
    ref: ThreadRef,
    userId: string,
    query: ListCommentsQueryDto,
  ): Promise<Page<CommentView>> {
    const thread = await this.thread(ref, userId);
    const manager = this.dataSource.manager;
    const rows = this.comments(manager, thread);
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
    return { ...page, items: await this.commentViews(manager, thread, page.items) };
  }

  async get(ref: ThreadRef, userId: string, commentId: string): Promise<CommentView> {
    const thread = await this.thread(ref, userId);
    return this.loadComment(this.dataSource.manager, thread, commentId);
  }

  /**
   * Posts a comment on the thread's revision, about one of its pages (and a node of that page,
   * and a cell of that node's table) if asked; the thread's open count goes up by one.
   */
  async post(ref: ThreadRef, userId: string, input: PostCommentDto): Promise<CommentView> {
    const thread = await this.thread(ref, userId);
    await this.checkTarget(thread, input);
    const stored = await this.stored(input.body);
    return this.dataSource.transaction(async (manager) => {
      const id = newId();
      await manager.insert(Comment, {
        id,
        spaceId: thread.spaceId,
        changeRequestId: thread.changeRequest?.id ?? null,
        revision: thread.revision,
        pageId: input.page ?? null,
        nodeId: input.node ?? null,
        tableCellRecord: input.tableCell?.record ?? null,
        tableCellDefinition: input.tableCell?.definition ?? null,
        authorId: userId,
        ...stored,
        status: 'open',
        resolvedAt: null,
        resolvedBy: null,
        postedAt: this.clock.now(),
        editedAt: null,
      } as QueryDeepPartialEntity<Comment>);
      await this.countOpen(manager, thread, +1);
      await this.recordContribution(manager, thread, userId);
      return this.loadComment(manager, thread, id);
    });
  }

  /**
   * `body` (its author only), `resolved` (resolve or reopen), reactions of the caller (both
   * with the comment role). A resolve of a resolved comment, or a reopen of an open one,
   * changes nothing.
   */
  async update(
    ref: ThreadRef,
    userId: string,
    commentId: string,
    input: UpdateCommentDto,
  ): Promise<CommentView> {
    const thread = await this.thread(ref, userId);
    const reactions = reactionChanges(input);
    const stored = input.body !== undefined ? await this.stored(input.body) : undefined;
    return this.dataSource.transaction(async (manager) => {
      const comment = await this.lockComment(manager, thread, commentId);
      if (!comment) throw commentNotFound();
      assertMayUpdate(thread.caller, comment.authorId, 'comment', {
        body: stored !== undefined,
        resolved: input.resolved !== undefined,
        reactions: reactions !== null,
      });
      if (stored) {
        await manager.update(Comment, { id: comment.id }, {
          ...stored,
          editedAt: this.clock.now(),
        } as QueryDeepPartialEntity<Comment>);
      }
      if (input.resolved !== undefined) {
        await this.setResolved(manager, thread, comment, input.resolved, userId);
      }
      if (reactions) {
        await this.react(manager, 'comment_reactions', 'comment_id', comment.id, userId, reactions);
      }
      return this.loadComment(manager, thread, comment.id);
    });
  }

  /**
   * Deletes the comment with its replies and reactions (its author or a space admin); an
   * absent one is not an error. An open one leaves the thread's open count.
   */
  async remove(ref: ThreadRef, userId: string, commentId: string): Promise<void> {
    const thread = await this.thread(ref, userId);
    await this.dataSource.transaction(async (manager) => {
      const comment = await this.lockComment(manager, thread, commentId);
      if (!comment) return;
      assertMayDelete(thread.caller, comment.authorId, 'comment');
      await manager.delete(Comment, { id: comment.id });
      if (comment.status === 'open') await this.countOpen(manager, thread, -1);
    });
  }

  /** Oldest first. */
  async listReplies(
    ref: ThreadRef,
    userId: string,
    commentId: string,
    query: ListRepliesQueryDto,
  ): Promise<Page<ReplyView>> {
    const thread = await this.thread(ref, userId);
    const manager = this.dataSource.manager;
    const comment = await this.findComment(manager, thread, commentId);
    if (!comment) throw commentNotFound();
    const page = await paginate(this.replies(manager, comment.id), query, {
      keys: [
        { sql: 'r.posted_at', of: (r) => r.postedAt },
        { sql: 'r.id', of: (r) => r.id },
      ],
      direction: 'ASC',
    });
    return { ...page, items: await this.replyViews(manager, thread, page.items) };
  }

  async getReply(
    ref: ThreadRef,
    userId: string,
    commentId: string,
    replyId: string,
  ): Promise<ReplyView> {
    const thread = await this.thread(ref, userId);
    const manager = this.dataSource.manager;
    const comment = await this.findComment(manager, thread, commentId);
    if (!comment) throw commentNotFound();
    return this.loadReply(manager, thread, comment.id, replyId);
  }

  /** Replies to a comment of the thread, resolved or not. */
  async postReply(
    ref: ThreadRef,
    userId: string,
    commentId: string,
    input: PostCommentReplyDto,
  ): Promise<ReplyView> {
    const thread = await this.thread(ref, userId);
    const stored = await this.stored(input.body);
    return this.dataSource.transaction(async (manager) => {
      // Shared: replies to one comment do not wait for each other, a delete waits for them.
      const comment = await this.findComment(manager, thread, commentId, 'pessimistic_read');
      if (!comment) throw commentNotFound();
      const id = newId();
      await manager.insert(CommentReply, {
        id,
        commentId: comment.id,
        authorId: userId,
        ...stored,
        postedAt: this.clock.now(),
        editedAt: null,
      } as QueryDeepPartialEntity<CommentReply>);
      await this.recordContribution(manager, thread, userId);
      return this.loadReply(manager, thread, comment.id, id);
    });
  }

  /**
   * `body` (its author only), reactions of the caller (comment role); on a change request's
   * reply `resolved` resolves or reopens its comment (comment role).
   */
  async updateReply(
    ref: ThreadRef,
    userId: string,
    commentId: string,
    replyId: string,
    input: UpdateCommentDto,
  ): Promise<ReplyView> {
    const thread = await this.thread(ref, userId);
    const reactions = reactionChanges(input);
    const stored = input.body !== undefined ? await this.stored(input.body) : undefined;
    return this.dataSource.transaction(async (manager) => {
      // The comment first (it may be resolved), then the reply: the order every write takes.
      const comment = await this.lockComment(manager, thread, commentId);
      if (!comment) throw commentNotFound();
      const reply = await manager
        .getRepository(CommentReply)
        .createQueryBuilder('r')
        .where('r.id = :replyId AND r.comment_id = :commentId', {
          replyId,
          commentId: comment.id,
        })
        .setLock('pessimistic_write')
        .getOne();
      if (!reply) throw replyNotFound();
      assertMayUpdate(thread.caller, reply.authorId, 'reply', {
        body: stored !== undefined,
        resolved: input.resolved !== undefined,
        reactions: reactions !== null,
      });
      if (stored) {
        await manager.update(CommentReply, { id: reply.id }, {
          ...stored,
          editedAt: this.clock.now(),
        } as QueryDeepPartialEntity<CommentReply>);
      }
      if (input.resolved !== undefined) {
        await this.setResolved(manager, thread, comment, input.resolved, userId);
      }
      if (reactions) {
        await this.react(
          manager,
          'comment_reply_reactions',
          'reply_id',
          reply.id,
          userId,
          reactions,
        );
      }
      return this.loadReply(manager, thread, comment.id, reply.id);
    });
  }

  /** Deletes the reply and its reactions (its author or a space admin); absent is no error. */
  async removeReply(
    ref: ThreadRef,
    userId: string,
    commentId: string,
    replyId: string,
  ): Promise<void> {
    const thread = await this.thread(ref, userId);
    await this.dataSource.transaction(async (manager) => {
      const comment = await this.findComment(manager, thread, commentId, 'pessimistic_read');
      if (!comment) return;
      const reply = await manager.findOneBy(CommentReply, { id: replyId, commentId: comment.id });
      if (!reply) return;
      assertMayDelete(thread.caller, reply.authorId, 'reply');
      await manager.delete(CommentReply, { id: reply.id });
    });
  }

  /**
   * The organization's members who commented or replied in the thread, latest activity first
   * (users who are no longer members are left out).
   */
  async commenters(
    ref: ThreadRef,
    userId: string,
    query: PageQueryDto,
  ): Promise<Page<CommenterRecord>> {
    const thread = await this.thread(ref, userId);
    const own = thread.changeRequest
      ? 'c.change_request_id = :changeRequestId'
      : 'c.space_id = :spaceId AND c.change_request_id IS NULL';
    const activity = `(SELECT x.user_id, MAX(x.at) AS ${LAST_ACTIVITY_ALIAS} FROM (
        SELECT c.author_id AS user_id, c.posted_at AS at FROM comments c WHERE ${own}
        UNION ALL
        SELECT r.author_id, r.posted_at FROM comment_replies r
          JOIN comments c ON c.id = r.comment_id WHERE ${own}
      ) x GROUP BY x.user_id)`;
    const rows = this.dataSource.manager
      .createQueryBuilder(Member, 'm')
      .innerJoinAndSelect('m.user', 'u')
      .innerJoin(activity, 'a', 'a.user_id = m.user_id')
      .addSelect(`a.${LAST_ACTIVITY_ALIAS}`, LAST_ACTIVITY_ALIAS)
      .addSelect(MEMBER_TEAMS_COUNT_SQL, TEAMS_COUNT_ALIAS)
      .addSelect(memberSpacesCountSql(':organizationId'), SPACES_COUNT_ALIAS)
      .where('m.organization_id = :organizationId', {
        organizationId: ref.space.organizationId,
        spaceId: thread.spaceId,
        changeRequestId: thread.changeRequest?.id ?? null,
      });
    return paginate(rows, query, {
      keys: [
        { sql: `a.${LAST_ACTIVITY_ALIAS}`, of: (row: CommenterRecord) => row.lastActivityAt },
        { sql: 'm.user_id', of: (row: CommenterRecord) => row.member.userId },
      ],
      direction: 'DESC',
      fetch: async (ordered) => {
        const { entities, raw } = await ordered.getRawAndEntities<Record<string, unknown>>();
        const byUser = new Map(raw.map((row) => [row.m_user_id, row]));
        return entities.map((member) => {
          const row = byUser.get(member.userId)!;
          return {
            member,
            teams: Number(row[TEAMS_COUNT_ALIAS]),
            spaces: Number(row[SPACES_COUNT_ALIAS]),
            lastActivityAt: new Date(row[LAST_ACTIVITY_ALIAS] as Date | string),
          };
        });
      },
    });
  }

  /** The thread, for the caller; 404 for a change request not in the space. */
  private async thread(ref: ThreadRef, userId: string): Promise<Thread> {
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

  /**
   * 400 unless the target exists in the thread's revision: `page` a page of it, `node` the key
   * of a node of that page's document, at any depth, `tableCell` a record and a definition of
   * that node's table; `node` needs `page`, `tableCell` `node`.
   */
  private async checkTarget(thread: Thread, input: PostCommentDto): Promise<void> {
    if (input.node !== undefined && input.page === undefined) {
      throw invalidInput('node: a node is on a page: give page too.');
    }
    if (input.tableCell !== undefined && input.node === undefined) {
      throw invalidInput('tableCell: a table cell is in a node: give node too.');
    }
    if (input.page === undefined) return;
    const revision = await this.content.readRevision(thread.spaceId, thread.revision);
    let document: JSONDocument | undefined;
    try {
      const read = await this.content.getPage(revision, input.page, 'document');
      document = 'document' in read.body ? read.body.document : undefined;
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'not_found') {
        throw invalidInput(`page: no page ${input.page} in the revision commented on.`);
      }
      throw error;
    }
    if (input.node === undefined) return;
    const node = document ? findNodeByKey(document, input.node) : null;
    if (!node) throw invalidInput(`node: no node ${input.node} on page ${input.page}.`);
    const cell = input.tableCell;
    if (cell && !hasTableCell(node, cell.record, cell.definition)) {
      throw invalidInput(
        `tableCell: node ${input.node} is not a table with record ${cell.record} and definition ${cell.definition}.`,
      );
    }
  }

  /** The body to store: the document, and the markdown when it came as markdown. */
  private async stored(input: CommentBodyInput): Promise<StoredBody> {
    if ('document' in input) return { body: input.document, bodyMarkdown: null };
    const body = await markdownToDocument(input.markdown);
    // Markdown of nothing but link definitions or HTML comments, say.
    if (body.nodes.length === 0) {
      throw invalidInput('body.markdown must not be empty: it has no content.');
    }
    return { body, bodyMarkdown: input.markdown };
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
      await this.countOpen(manager, thread, -1);
    } else if (!resolved && comment.status === 'resolved') {
      await manager.update(
        Comment,
        { id: comment.id },
        { status: 'open', resolvedAt: null, resolvedBy: null },
      );
      await this.countOpen(manager, thread, +1);
    }
  }

  /** Adds and removes the caller's reactions; adding one it has, or removing one it has not, does nothing. */
  private async react(
    manager: EntityManager,
    table: 'comment_reactions' | 'comment_reply_reactions',
    column: 'comment_id' | 'reply_id',
    subjectId: string,
    userId: string,
    { added, removed }: ReactionChanges,
  ): Promise<void> {
    if (added.length > 0) {
      await manager.query(
        `INSERT INTO ${table} (${column}, emoji, user_id, reacted_at)
         SELECT $1, e.emoji, $2, $3 FROM unnest($4::varchar[]) AS e(emoji)
         ON CONFLICT DO NOTHING`,
        [subjectId, userId, this.clock.now(), added],
      );
    }
    if (removed.length > 0) {
      await manager.query(
        `DELETE FROM ${table} WHERE ${column} = $1 AND user_id = $2 AND emoji = ANY($3::varchar[])`,
        [subjectId, userId, removed],
      );
    }
  }

  /** Moves the thread's count of open comments. */
  private async countOpen(manager: EntityManager, thread: Thread, delta: 1 | -1): Promise<void> {
    if (thread.changeRequest) {
      await manager.query(`UPDATE change_requests SET comments = comments + $2 WHERE id = $1`, [
        thread.changeRequest.id,
        delta,
      ]);
    } else {
      await manager.query(`UPDATE spaces SET comments = comments + $2 WHERE id = $1`, [
        thread.spaceId,
        delta,
      ]);
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

  /** The thread's comments, with their author and resolver. */
  private comments(manager: EntityManager, thread: Thread): SelectQueryBuilder<Comment> {
    const rows = manager
      .getRepository(Comment)
      .createQueryBuilder('c')
      .innerJoinAndSelect('c.author', 'author')
      .leftJoinAndSelect('c.resolver', 'resolver');
    return thread.changeRequest
      ? rows.where('c.change_request_id = :changeRequestId', {
          changeRequestId: thread.changeRequest.id,
        })
      : rows.where('c.space_id = :spaceId AND c.change_request_id IS NULL', {
          spaceId: thread.spaceId,
        });
  }

  private replies(manager: EntityManager, commentId: string): SelectQueryBuilder<CommentReply> {
    return manager
      .getRepository(CommentReply)
      .createQueryBuilder('r')
      .innerJoinAndSelect('r.author', 'author')
      .where('r.comment_id = :commentId', { commentId });
  }

  /** The thread's comment `commentId` alone (no relations), locked as asked; null when absent. */
  private findComment(
    manager: EntityManager,
    thread: Thread,
    commentId: string,
    lock?: 'pessimistic_read' | 'pessimistic_write',
  ): Promise<Comment | null> {
    const query = manager
      .getRepository(Comment)
      .createQueryBuilder('c')
      .where('c.id = :commentId', {
        commentId,
      });
    if (thread.changeRequest) {
      query.andWhere('c.change_request_id = :changeRequestId', {
        changeRequestId: thread.changeRequest.id,
      });
    } else {
      query.andWhere('c.space_id = :spaceId AND c.change_request_id IS NULL', {
        spaceId: thread.spaceId,
      });
    }
    if (lock) query.setLock(lock);
    return query.getOne();
  }

  private lockComment(
    manager: EntityManager,
    thread: Thread,
    commentId: string,
  ): Promise<Comment | null> {
    return this.findComment(manager, thread, commentId, 'pessimistic_write');
  }

  private async loadComment(
    manager: EntityManager,
    thread: Thread,
    commentId: string,
  ): Promise<CommentView> {
    const comment = await this.comments(manager, thread)
      .andWhere('c.id = :commentId', { commentId })
      .getOne();
    if (!comment) throw commentNotFound();
    const [view] = await this.commentViews(manager, thread, [comment]);
    return view;
  }

  private async loadReply(
    manager: EntityManager,
    thread: Thread,
    commentId: string,
    replyId: string,
  ): Promise<ReplyView> {
    const reply = await this.replies(manager, commentId)
      .andWhere('r.id = :replyId', { replyId })
      .getOne();
    if (!reply) throw replyNotFound();
    const [view] = await this.replyViews(manager, thread, [reply]);
    return view;
  }

  /** Reactions and repliers of a page of comments, in two queries (and one for the repliers' users). */
  private async commentViews(
    manager: EntityManager,
    thread: Thread,
    comments: Comment[],
  ): Promise<CommentView[]> {
    if (comments.length === 0) return [];
    const ids = comments.map((comment) => comment.id);
    // One after the other: inside a transaction both run on the same connection.
    const reactions = await manager.find(CommentReaction, {
      where: { commentId: In(ids) },
      relations: { user: true },
      order: { reactedAt: 'ASC', userId: 'ASC', emoji: 'ASC' },
    });
    const replierRows: {
      comment_id: string;
      author_id: string;
      count: number;
      updated_at: Date | string;
    }[] = await manager.query(
      `SELECT comment_id, author_id, COUNT(*)::int AS count, MAX(posted_at) AS updated_at
         FROM comment_replies WHERE comment_id = ANY($1::varchar[])
        GROUP BY comment_id, author_id
        ORDER BY updated_at DESC, author_id`,
      [ids],
    );
    const replierIds = [...new Set(replierRows.map((row) => row.author_id))];
    const users = new Map(
      (replierIds.length > 0 ? await manager.findBy(User, { id: In(replierIds) }) : []).map(
        (user) => [user.id, user],
      ),
    );
    return comments.map((comment) => {
      const repliers = replierRows
        .filter((row) => row.comment_id === comment.id && users.has(row.author_id))
        .map((row) => ({
          user: users.get(row.author_id)!,
          count: row.count,
          updatedAt: new Date(row.updated_at),
        }));
      return {
        thread,
        comment,
        reactions: reactions
          .filter((reaction) => reaction.commentId === comment.id)
          .map(({ emoji, user, reactedAt }) => ({ emoji, user: user!, reactedAt })),
        repliers,
        replies: repliers.reduce((total, replier) => total + replier.count, 0),
      };
    });
  }

  private async replyViews(
    manager: EntityManager,
    thread: Thread,
    replies: CommentReply[],
  ): Promise<ReplyView[]> {
    if (replies.length === 0) return [];
    const reactions = await manager.find(CommentReplyReaction, {
      where: { replyId: In(replies.map((reply) => reply.id)) },
      relations: { user: true },
      order: { reactedAt: 'ASC', userId: 'ASC', emoji: 'ASC' },
    });
    return replies.map((reply) => ({
      thread,
      reply,
      reactions: reactions
        .filter((reaction) => reaction.replyId === reply.id)
        .map(({ emoji, user, reactedAt }) => ({ emoji, user: user!, reactedAt })),
    }));
  }
}

interface ReactionChanges {
  added: string[];
  removed: string[];
}

/** The reactions an update asks for, each emoji once; null when it asks for none; 400 when one is both added and removed. */
function reactionChanges(input: UpdateCommentDto): ReactionChanges | null {
  if (input.addedReactions === undefined && input.removedReactions === undefined) return null;
  const added = [...new Set(input.addedReactions ?? [])];
  const removed = [...new Set(input.removedReactions ?? [])];
  const both = added.find((emoji) => removed.includes(emoji));
  if (both !== undefined) {
    throw invalidInput(
      `addedReactions, removedReactions: ${both} cannot be both added and removed.`,
    );
  }
  return { added, removed };
}
