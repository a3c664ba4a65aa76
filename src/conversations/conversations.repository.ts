import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { countRows, paginate } from '../platform/pagination/keyset';
import type { Page } from '../platform/pagination/page';
import type { ListConversationsQueryDto } from './dto/conversation-queries.dto';
import { Conversation, type ConversationPart } from './entities/conversation.entity';

/** Rows per upsert statement (15 parameters each, far below PostgreSQL's 65,535). */
const UPSERT_CHUNK = 200;
const COLUMNS = 15;

/** A conversation as an ingestion writes it (new, or over the stored one of the same id). */
export interface ConversationUpsert {
  id: string;
  organizationId: string;
  source: string;
  externalId: string;
  subject: string | null;
  parts: ConversationPart[];
  metadataUrl: string | null;
  metadataAttributes: Record<string, string> | null;
  metadataCreatedAt: Date | null;
  contentHash: string;
  createdAt: Date;
  ingestedAt: Date;
  updatedAt: Date;
}

/** A conversation waiting for its analysis. */
export interface UnprocessedConversationRow {
  id: string;
  source: string;
  external_id: string;
  subject: string | null;
  parts: ConversationPart[];
  analysis_revision: number;
  created_at: Date;
  ingested_at: Date;
}

/** A conversation's analysis revision (bumped each time its content changes). */
export interface ConversationRevisionRow {
  id: string;
  analysis_revision: number;
}

/** The `conversations` table: conversations ingested from support tools, and their analysis state. */
@Injectable()
export class ConversationsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Inserts the conversations, or updates those known by (organization, source, external id) in
   * place: one whose content hash changed goes back to unprocessed, with its analysis revision
   * bumped. Answers the stored id of each, in the order given (a known one keeps its id), and
   * whether any of them now waits for its analysis.
   */
  async upsert(
    conversations: ConversationUpsert[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<{ ids: string[]; pending: boolean }> {
    let pending = false;
    const ids: string[] = [];
    for (let i = 0; i < conversations.length; i += UPSERT_CHUNK) {
      const chunk = conversations.slice(i, i + UPSERT_CHUNK);
      const values = chunk
        .map((_, r) => {
          const p = (c: number) => `$${r * COLUMNS + c + 1}`;
          return `(${p(0)}, ${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}::jsonb, ${p(6)}, ${p(7)}::jsonb, ${p(8)}::timestamptz, ${p(9)}, ${p(10)}::timestamptz, ${p(11)}::timestamptz, ${p(12)}::timestamptz, ${p(13)}::timestamptz, ${p(14)}::int)`;
        })
        .join(', ');
      const result: { id: string; external_id: string; pending: boolean }[] = await manager.query(
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
         RETURNING id, external_id, (processed_at IS NULL) AS pending`,
        chunk.flatMap((row) => [
          row.id,
          row.organizationId,
          row.source,
          row.externalId,
          row.subject,
          JSON.stringify(row.parts),
          row.metadataUrl,
          row.metadataAttributes ? JSON.stringify(row.metadataAttributes) : null,
          row.metadataCreatedAt,
          row.contentHash,
          row.createdAt,
          row.ingestedAt,
          row.updatedAt,
          null,
          1,
        ]),
      );
      if (result.some((row) => row.pending)) pending = true;
      // RETURNING promises no order: match the rows by external id (unique within the chunk).
      const stored = new Map(result.map((row) => [row.external_id, row.id]));
      for (const row of chunk) ids.push(stored.get(row.externalId)!);
    }
    return { ids, pending };
  }

  /** The organization's conversations of these ids, in the order of `ids` (unknown ones left out). */
  async findInOrganization(
    organizationId: string,
    ids: string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Conversation[]> {
    if (ids.length === 0) return [];
    const rows = await manager.getRepository(Conversation).findBy({ organizationId, id: In(ids) });
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /** A page of the organization's conversations (of one source when given), newest first. */
  page(
    organizationId: string,
    query: ListConversationsQueryDto,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Page<Conversation>> {
    const builder = manager
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

  /** The organization's conversation with its parts (a column not read by default); null if none. */
  findWithParts(
    organizationId: string,
    conversationId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Conversation | null> {
    return manager
      .getRepository(Conversation)
      .createQueryBuilder('conversation')
      .addSelect('conversation.parts')
      .where('conversation.organization_id = :organizationId AND conversation.id = :id', {
        organizationId,
        id: conversationId,
      })
      .getOne();
  }

  /** Up to `limit` organizations with a conversation unprocessed since `before` or earlier. */
  async organizationsWaitingSince(
    before: Date,
    limit: number,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<string[]> {
    const rows: { organization_id: string }[] = await manager.query(
      `SELECT DISTINCT organization_id FROM conversations
        WHERE processed_at IS NULL AND updated_at <= $1
        LIMIT $2`,
      [before, limit],
    );
    return rows.map((row) => row.organization_id);
  }

  /** Up to `limit` of the organization's unprocessed conversations, oldest first. */
  findUnprocessed(
    organizationId: string,
    limit: number,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<UnprocessedConversationRow[]> {
    return manager.query(
      `SELECT id, source, external_id, subject, parts, analysis_revision, created_at, ingested_at
         FROM conversations
        WHERE organization_id = $1 AND processed_at IS NULL
        ORDER BY created_at, id
        LIMIT $2`,
      [organizationId, limit],
    );
  }

  /** Locks the conversations (in id order) and reads their analysis revisions. */
  lockRevisions(
    conversationIds: string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<ConversationRevisionRow[]> {
    return manager.query(
      `SELECT id, analysis_revision FROM conversations WHERE id = ANY($1) ORDER BY id FOR UPDATE`,
      [conversationIds],
    );
  }

  /** Marks the conversations analysed at `now`. */
  async markProcessed(
    conversationIds: string[],
    now: Date,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(`UPDATE conversations SET processed_at = $2 WHERE id = ANY($1)`, [
      conversationIds,
      now,
    ]);
  }
}
