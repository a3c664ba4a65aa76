import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../platform/clock/clock';
import { newId } from '../../platform/ids/ids';
import { JobsService } from '../../platform/jobs/jobs.service';
import type { ConversationPart } from '../entities/conversation.entity';
import {
  type ClusterDescription,
  ConversationIssuesRepository,
  type NewConversationIssue,
} from '../conversation-issues.repository';
import { ConversationsRepository } from '../conversations.repository';
import { AiAnalysis } from './ai-analysis';
import { describeCluster } from './cluster-description';
import {
  EMBEDDING_MAX_ISSUES,
  EMBEDDING_THRESHOLD,
  keepClusterIds,
  partition,
  TFIDF_THRESHOLD,
  tfIdfItems,
  unitVector,
} from './clustering';
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
interface AnalysedIssue extends NewConversationIssue {
  /** Orders issues the same way on every run (see sortKey). */
  sortKey: string;
  isNew: boolean;
}

/** Where a batch's issues go: the clusters as they will be, and what changed. */
interface Placement {
  /** Each cluster's issues once recorded, new clusters included. */
  byCluster: Map<string, AnalysedIssue[]>;
  /** Clusters that gained or lost issues (to describe and count again). */
  touched: Set<string>;
  /** Clusters to create. */
  newClusters: Set<string>;
  /** Stored issues whose cluster changed (to another one or to none). */
  moved: AnalysedIssue[];
  /** Stored issues embedded by this analysis (their vectors to record). */
  embedded: AnalysedIssue[];
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
    private readonly conversations: ConversationsRepository,
    private readonly issues: ConversationIssuesRepository,
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
    const organizationIds = await this.conversations.organizationsWaitingSince(
      before,
      SWEPT_ORGANIZATIONS,
    );
    for (const organizationId of organizationIds) await this.enqueue(organizationId);
    return organizationIds;
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
    const rows = await this.conversations.findUnprocessed(organizationId, BATCH);
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

  /**
   * Extracts the batch's issues, places them (and the stored ones left out) into clusters,
   * describes the clusters that changed, and records it all.
   */
  private async analyseBatch(organizationId: string, batch: PendingConversation[]): Promise<void> {
    const fresh = await this.extract(batch);
    const placement = await this.place(organizationId, batch, fresh);
    const descriptions = await this.describe(placement);
    await this.record(organizationId, batch, fresh, placement, descriptions);
  }

  /** The issues of the batch's conversations (AI when it answers, else rules), not yet clustered. */
  private async extract(batch: PendingConversation[]): Promise<AnalysedIssue[]> {
    const fresh: AnalysedIssue[] = [];
    for (const conversation of batch) {
      const extracted = (await this.ai.extractIssues(conversation)) ?? extractIssues(conversation);
      extracted.forEach((issue) =>
        fresh.push({
          id: newId(),
          conversationId: conversation.id,
          clusterId: null,
          title: issue.title,
          summary: issue.summary,
          terms: termCounts(`${issue.title} ${issue.summary} ${conversation.subject ?? ''}`),
          embedding: null,
          embeddingModel: null,
          createdAt: conversation.createdAt,
          ingestedAt: conversation.ingestedAt,
          sortKey: sortKey(
            conversation.source,
            conversation.externalId,
            issue.title,
            issue.summary,
          ),
          isNew: true,
        }),
      );
    }
    return fresh;
  }

  /**
   * Clusters the organization's issues again, the stored ones (but those of the batch's
   * conversations) and the fresh ones together (see partition): the partition depends only on
   * that set, never on the order or batches it arrived in. Cluster ids are kept from the
   * previous partition by overlap (see keepClusterIds); `fresh` and the stored issues get their
   * `clusterId`, stored issues whose cluster changed are `moved`.
   */
  private async place(
    organizationId: string,
    batch: PendingConversation[],
    fresh: AnalysedIssue[],
  ): Promise<Placement> {
    const batchIds = batch.map((conversation) => conversation.id);
    const stored = await this.storedIssues(organizationId, batchIds);
    const shrunk = await this.issues.clusterIdsOfConversations(batchIds);
    const all = [...stored, ...fresh];
    const previous = new Map(stored.map((issue) => [issue.id, issue.clusterId]));

    const embedded = await this.embedMissing(all);
    const groups = this.usesEmbeddings(all)
      ? partition(
          all.map((issue) => ({
            id: issue.id,
            key: issue.sortKey,
            vector: unitVector(issue.embedding!),
          })),
          EMBEDDING_THRESHOLD,
        )
      : partition(
          tfIdfItems(
            all.map((issue) => ({ id: issue.id, key: issue.sortKey, terms: issue.terms })),
          ),
          TFIDF_THRESHOLD,
        );
    const kept = keepClusterIds(groups, previous);

    const issuesById = new Map(all.map((issue) => [issue.id, issue]));
    const byCluster = new Map<string, AnalysedIssue[]>();
    const newClusters = new Set<string>();
    for (const issue of all) issue.clusterId = null;
    groups.forEach((group, index) => {
      const clusterId = kept[index] ?? newId();
      if (kept[index] === undefined) newClusters.add(clusterId);
      byCluster.set(
        clusterId,
        group.map((issueId) => {
          const issue = issuesById.get(issueId)!;
          issue.clusterId = clusterId;
          return issue;
        }),
      );
    });

    // Touched: clusters that gained or lost an issue (new ones, emptied ones, shrunk ones).
    const touched = new Set<string>(shrunk);
    const moved: AnalysedIssue[] = [];
    for (const issue of all) {
      const before = issue.isNew ? null : previous.get(issue.id)!;
      if (!issue.isNew && before === issue.clusterId) continue;
      if (before) touched.add(before);
      if (issue.clusterId) touched.add(issue.clusterId);
      if (!issue.isNew) moved.push(issue);
    }
    return { byCluster, touched, newClusters, moved, embedded };
  }

  /**
   * Embeds the issues that have no vector of the configured model yet (new ones, and stored ones
   * from before the model was set or changed), when embeddings will cluster them (see
   * usesEmbeddings). When the endpoint fails they stay without one: this analysis clusters by
   * TF-IDF and the next one asks again. Answers the stored issues embedded.
   */
  private async embedMissing(all: AnalysedIssue[]): Promise<AnalysedIssue[]> {
    const model = this.ai.embeddingModel;
    if (model === undefined || all.length > EMBEDDING_MAX_ISSUES) return [];
    const missing = all.filter((issue) => !issue.embedding || issue.embeddingModel !== model);
    const vectors = await this.ai.embed(missing.map((issue) => `${issue.title}\n${issue.summary}`));
    if (!vectors) return [];
    missing.forEach((issue, k) => {
      issue.embedding = vectors[k];
      issue.embeddingModel = model;
    });
    return missing.filter((issue) => !issue.isNew);
  }

  /**
   * Whether embeddings cluster these issues: an embedding model is configured, there are at most
   * EMBEDDING_MAX_ISSUES, and every one has a vector of that model (all of one length). Otherwise
   * all of them are clustered by TF-IDF: the partition never mixes the two measures.
   */
  private usesEmbeddings(all: AnalysedIssue[]): boolean {
    const model = this.ai.embeddingModel;
    if (model === undefined || all.length === 0 || all.length > EMBEDDING_MAX_ISSUES) return false;
    const dimensions = all[0].embedding?.length;
    return all.every(
      (issue) => issue.embeddingModel === model && issue.embedding?.length === dimensions,
    );
  }

  /** A label, summary and icon for each touched cluster that still has issues. */
  private async describe(placement: Placement): Promise<Map<string, ClusterDescription>> {
    const descriptions = new Map<string, ClusterDescription>();
    for (const clusterId of placement.touched) {
      const members = placement.byCluster.get(clusterId);
      if (!members || members.length === 0) continue;
      members.sort((a, b) => a.sortKey.localeCompare(b.sortKey));
      const conversations = new Set(members.map((issue) => issue.conversationId)).size;
      const description = describeCluster(members, conversations);
      const better = await this.ai.describeCluster(members.map((issue) => issue.title));
      descriptions.set(clusterId, { ...description, ...(better ?? {}) });
    }
    return descriptions;
  }

  /**
   * Records the analysis in one transaction, unless a conversation of the batch changed since it
   * was read: the batch's issues replaced, new clusters created, stored issues moved, clusters
   * described and counted again, and the conversations marked processed.
   */
  private async record(
    organizationId: string,
    batch: PendingConversation[],
    fresh: AnalysedIssue[],
    placement: Placement,
    descriptions: Map<string, ClusterDescription>,
  ): Promise<void> {
    const batchIds = batch.map((conversation) => conversation.id);
    const { newClusters, moved, touched, embedded } = placement;
    await this.dataSource.transaction(async (manager) => {
      if (!(await this.unchanged(manager, batch))) return;
      const now = this.clock.now();
      await this.issues.deleteOfConversations(batchIds, manager);
      for (const clusterId of newClusters) {
        await this.issues.insertCluster(
          clusterId,
          organizationId,
          descriptions.get(clusterId)!,
          now,
          manager,
        );
      }
      await this.issues.insertIssues(organizationId, fresh, manager);
      await this.issues.storeEmbeddings(
        embedded.map((issue) => ({
          id: issue.id,
          embedding: issue.embedding!,
          embeddingModel: issue.embeddingModel!,
        })),
        manager,
      );
      for (const clusterId of new Set(moved.map((issue) => issue.clusterId))) {
        await this.issues.moveIssues(
          clusterId,
          moved.filter((issue) => issue.clusterId === clusterId).map((issue) => issue.id),
          manager,
        );
      }
      for (const [clusterId, description] of descriptions) {
        if (newClusters.has(clusterId)) continue;
        await this.issues.describeCluster(clusterId, description, now, manager);
      }
      await this.recount(manager, [...touched]);
      await this.conversations.markProcessed(batchIds, now, manager);
    });
  }

  /** Locks the batch's conversations and checks none changed since read. */
  private async unchanged(manager: EntityManager, batch: PendingConversation[]): Promise<boolean> {
    const rows = await this.conversations.lockRevisions(
      batch.map((conversation) => conversation.id),
      manager,
    );
    const revisions = new Map(rows.map((row) => [row.id, row.analysis_revision]));
    return batch.every((conversation) => revisions.get(conversation.id) === conversation.revision);
  }

  /** The organization's issues, except those of the conversations being analysed again. */
  private async storedIssues(organizationId: string, exclude: string[]): Promise<AnalysedIssue[]> {
    const rows = await this.issues.findStoredExcept(organizationId, exclude);
    return rows.map((row) => {
      const createdAt = new Date(row.created_at);
      return {
        id: row.id,
        conversationId: row.conversation_id,
        clusterId: row.cluster_id,
        title: row.title,
        summary: row.summary,
        terms: row.terms,
        embedding: storedEmbedding(row.embedding),
        embeddingModel: row.embedding_model,
        createdAt,
        ingestedAt: new Date(row.ingested_at),
        sortKey: sortKey(row.source, row.external_id, row.title, row.summary),
        isNew: false,
      };
    });
  }

  /** Counts issues, conversations and sources of the clusters; removes those left empty. */
  private async recount(manager: EntityManager, clusterIds: string[]): Promise<void> {
    if (clusterIds.length === 0) return;
    await this.issues.recountClusters(clusterIds, manager);
    await this.issues.deleteEmptyClusters(clusterIds, manager);
  }
}

/** A stored `real[]` as numbers (drivers answer an array, or its literal `{0.1,0.2}`). */
function storedEmbedding(value: number[] | string | null): number[] | null {
  if (value === null || value === undefined) return null;
  const values = typeof value === 'string' ? value.replace(/^\{|\}$/g, '').split(',') : value;
  return values.map((item) => Math.fround(Number(item)));
}

/**
 * Orders issues the same way on every run, however they arrived: by what the source calls their
 * conversation, then by their text (an issue's position in its conversation is not stored).
 */
function sortKey(source: string, externalId: string, title: string, summary: string) {
  return `${source}\u0000${externalId}\u0000${title}\u0000${summary}`;
}
