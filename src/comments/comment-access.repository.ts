import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { preparedQuery } from '../platform/database/prepared-query';

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

/**
 * Reads the `comments` and `comment_replies` tables for access decisions, with the change
 * request (`change_requests`, owned by change-requests) whose thread a route names: the chain
 * from the space down to the item in one statement.
 */
@Injectable()
export class CommentAccessRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The route's change request (by id, or by number when all digits) in the space, the comment
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
