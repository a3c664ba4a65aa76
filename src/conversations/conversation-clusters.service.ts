import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../platform/clock/clock';
import { DomainError } from '../platform/errors/domain-error';
import type { Page } from '../platform/pagination/page';
import { ConversationIssuesRepository } from './conversation-issues.repository';
import type { ListClustersQueryDto } from './dto/conversation-queries.dto';
import { ConversationIssuesCluster } from './entities/conversation-issues-cluster.entity';
import { pulseOf, pulseWindow } from './weekly-pulse';

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

/** Reading clusters, with their weekly pulse counted at the Clock's present. */
@Injectable()
export class ConversationClustersService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly issues: ConversationIssuesRepository,
    private readonly clock: Clock,
  ) {}

  async list(organizationId: string, query: ListClustersQueryDto): Promise<Page<ClusterWithPulse>> {
    const page = await this.issues.pageClusters(organizationId, query);
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
    const rows = await this.issues.weeklyCounts(clusterIds, start, end);
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
