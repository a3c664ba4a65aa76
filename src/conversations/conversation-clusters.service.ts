import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../platform/clock/clock';
import { DomainError } from '../platform/errors/domain-error';
import { type KeysetKey, paginate } from '../platform/pagination/keyset';
import type { Page } from '../platform/pagination/page';
import type { ClusterOrderBy, ListClustersQueryDto } from './dto/conversation-queries.dto';
import { ConversationIssuesCluster } from './entities/conversation-issues-cluster.entity';
import { pulseOf, pulseWindow, weekIndexSql } from './weekly-pulse';

export const clusterNotFound = () =>
  new DomainError(
    'not_found',
    'ConversationsIssuesClusterNotFound',
    'Conversations issues cluster not found.',
  );

export interface ClusterWithPulse {
  cluster: ConversationIssuesCluster;
  weeklyPulse: number[];
}

const ORDER_KEYS: Record<ClusterOrderBy, KeysetKey<ConversationIssuesCluster>[]> = {
  updatedAt: [{ sql: 'cluster.updated_at', of: (c) => c.updatedAt }],
  issues: [{ sql: 'cluster.issues', of: (c) => c.issues }],
  conversations: [{ sql: 'cluster.conversations', of: (c) => c.conversations }],
  // No agent tasks in Bindery: every count is 0, so the id alone orders them.
  tasksTotal: [],
  tasksBacklog: [],
  tasksStarted: [],
};

/** Reading clusters, with their weekly pulse counted at the Clock's present. */
@Injectable()
export class ConversationClustersService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async list(organizationId: string, query: ListClustersQueryDto): Promise<Page<ClusterWithPulse>> {
    const builder = this.dataSource
      .getRepository(ConversationIssuesCluster)
      .createQueryBuilder('cluster')
      .where('cluster.organization_id = :organizationId', { organizationId });
    // Clusters are written once analysed: none is ever `pending` or `analysing`.
    if (query.status !== undefined) builder.andWhere('FALSE');
    const page = await paginate(builder, query, {
      keys: [...ORDER_KEYS[query.orderBy ?? 'updatedAt'], { sql: 'cluster.id', of: (c) => c.id }],
      direction: query.order === 'asc' ? 'ASC' : 'DESC',
    });
    const pulses = await this.pulses(page.items.map((cluster) => cluster.id));
    return {
      ...page,
      items: page.items.map((cluster) => ({ cluster, weeklyPulse: pulses.get(cluster.id)! })),
    };
  }

  async get(organizationId: string, clusterId: string): Promise<ClusterWithPulse> {
    const cluster = await this.dataSource
      .getRepository(ConversationIssuesCluster)
      .findOneBy({ organizationId, id: clusterId });
    if (!cluster) throw clusterNotFound();
    const pulses = await this.pulses([cluster.id]);
    return { cluster, weeklyPulse: pulses.get(cluster.id)! };
  }

  /** Weekly issue counts of the clusters, in one query over the cluster index. */
  private async pulses(clusterIds: string[]): Promise<Map<string, number[]>> {
    const result = new Map<string, number[]>();
    if (clusterIds.length === 0) return result;
    const { start, end } = pulseWindow(this.clock.now());
    const rows: { cluster_id: string; week: number; count: string | number }[] =
      await this.dataSource.query(
        `SELECT cluster_id, ${weekIndexSql('created_at', '$2')} AS week, count(*) AS count
           FROM conversation_issues
          WHERE cluster_id = ANY($1) AND created_at >= $2 AND created_at < $3
          GROUP BY 1, 2`,
        [clusterIds, start, end],
      );
    const byCluster = new Map<string, { week: number; count: number }[]>();
    for (const row of rows) {
      const list = byCluster.get(row.cluster_id) ?? [];
      list.push({ week: Number(row.week), count: Number(row.count) });
      byCluster.set(row.cluster_id, list);
    }
    for (const id of clusterIds) result.set(id, pulseOf(byCluster.get(id) ?? []));
    return result;
  }
}
