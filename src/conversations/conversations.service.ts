import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../platform/clock/clock';
import { DomainError } from '../platform/errors/domain-error';
import { newId, sha256Hex } from '../platform/ids/ids';
import { countRows, paginate } from '../platform/pagination/keyset';
import type { Page } from '../platform/pagination/page';
import { ConversationAnalysis } from './analysis/conversation-analysis';
import type { ConversationInputDto } from './dto/conversation-input.dto';
import type {
  ListConversationIssuesQueryDto,
  ListConversationsQueryDto,
} from './dto/conversation-queries.dto';
import { Conversation } from './entities/conversation.entity';
import { ConversationIssue } from './entities/conversation-issue.entity';

export const conversationNotFound = () =>
  new DomainError('not_found', 'ConversationNotFound', 'Conversation not found.');

export const conversationIssueNotFound = () =>
  new DomainError('not_found', 'ConversationIssueNotFound', 'Conversation issue not found.');

/** Rows per upsert statement (15 parameters each, far below PostgreSQL's 65,535). */
const UPSERT_CHUNK = 200;
const COLUMNS = 15;

/**
 * Ingestion and reading of conversations and their issues. Every lookup carries the
 * organization, so those of another organization are not found.
 */
@Injectable()
export class ConversationsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly analysis: ConversationAnalysis,
  ) {}

  /**
   * Stores the conversations of `source` in one transaction: new ids are inserted, known ones
   * updated in place (the unique index on organization, source and external id is the upsert's
   * conflict target, so concurrent ingestions of one id cannot duplicate it). A conversation
   * whose content changed goes back to unprocessed, and the analysis is queued once committed.
   */
  async ingest(
    organizationId: string,
    source: string,
    inputs: ConversationInputDto[],
  ): Promise<void> {
    const now = this.clock.now();
    const rows = inputs.map((input) => {
      const metadataCreatedAt = input.metadata?.createdAt
        ? new Date(input.metadata.createdAt)
        : null;
      const parts = input.parts.map(({ type, role, body }) => ({ type, role, body }));
      const subject = input.subject ?? null;
      return [
        newId(),
        organizationId,
        source,
        input.id,
        subject,
        JSON.stringify(parts),
        input.metadata?.url ?? null,
        input.metadata?.attributes ? JSON.stringify(input.metadata.attributes) : null,
        metadataCreatedAt,
        sha256Hex(JSON.stringify({ subject, parts, createdAt: metadataCreatedAt })),
        metadataCreatedAt ?? now,
        now,
        now,
        null,
        1,
      ];
    });
    let pending = false;
    await this.dataSource.transaction(async (manager) => {
      for (let i = 0; i < rows.length; i += UPSERT_CHUNK) {
        const chunk = rows.slice(i, i + UPSERT_CHUNK);
        const values = chunk
          .map((_, r) => {
            const p = (c: number) => `$${r * COLUMNS + c + 1}`;
            return `(${p(0)}, ${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}::jsonb, ${p(6)}, ${p(7)}::jsonb, ${p(8)}::timestamptz, ${p(9)}, ${p(10)}::timestamptz, ${p(11)}::timestamptz, ${p(12)}::timestamptz, ${p(13)}::timestamptz, ${p(14)}::int)`;
          })
          .join(', ');
        const result: { pending: boolean }[] = await manager.query(
          `INSERT INTO conversations AS c
             (id, organization_id, source, external_id, subject, parts, metadata_url,
              metadata_attributes, metadata_created_at, content_hash, created_at, ingested_at,
              updated_at, processed_at, analysis_revision)
           VALUES ${values}
           ON CONFLICT (organization_id, source, external_id) DO UPDATE SET
             subject = EXCLUDED.subject,
             parts = EXCLUDED.parts,
             metadata_url = EXCLUDED.metadata_url,
             metadata_attributes = EXCLUDED.metadata_attributes,
             metadata_created_at = EXCLUDED.metadata_created_at,
             created_at = COALESCE(EXCLUDED.metadata_created_at, c.ingested_at),
             updated_at = EXCLUDED.updated_at,
             content_hash = EXCLUDED.content_hash,
             analysis_revision = c.analysis_revision
               + CASE WHEN c.content_hash <> EXCLUDED.content_hash THEN 1 ELSE 0 END,
             processed_at = CASE WHEN c.content_hash <> EXCLUDED.content_hash THEN NULL
                                 ELSE c.processed_at END
           RETURNING (processed_at IS NULL) AS pending`,
          chunk.flat(),
        );
        if (result.some((row) => row.pending)) pending = true;
      }
    });
    if (pending) await this.analysis.enqueue(organizationId);
  }

  /** The organization's conversations, newest first. */
  list(organizationId: string, query: ListConversationsQueryDto): Promise<Page<Conversation>> {
    const builder = this.dataSource
      .getRepository(Conversation)
      .createQueryBuilder('conversation')
      .where('conversation.organization_id = :organizationId', { organizationId });
    if (query.source !== undefined) {
      builder.andWhere('conversation.source = :source', { source: query.source });
    }
    return paginate(builder, query, {
      keys: [
        { sql: 'conversation.created_at', of: (c) => c.createdAt },
        { sql: 'conversation.id', of: (c) => c.id },
      ],
      direction: 'DESC',
      count: () => countRows(builder),
    });
  }

  async get(organizationId: string, conversationId: string): Promise<Conversation> {
    const conversation = await this.dataSource
      .getRepository(Conversation)
      .createQueryBuilder('conversation')
      .addSelect('conversation.parts')
      .where('conversation.organization_id = :organizationId AND conversation.id = :id', {
        organizationId,
        id: conversationId,
      })
      .getOne();
    if (!conversation) throw conversationNotFound();
    return conversation;
  }

  /** The organization's issues with their conversation, newest first. */
  listIssues(
    organizationId: string,
    query: ListConversationIssuesQueryDto,
  ): Promise<Page<ConversationIssue>> {
    // The filters are on issues alone, and every issue has its conversation (a foreign key), so
    // the count needs no join.
    const filtered = this.dataSource
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

  async getIssue(organizationId: string, issueId: string): Promise<ConversationIssue> {
    const issue = await this.dataSource
      .getRepository(ConversationIssue)
      .createQueryBuilder('issue')
      .innerJoinAndSelect('issue.conversation', 'conversation')
      .where('issue.organization_id = :organizationId AND issue.id = :issueId', {
        organizationId,
        issueId,
      })
      .getOne();
    if (!issue) throw conversationIssueNotFound();
    return issue;
  }
}
