import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Member } from '../orgs/entities/member.entity';
import { MEMBER_TEAMS_COUNT_SQL, memberSpacesCountSql } from '../orgs/members/members.service';
import { paginate } from '../platform/pagination/keyset';
import { Page } from '../platform/pagination/page';
import type { PageQueryDto } from '../platform/pagination/page-query.dto';
import { type CommenterRecord, inThread, type ThreadRef } from './comment-thread';
import { CommentThreadsService } from './comment-threads.service';

const TEAMS_COUNT_ALIAS = 'member_teams';
const SPACES_COUNT_ALIAS = 'member_spaces';
const LAST_ACTIVITY_ALIAS = 'last_activity_at';

/** Who commented or replied in a thread. */
@Injectable()
export class CommentersService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly threads: CommentThreadsService,
  ) {}

  /**
   * The organization's members who commented or replied in the thread, latest activity first
   * (users who are no longer members are left out).
   */
  async list(ref: ThreadRef, userId: string, query: PageQueryDto): Promise<Page<CommenterRecord>> {
    const thread = await this.threads.resolve(ref, userId);
    const own = inThread(thread);
    const activity = `(SELECT x.user_id, MAX(x.at) AS ${LAST_ACTIVITY_ALIAS} FROM (
        SELECT c.author_id AS user_id, c.posted_at AS at FROM comments c WHERE ${own.sql}
        UNION ALL
        SELECT r.author_id, r.posted_at FROM comment_replies r
          JOIN comments c ON c.id = r.comment_id WHERE ${own.sql}
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
        ...own.params,
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
}
