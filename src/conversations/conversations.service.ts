import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../platform/clock/clock';
import { DomainError } from '../platform/errors/domain-error';
import { newId, sha256Hex } from '../platform/ids/ids';
import type { Page } from '../platform/pagination/page';
import { ConversationAnalysis } from './analysis/conversation-analysis';
import { ConversationIssuesRepository } from './conversation-issues.repository';
import { type ConversationUpsert, ConversationsRepository } from './conversations.repository';
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

/**
 * Ingestion and reading of conversations and their issues. Every lookup carries the
 * organization, so those of another organization are not found.
 */
@Injectable()
export class ConversationsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly conversations: ConversationsRepository,
    private readonly issues: ConversationIssuesRepository,
    private readonly clock: Clock,
    private readonly analysis: ConversationAnalysis,
  ) {}

  /**
   * Stores the conversations of `source` in one transaction: new ids are inserted, known ones
   * updated in place (the unique index on organization, source and external id is the upsert's
   * conflict target, so concurrent ingestions of one id cannot duplicate it). A conversation
   * whose content changed goes back to unprocessed, and the analysis is queued once committed.
   * Answers the stored conversations' ids, in the order of `inputs`.
   */
  async ingest(
    organizationId: string,
    source: string,
    inputs: ConversationInputDto[],
  ): Promise<string[]> {
    const now = this.clock.now();
    const rows = inputs.map((input): ConversationUpsert => {
      const metadataCreatedAt = input.metadata?.createdAt
        ? new Date(input.metadata.createdAt)
        : null;
      const parts = input.parts.map(({ type, role, body }) => ({ type, role, body }));
      const subject = input.subject ?? null;
      return {
        id: newId(),
        organizationId,
        source,
        externalId: input.id,
        subject,
        parts,
        metadataUrl: input.metadata?.url ?? null,
        metadataAttributes: input.metadata?.attributes ?? null,
        metadataCreatedAt,
        contentHash: sha256Hex(JSON.stringify({ subject, parts, createdAt: metadataCreatedAt })),
        createdAt: metadataCreatedAt ?? now,
        ingestedAt: now,
        updatedAt: now,
      };
    });
    const { ids, pending } = await this.dataSource.transaction((manager) =>
      this.conversations.upsert(rows, manager),
    );
    if (pending) await this.analysis.enqueue(organizationId);
    return ids;
  }

  /** The organization's conversations of `ids`, in that order. */
  findMany(organizationId: string, ids: string[]): Promise<Conversation[]> {
    return this.conversations.findInOrganization(organizationId, ids);
  }

  /** The organization's conversations, newest first. */
  list(organizationId: string, query: ListConversationsQueryDto): Promise<Page<Conversation>> {
    return this.conversations.page(organizationId, query);
  }

  async get(organizationId: string, conversationId: string): Promise<Conversation> {
    const conversation = await this.conversations.findWithParts(organizationId, conversationId);
    if (!conversation) throw conversationNotFound();
    return conversation;
  }

  /** The organization's issues with their conversation, newest first. */
  listIssues(
    organizationId: string,
    query: ListConversationIssuesQueryDto,
  ): Promise<Page<ConversationIssue>> {
    return this.issues.pageIssues(organizationId, query);
  }

  async getIssue(organizationId: string, issueId: string): Promise<ConversationIssue> {
    const issue = await this.issues.findIssue(organizationId, issueId);
    if (!issue) throw conversationIssueNotFound();
    return issue;
  }
}
