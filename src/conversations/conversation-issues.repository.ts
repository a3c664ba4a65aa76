import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { countRows, type KeysetKey, paginate } from '../platform/pagination/keyset';
import type { Page } from '../platform/pagination/page';
import type {
  ClusterOrderBy,
  ListClustersQueryDto,
  ListConversationIssuesQueryDto,
} from './dto/conversation-queries.dto';
import { ConversationIssue, type TermCounts } from './entities/conversation-issue.entity';
import { ConversationIssuesCluster } from './entities/conversation-issues-cluster.entity';
import { weekIndexSql } from './weekly-pulse';

/** Rows per multi-row insert. */
const INSERT_CHUNK = 200;

const CLUSTER_ORDER_KEYS: Record<ClusterOrderBy, KeysetKey<ConversationIssuesCluster>[]> = {
  updatedAt: [{ sql: 'cluster.updated_at', of: (c) => c.updatedAt }],
  issues: [{ sql: 'cluster.issues', of: (c) => c.issues }],
  conversations: [{ sql: 'cluster.conversations', of: (c) => c.conversations }],
  // No agent tasks in Bindery: every count is 0, so the id alone orders them.
  tasksTotal: [],
  tasksBacklog: [],
  tasksStarted: [],
};

/** An issue an analysis extracted, as it is inserted. */
export interface NewConversationIssue {
  id: string;
  conversationId: string;
  clusterId: string | null;
  title: string;
  summary: string;
  terms: TermCounts;
  /** Its embedding and the model that made it, when embeddings are configured and answered. */
  embedding: number[] | null;
  embeddingModel: string | null;
  createdAt: Date;
  ingestedAt: Date;
}

/** A stored issue as the analysis reads it, with its conversation's source and external id. */
export interface StoredIssueRow {
  id: string;
  conversation_id: string;
  cluster_id: string | null;
  title: string;
  summary: string;
  terms: TermCounts;
  /** float4[]: numbers from node-postgres, possibly the array literal from other drivers. */
  embedding: number[] | string | null;
  embedding_model: string | null;
  created_at: Date;
  ingested_at: Date;
  source: string;
  external_id: string;
}

/** Issues of a cluster created in one week of the pulse (0 = its oldest). */
export interface ClusterWeekCountRow {
  cluster_id: string;
  week: number;
  count: string | number;
}

/** What describes a cluster. */
export interface ClusterDescription {
  label: string;
  summary: string;
  icon: string;
}

/**
 * The `conversation_issues` and `conversation_issue_clusters` tables: the issues that analyses
 * extract from conversations, and the clusters of similar issues with their counts.
 */
@Injectable()
export class ConversationIssuesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A page of the organization's issues (filtered by cluster, conversation), with their conversation, newest first. */
  pageIssues(
    organizationId: string,
    query: ListConversationIssuesQueryDto,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Page<ConversationIssue>> {
    // The filters are on issues alone, and every issue has its conversation (a foreign key), so
    // the count needs no join.
    const filtered = manager
      .getRepository(ConversationIssue)
      .createQueryBuilder('issue')
      .where('issue.organization_id = :organizationId', { organizationId });
    if (query.cluster !== undefined) {
      filtered.andWhere('issue.cluster_id = :cluster', { cluster: query.cluster });
    }
    if (query.conversation !== undefined) {
      filtered.andWhere('issue.conversation_id = :conversation', {
        conversation: query.conversation,
      });
    }
    const rows = filtered.clone().innerJoinAndSelect('issue.conversation', 'conversation');
    return paginate(rows, query, {
      keys: [
        { sql: 'issue.created_at', of: (issue) => issue.createdAt },
        { sql: 'issue.id', of: (issue) => issue.id },
      ],
      direction: 'DESC',
      count: () => countRows(filtered),
    });
  }

  /** The organization's issue with its conversation; null if none. */
  findIssue(
    organizationId: string,
    issueId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<ConversationIssue | null> {
    return manager
      .getRepository(ConversationIssue)
      .createQueryBuilder('issue')
      .innerJoinAndSelect('issue.conversation', 'conversation')
      .where('issue.organization_id = :organizationId AND issue.id = :issueId', {
        organizationId,
        issueId,
      })
      .getOne();
  }

  /** A page of the organization's clusters, in the order the query asks (then by id). */
  pageClusters(
    organizationId: string,
    query: ListClustersQueryDto,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Page<ConversationIssuesCluster>> {
    const builder = manager
      .getRepository(ConversationIssuesCluster)
      .createQueryBuilder('cluster')
      .where('cluster.organization_id = :organizationId', { organizationId });
    // Clusters are written once analysed: none is ever `pending` or `analysing`.
    if (query.status !== undefined) builder.andWhere('FALSE');
    return paginate(builder, query, {
      keys: [
        ...CLUSTER_ORDER_KEYS[query.orderBy ?? 'updatedAt'],
        { sql: 'cluster.id', of: (c) => c.id },
      ],
      direction: query.order === 'asc' ? 'ASC' : 'DESC',
    });
  }

  /** Issues per cluster and week created in [start, end), weeks counted from `start`. */
  weeklyCounts(
    clusterIds: string[],
    start: Date,
    end: Date,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<ClusterWeekCountRow[]> {
    return manager.query(
      `SELECT cluster_id, ${weekIndexSql('created_at', '$2')} AS week, count(*) AS count
         FROM conversation_issues
        WHERE cluster_id = ANY($1) AND created_at >= $2 AND created_at < $3
        GROUP BY 1, 2`,
      [clusterIds, start, end],
    );
  }

  /** The organization's issues, except those of the conversations `exclude`. */
  findStoredExcept(
    organizationId: string,
    exclude: string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<StoredIssueRow[]> {
    return manager.query(
      `SELECT i.id, i.conversation_id, i.cluster_id, i.title, i.summary, i.terms, i.embedding,
              i.embedding_model, i.created_at, i.ingested_at, c.source, c.external_id
         FROM conversation_issues i JOIN conversations c ON c.id = i.conversation_id
        WHERE i.organization_id = $1 AND NOT (i.conversation_id = ANY($2))`,
      [organizationId, exclude],
    );
  }

  /** The clusters holding issues of these conversations. */
  async clusterIdsOfConversations(
    conversationIds: string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<string[]> {
    const rows: { cluster_id: string }[] = await manager.query(
      `SELECT DISTINCT cluster_id FROM conversation_issues
        WHERE conversation_id = ANY($1) AND cluster_id IS NOT NULL`,
      [conversationIds],
    );
    return rows.map((row) => row.cluster_id);
  }

  /** Deletes the issues of these conversations. */
  async deleteOfConversations(
    conversationIds: string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(`DELETE FROM conversation_issues WHERE conversation_id = ANY($1)`, [
      conversationIds,
    ]);
  }

  /** Inserts the issues of the organization, in multi-row statements. */
  async insertIssues(
    organizationId: string,
    issues: NewConversationIssue[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    for (let i = 0; i < issues.length; i += INSERT_CHUNK) {
      const chunk = issues.slice(i, i + INSERT_CHUNK);
      const values = chunk
        .map((_, r) => {
          const p = (c: number) => `$${r * 11 + c + 1}`;
          return `(${p(0)}, ${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}::jsonb, ${p(7)}::real[], ${p(8)}, ${p(9)}::timestamptz, ${p(10)}::timestamptz)`;
        })
        .join(', ');
      await manager.query(
        `INSERT INTO conversation_issues
           (id, organization_id, conversation_id, cluster_id, title, summary, terms, embedding,
            embedding_model, created_at, ingested_at)
         VALUES ${values}`,
        chunk.flatMap((issue) => [
          issue.id,
          organizationId,
          issue.conversationId,
          issue.clusterId,
          issue.title,
          issue.summary,
          JSON.stringify(issue.terms),
          issue.embedding,
          issue.embeddingModel,
          issue.createdAt,
          issue.ingestedAt,
        ]),
      );
    }
  }

  /** Records the embeddings made for stored issues, each with its model. */
  async storeEmbeddings(
    issues: { id: string; embedding: number[]; embeddingModel: string }[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    for (const issue of issues) {
      await manager.query(
        `UPDATE conversation_issues SET embedding = $2::real[], embedding_model = $3 WHERE id = $1`,
        [issue.id, issue.embedding, issue.embeddingModel],
      );
    }
  }

  /** Moves the issues `issueIds` into the cluster (null: out of any). */
  async moveIssues(
    clusterId: string | null,
    issueIds: string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(`UPDATE conversation_issues SET cluster_id = $1 WHERE id = ANY($2)`, [
      clusterId,
      issueIds,
    ]);
  }

  /** Inserts a cluster of the organization, created and updated at `now`, with no counts yet. */
  async insertCluster(
    clusterId: string,
    organizationId: string,
    description: ClusterDescription,
    now: Date,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(
      `INSERT INTO conversation_issue_clusters
         (id, organization_id, label, summary, icon, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $6)`,
      [clusterId, organizationId, description.label, description.summary, description.icon, now],
    );
  }

  /** Replaces the cluster's label, summary and icon, updated at `now`. */
  async describeCluster(
    clusterId: string,
    description: ClusterDescription,
    now: Date,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(
      `UPDATE conversation_issue_clusters
          SET label = $2, summary = $3, icon = $4, updated_at = $5
        WHERE id = $1`,
      [clusterId, description.label, description.summary, description.icon, now],
    );
  }

  /** Counts the clusters' issues, conversations and issues per source again. */
  async recountClusters(
    clusterIds: string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(
      `UPDATE conversation_issue_clusters k
          SET issues = s.issues, conversations = s.conversations, sources = s.sources
         FROM (SELECT cluster_id, sum(n)::int AS issues, sum(cv)::int AS conversations,
                      jsonb_object_agg(source, n) AS sources
                 FROM (SELECT i.cluster_id, c.source, count(*)::int AS n,
                              count(DISTINCT i.conversation_id)::int AS cv
                         FROM conversation_issues i
                         JOIN conversations c ON c.id = i.conversation_id
                        WHERE i.cluster_id = ANY($1)
                        GROUP BY i.cluster_id, c.source) g
                GROUP BY cluster_id) s
        WHERE k.id = s.cluster_id`,
      [clusterIds],
    );
  }

  /** Deletes those of the clusters that hold no issue. */
  async deleteEmptyClusters(
    clusterIds: string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(
      `DELETE FROM conversation_issue_clusters k
        WHERE k.id = ANY($1)
          AND NOT EXISTS (SELECT 1 FROM conversation_issues i WHERE i.cluster_id = k.id)`,
      [clusterIds],
    );
  }
}
