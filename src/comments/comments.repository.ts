import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import { Member } from '../orgs/entities/member.entity';
import { MEMBER_TEAMS_COUNT_SQL, memberSpacesCountSql } from '../orgs/members/members.repository';
import { preparedQuery } from '../platform/database/prepared-query';
import { paginate, PageRequest } from '../platform/pagination/keyset';
import { Page } from '../platform/pagination/page';
import type { CommenterRecord, CommentThreadScope } from './comment-thread';
import { Comment } from './entities/comment.entity';
import { CommentReply } from './entities/comment-reply.entity';

/** The filters of a thread's comment list; absent ones do not filter. */
export interface CommentListFilters {
  status?: string;
  pageId?: string;
  authors?: string[];
}

/** How many replies one user made to one comment, and when the latest. */
export interface ReplierRow {
  comment_id: string;
  author_id: string;
  count: number;
  updated_at: Date | string;
}

/** Where a comment or reply is, as the access to it needs: its thread and its author. */
export interface CommentChainRow {
  /** Null when the route names no change request, or names one the space does not have. */
  change_request_id: string | null;
  comment_id: string | null;
  comment_author_id: string | null;
  reply_id: string | null;
  reply_author_id: string | null;
}

/** What a comment route names: its space, its change request (id or number) if any, the items. */
export interface CommentChainRef {
  spaceId: string;
  changeRequest?: string;
  commentId: string;
  replyId?: string;
}

export type CommentRowLock = 'pessimistic_read' | 'pessimistic_write';

const TEAMS_COUNT_ALIAS = 'member_teams';
const SPACES_COUNT_ALIAS = 'member_spaces';
const LAST_ACTIVITY_ALIAS = 'last_activity_at';

/** The condition that keeps the thread's comments (aliased `c`), and its parameters. */
function inThread(scope: CommentThreadScope): { sql: string; params: Record<string, string> } {
  return scope.changeRequestId !== null
    ? {
        sql: 'c.change_request_id = :changeRequestId',
        params: { changeRequestId: scope.changeRequestId },
      }
    : {
        sql: 'c.space_id = :spaceId AND c.change_request_id IS NULL',
        params: { spaceId: scope.spaceId },
      };
}

/** The `comments` and `comment_replies` tables. */
@Injectable()
export class CommentsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A page of the thread's comments matching `filters`, by posting time then id. */
  listInThread(
    scope: CommentThreadScope,
    filters: CommentListFilters,
    direction: 'ASC' | 'DESC',
    request: PageRequest,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Page<Comment>> {
    const rows = this.comments(manager, scope);
    if (filters.status !== undefined) {
      rows.andWhere('c.status = :status', { status: filters.status });
    }
    if (filters.pageId !== undefined) {
      rows.andWhere('c.page_id = :targetPage', { targetPage: filters.pageId });
    }
    if (filters.authors !== undefined) {
      rows.andWhere('c.author_id = ANY(:authors)', { authors: filters.authors });
    }
    return paginate(rows, request, {
      keys: [
        { sql: 'c.posted_at', of: (c) => c.postedAt },
        { sql: 'c.id', of: (c) => c.id },
      ],
      direction,
    });
  }

  /** The thread's comment `commentId` with its author and resolver; null when absent. */
  findInThread(
    scope: CommentThreadScope,
    commentId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Comment | null> {
    return this.comments(manager, scope).andWhere('c.id = :commentId', { commentId }).getOne();
  }

  /** The thread's comment `commentId` alone (no relations), locked as asked; null when absent. */
  findRowInThread(
    scope: CommentThreadScope,
    commentId: string,
    lock?: CommentRowLock,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Comment | null> {
    const { sql, params } = inThread(scope);
    const query = manager
      .getRepository(Comment)
      .createQueryBuilder('c')
      .where('c.id = :commentId', { commentId })
      .andWhere(sql, params);
    if (lock) query.setLock(lock);
    return query.getOne();
  }

  /** A page of the replies to comment `commentId`, with their author, oldest first. */
  listReplies(
    commentId: string,
    request: PageRequest,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Page<CommentReply>> {
    return paginate(this.replies(manager, commentId), request, {
      keys: [
        { sql: 'r.posted_at', of: (r) => r.postedAt },
        { sql: 'r.id', of: (r) => r.id },
      ],
      direction: 'ASC',
    });
  }

  /** The reply `replyId` to comment `commentId`, with its author; null when absent. */
  findReply(
    commentId: string,
    replyId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<CommentReply | null> {
    return this.replies(manager, commentId).andWhere('r.id = :replyId', { replyId }).getOne();
  }

  /** Who replied to each of `commentIds`, how often and when last; latest first. */
  repliersOf(
    commentIds: string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<ReplierRow[]> {
    return manager.query(
      `SELECT comment_id, author_id, COUNT(*)::int AS count, MAX(posted_at) AS updated_at
         FROM comment_replies WHERE comment_id = ANY($1::varchar[])
        GROUP BY comment_id, author_id
        ORDER BY updated_at DESC, author_id`,
      [commentIds],
    );
  }

  /**
   * A page of the organization's members who commented or replied in the thread, with their
   * team and space counts, latest activity first.
   */
  listCommenters(
    scope: CommentThreadScope,
    organizationId: string,
    request: PageRequest,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Page<CommenterRecord>> {
    const own = inThread(scope);
    const activity = `(SELECT x.user_id, MAX(x.at) AS ${LAST_ACTIVITY_ALIAS} FROM (
        SELECT c.author_id AS user_id, c.posted_at AS at FROM comments c WHERE ${own.sql}
        UNION ALL
        SELECT r.author_id, r.posted_at FROM comment_replies r
          JOIN comments c ON c.id = r.comment_id WHERE ${own.sql}
      ) x GROUP BY x.user_id)`;
    // Reads organization_members and users (and, through orgs' member counts, teams and
    // spaces), owned by orgs and users: the commenters are members ranked by their activity in
    // the thread, which one query pages; orgs' member lists cannot join the thread's comments.
    const rows = manager
      .createQueryBuilder(Member, 'm')
      .innerJoinAndSelect('m.user', 'u')
      .innerJoin(activity, 'a', 'a.user_id = m.user_id')
      .addSelect(`a.${LAST_ACTIVITY_ALIAS}`, LAST_ACTIVITY_ALIAS)
      .addSelect(MEMBER_TEAMS_COUNT_SQL, TEAMS_COUNT_ALIAS)
      .addSelect(memberSpacesCountSql(':organizationId'), SPACES_COUNT_ALIAS)
      .where('m.organization_id = :organizationId', {
        organizationId,
        ...own.params,
      });
    return paginate(rows, request, {
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

  /** The thread's comments, with their author and resolver (users, joined for the wire shape). */
  private comments(manager: EntityManager, scope: CommentThreadScope): SelectQueryBuilder<Comment> {
    const { sql, params } = inThread(scope);
    return manager
      .getRepository(Comment)
      .createQueryBuilder('c')
      .innerJoinAndSelect('c.author', 'author')
      .leftJoinAndSelect('c.resolver', 'resolver')
      .where(sql, params);
  }

  /** The replies to comment `commentId`, with their author. */
  private replies(manager: EntityManager, commentId: string): SelectQueryBuilder<CommentReply> {
    return manager
      .getRepository(CommentReply)
      .createQueryBuilder('r')
      .innerJoinAndSelect('r.author', 'author')
      .where('r.comment_id = :commentId', { commentId });
  }

  /**
   * For access decisions (CommentAccessPolicy): the route's change request (by id, or by number when all digits; `change_requests` is change-requests', read to place the thread in one statement) in the space, the comment
   * in that thread (the space's own when no change request is named) and the reply to it.
   */
  async chain(
    ref: CommentChainRef,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<CommentChainRow> {
    const number =
      ref.changeRequest !== undefined && /^\d{1,9}$/.test(ref.changeRequest)
        ? Number(ref.changeRequest)
        : null;
    const rows = await preparedQuery<CommentChainRow>(
      manager,
      'bindery_comment_chain',
      `SELECT cr.id AS change_request_id, c.id AS comment_id, c.author_id AS comment_author_id,
              rp.id AS reply_id, rp.author_id AS reply_author_id
         FROM (SELECT 1) AS one
         LEFT JOIN change_requests cr
           ON $2::varchar IS NOT NULL AND cr.space_id = $1
          AND CASE WHEN $3::int IS NULL THEN cr.id = $2 ELSE cr.number = $3::int END
         LEFT JOIN comments c
           ON c.id = $4 AND c.space_id = $1 AND c.change_request_id IS NOT DISTINCT FROM cr.id
         LEFT JOIN comment_replies rp
           ON $5::varchar IS NOT NULL AND rp.id = $5 AND rp.comment_id = c.id`,
      [ref.spaceId, ref.changeRequest ?? null, number, ref.commentId, ref.replyId ?? null],
    );
    return rows[0];
  }
}
