import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../platform/clock/clock';
import { newId } from '../../platform/ids/ids';
import { JobsService } from '../../platform/jobs/jobs.service';
import type { ConversationPart } from '../entities/conversation.entity';
import type { TermCounts } from '../entities/conversation-issue.entity';
import { AiAnalysis } from './ai-analysis';
import { describeCluster } from './cluster-description';
import { clusterIssues, type ClusterMembers } from './clustering';
import { extractIssues } from './issue-extraction';
import { termCounts } from './text-terms';

/** One job per organization with conversations to analyse (`{organizationId}`). */
export const CONVERSATIONS_ANALYSIS_QUEUE = 'conversations-analysis';

/** The queue of the sweep that finds analyses lost on the way (a failed queueing, a job out of retries). */
export const CONVERSATIONS_SWEEP_QUEUE = 'conversations-analysis-sweep';
export const CONVERSATIONS_SWEEP_CRON = '*/5 * * * *';
/** Unprocessed this long after its last ingestion, a conversation's analysis was lost. */
export const CONVERSATIONS_LOST_AFTER_MS = 15 * 60 * 1000;
const SWEPT_ORGANIZATIONS = 100;

/** Conversations analysed per batch, and batches per job (a longer backlog queues another). */
const BATCH = 200;
const ROUNDS_PER_JOB = 10;
/** Rows per multi-row insert. */
const INSERT_CHUNK = 200;

export interface AnalysisJob {
  organizationId: string;
}

interface PendingConversation {
  id: string;
  source: string;
  externalId: string;
  subject: string | null;
  parts: ConversationPart[];
  revision: number;
  createdAt: Date;
  ingestedAt: Date;
}

/** An issue as the clustering sees it: stored or just extracted. */
interface AnalysedIssue {
  id: string;
  conversationId: string;
  clusterId: string | null;
  title: string;
  summary: string;
  terms: TermCounts;
  createdAt: Date;
  ingestedAt: Date;
  /** Orders issues the same way on every run: by time, then by what the source calls them. */
  sortKey: string;
  isNew: boolean;
}

/**
 * The analysis of new conversations, in the background: issues are extracted from each
 * conversation (AI when configured, else rules), then placed into the organization's clusters
 * (see clusterIssues), and the clusters' counts, labels and icons are brought up to date.
 *
 * One job per organization at a time: the queue is `stately` and keyed by organization, so
 * pg-boss runs at most one per organization and keeps at most one more queued (which picks up
 * whatever arrived meanwhile). Extraction and AI calls happen outside any transaction; the
 * outcome is written in one, which first checks that no analysed conversation changed since it
 * was read (otherwise nothing is written and the batch is read again).
 */
@Injectable()
export class ConversationAnalysis implements OnModuleInit {
  private readonly logger = new Logger('ConversationAnalysis');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly jobs: JobsService,
    private readonly clock: Clock,
    private readonly ai: AiAnalysis,
  ) {}

  onModuleInit(): void {
    this.jobs.define<AnalysisJob>(
      CONVERSATIONS_ANALYSIS_QUEUE,
      ({ organizationId }) => this.analyse(organizationId),
      { policy: 'stately' },
    );
    this.jobs.define(
      CONVERSATIONS_SWEEP_QUEUE,
      async () => {
        await this.sweep();
      },
      { policy: 'singleton' },
    );
    this.jobs.schedule(CONVERSATIONS_SWEEP_QUEUE, CONVERSATIONS_SWEEP_CRON);
  }

  /** Queues the analysis of organizations whose conversations wait for too long; answers them. */
  async sweep(): Promise<string[]> {
    const before = new Date(this.clock.now().getTime() - CONVERSATIONS_LOST_AFTER_MS);
    const rows: { organization_id: string }[] = await this.dataSource.query(
      `SELECT DISTINCT organization_id FROM conversations
        WHERE processed_at IS NULL AND updated_at <= $1
        LIMIT $2`,
      [before, SWEPT_ORGANIZATIONS],
    );
    for (const row of rows) await this.enqueue(row.organization_id);
    return rows.map((row) => row.organization_id);
  }

  /**
   * Queues the analysis of the organization. When one is already queued, that one will see the
   * new conversations: nothing more to do. Other failures are logged (the conversations stay
   * unprocessed and the next ingestion queues again).
   */
  async enqueue(organizationId: string): Promise<void> {
    try {
      await this.jobs.send<AnalysisJob>(
        CONVERSATIONS_ANALYSIS_QUEUE,
        { organizationId },
        { singletonKey: organizationId },
      );
    } catch (error) {
      if ((error as Error).message.includes('singleton')) return;
      this.logger.error({ err: error, organizationId }, 'Could not queue a conversation analysis');
    }
  }

  /** Analyses the organization's unprocessed conversations, oldest first. */
  async analyse(organizationId: string): Promise<void> {
    for (let round = 0; round < ROUNDS_PER_JOB; round++) {
      const batch = await this.unprocessed(organizationId);
      if (batch.length === 0) return;
      await this.analyseBatch(organizationId, batch);
    }
    if ((await this.unprocessed(organizationId)).length > 0) {
      // The job is active, so this queues the next one rather than being refused.
      await this.enqueue(organizationId);
    }
  }

  private async unprocessed(organizationId: string): Promise<PendingConversation[]> {
    const rows: {
      id: string;
      source: string;
      external_id: string;
      subject: string | null;
      parts: ConversationPart[];
      analysis_revision: number;
      created_at: Date;
      ingested_at: Date;
    }[] = await this.dataSource.query(
      `SELECT id, source, external_id, subject, parts, analysis_revision, created_at, ingested_at
         FROM conversations
        WHERE organization_id = $1 AND processed_at IS NULL
        ORDER BY created_at, id
        LIMIT $2`,
      [organizationId, BATCH],
    );
    return rows.map((row) => ({
      id: row.id,
      source: row.source,
      externalId: row.external_id,
      subject: row.subject,
      parts: row.parts,
      revision: row.analysis_revision,
      createdAt: new Date(row.created_at),
      ingestedAt: new Date(row.ingested_at),
    }));
  }

  private async analyseBatch(organizationId: string, batch: PendingConversation[]): Promise<void> {
    const fresh: AnalysedIssue[] = [];
    for (const conversation of batch) {
      const extracted = (await this.ai.extractIssues(conversation)) ?? extractIssues(conversation);
      extracted.forEach((issue, position) =>
        fresh.push({
          id: newId(),
          conversationId: conversation.id,
          clusterId: null,
          title: issue.title,
          summary: issue.summary,
          terms: termCounts(`${issue.title} ${issue.summary} ${conversation.subject ?? ''}`),
          createdAt: conversation.createdAt,
          ingestedAt: conversation.ingestedAt,
          sortKey: sortKey(
            conversation.createdAt,
            conversation.source,
            conversation.externalId,
            position,
          ),
          isNew: true,
        }),
      );
    }
    const batchIds = batch.map((conversation) => conversation.id);
    const stored = await this.storedIssues(organizationId, batchIds);
    const shrunk = await this.clustersOf(batchIds);

    const byCluster = new Map<string, AnalysedIssue[]>();
    for (const issue of stored) {
      if (issue.clusterId === null) continue;
      const members = byCluster.get(issue.clusterId) ?? [];
      members.push(issue);
      byCluster.set(issue.clusterId, members);
    }
    const clusters: ClusterMembers[] = [...byCluster]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([id, issues]) => ({ id, issues }));
    const unclustered = [...stored.filter((issue) => issue.clusterId === null), ...fresh].sort(
      (a, b) => a.sortKey.localeCompare(b.sortKey),
    );
    const { joined, created } = clusterIssues(clusters, unclustered);

    const issuesById = new Map(unclustered.map((issue) => [issue.id, issue]));
    const touched = new Set<string>(shrunk);
    for (const [issueId, clusterId] of joined) {
      issuesById.get(issueId)!.clusterId = clusterId;
      byCluster.get(clusterId)!.push(issuesById.get(issueId)!);
      touched.add(clusterId);
    }
    const newClusters = new Set<string>();
    for (const group of created) {
      const clusterId = newId();
      newClusters.add(clusterId);
      touched.add(clusterId);
      byCluster.set(
        clusterId,
        group.map((issueId) => {
          const issue = issuesById.get(issueId)!;
          issue.clusterId = clusterId;
          return issue;
        }),
      );
    }

    const descriptions = new Map<string, { label: string; summary: string; icon: string }>();
    for (const clusterId of touched) {
      const members = byCluster.get(clusterId);
      if (!members || members.length === 0) continue;
      members.sort((a, b) => a.sortKey.localeCompare(b.sortKey));
      const conversations = new Set(members.map((issue) => issue.conversationId)).size;
      const description = describeCluster(members, conversations);
      const better = await this.ai.describeCluster(members.map((issue) => issue.title));
      descriptions.set(clusterId, { ...description, ...(better ?? {}) });
    }

    const moved = unclustered.filter((issue) => !issue.isNew && issue.clusterId !== null);
    await this.dataSource.transaction(async (manager) => {
      if (!(await this.unchanged(manager, batch))) return;
      const now = this.clock.now();
      await manager.query(`DELETE FROM conversation_issues WHERE conversation_id = ANY($1)`, [
        batchIds,
      ]);
      for (const clusterId of newClusters) {
        const description = descriptions.get(clusterId)!;
        await manager.query(
          `INSERT INTO conversation_issue_clusters
             (id, organization_id, label, summary, icon, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $6)`,
          [
            clusterId,
            organizationId,
            description.label,
            description.summary,
            description.icon,
            now,
          ],
        );
      }
      await this.insertIssues(manager, organizationId, fresh);
      for (const clusterId of new Set(moved.map((issue) => issue.clusterId!))) {
        await manager.query(`UPDATE conversation_issues SET cluster_id = $1 WHERE id = ANY($2)`, [
          clusterId,
          moved.filter((issue) => issue.clusterId === clusterId).map((issue) => issue.id),
        ]);
      }
      for (const [clusterId, description] of descriptions) {
        if (newClusters.has(clusterId)) continue;
        await manager.query(
          `UPDATE conversation_issue_clusters
              SET label = $2, summary = $3, icon = $4, updated_at = $5
            WHERE id = $1`,
          [clusterId, description.label, description.summary, description.icon, now],
        );
      }
      await this.recount(manager, [...touched]);
      await manager.query(`UPDATE conversations SET processed_at = $2 WHERE id = ANY($1)`, [
        batchIds,
        now,
      ]);
    });
  }

  /** Locks the batch's conversations and checks none changed since read. */
  private async unchanged(manager: EntityManager, batch: PendingConversation[]): Promise<boolean> {
    const rows: { id: string; analysis_revision: number }[] = await manager.query(
      `SELECT id, analysis_revision FROM conversations WHERE id = ANY($1) ORDER BY id FOR UPDATE`,
      [batch.map((conversation) => conversation.id)],
    );
    const revisions = new Map(rows.map((row) => [row.id, row.analysis_revision]));
    return batch.every((conversation) => revisions.get(conversation.id) === conversation.revision);
  }

  /** The organization's issues, except those of the conversations being analysed again. */
  private async storedIssues(organizationId: string, exclude: string[]): Promise<AnalysedIssue[]> {
    const rows: {
      id: string;
      conversation_id: string;
      cluster_id: string | null;
      title: string;
      summary: string;
      terms: TermCounts;
      created_at: Date;
      ingested_at: Date;
      source: string;
      external_id: string;
    }[] = await this.dataSource.query(
      `SELECT i.id, i.conversation_id, i.cluster_id, i.title, i.summary, i.terms, i.created_at,
              i.ingested_at, c.source, c.external_id
         FROM conversation_issues i JOIN conversations c ON c.id = i.conversation_id
        WHERE i.organization_id = $1 AND NOT (i.conversation_id = ANY($2))`,
      [organizationId, exclude],
    );
    return rows.map((row) => {
      const createdAt = new Date(row.created_at);
      return {
        id: row.id,
        conversationId: row.conversation_id,
        clusterId: row.cluster_id,
        title: row.title,
        summary: row.summary,
        terms: row.terms,
        createdAt,
        ingestedAt: new Date(row.ingested_at),
        sortKey: sortKey(createdAt, row.source, row.external_id, row.id),
        isNew: false,
      };
    });
  }

  /** Clusters holding issues of these conversations (they lose them when analysed again). */
  private async clustersOf(conversationIds: string[]): Promise<string[]> {
    const rows: { cluster_id: string }[] = await this.dataSource.query(
      `SELECT DISTINCT cluster_id FROM conversation_issues
        WHERE conversation_id = ANY($1) AND cluster_id IS NOT NULL`,
      [conversationIds],
    );
    return rows.map((row) => row.cluster_id);
  }

  private async insertIssues(
    manager: EntityManager,
    organizationId: string,
    issues: AnalysedIssue[],
  ): Promise<void> {
    for (let i = 0; i < issues.length; i += INSERT_CHUNK) {
      const chunk = issues.slice(i, i + INSERT_CHUNK);
      const values = chunk
        .map((_, r) => {
          const p = (c: number) => `$${r * 9 + c + 1}`;
          return `(${p(0)}, ${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}::jsonb, ${p(7)}::timestamptz, ${p(8)}::timestamptz)`;
        })
        .join(', ');
      await manager.query(
        `INSERT INTO conversation_issues
           (id, organization_id, conversation_id, cluster_id, title, summary, terms, created_at,
            ingested_at)
         VALUES ${values}`,
        chunk.flatMap((issue) => [
          issue.id,
          organizationId,
          issue.conversationId,
          issue.clusterId,
          issue.title,
          issue.summary,
          JSON.stringify(issue.terms),
          issue.createdAt,
          issue.ingestedAt,
        ]),
      );
    }
  }

  /** Counts issues, conversations and sources of the clusters; removes those left empty. */
  private async recount(manager: EntityManager, clusterIds: string[]): Promise<void> {
    if (clusterIds.length === 0) return;
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
    await manager.query(
      `DELETE FROM conversation_issue_clusters k
        WHERE k.id = ANY($1)
          AND NOT EXISTS (SELECT 1 FROM conversation_issues i WHERE i.cluster_id = k.id)`,
      [clusterIds],
    );
  }
}

function sortKey(createdAt: Date, source: string, externalId: string, position: number | string) {
  return `${createdAt.toISOString()}\u0000${source}\u0000${externalId}\u0000${String(position).padStart(4, '0')}`;
}
