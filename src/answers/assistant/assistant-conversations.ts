import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { Clock } from '../../platform/clock/clock';
import { sha256Hex } from '../../platform/ids/ids';
import { JobsService } from '../../platform/jobs/jobs.service';
import { AssistantConversationsRepository } from './assistant-conversations.repository';
import type { ToolChatMessage } from './tool-chat';

/** A response's conversation, kept so that the next request may continue it. */
export interface StoredConversation {
  siteId: string;
  /** Who may continue it: a member's user, or the site token (its visitor's claims). */
  owner: string;
  /** The conversation as the model has it, but for the system message. */
  messages: ToolChatMessage[];
  /** The question it answers. */
  question: string;
  /** The client tool call it ended on, waiting for its result. */
  pending?: { id: string; tool: string };
}

/** How long a response may be continued. */
const KEEP_MS = 60 * 60 * 1000;

/** The queue of the deletion of expired conversations. */
export const PURGE_ASSISTANT_RESPONSES_QUEUE = 'site-assistant-responses-purge';

/** Every quarter of an hour. */
export const PURGE_ASSISTANT_RESPONSES_CRON = '7,22,37,52 * * * *';

/**
 * The conversations of the site assistant's responses, by response id, for `previousResponseId`
 * (GitBook's renderer sends only the new message, or a client tool's result, with the id of the
 * response it follows). Kept in the database for an hour, so that any process continues them
 * and a restart loses none; the owner (a member's user, a site token's hash) only as a hash.
 */
@Injectable()
export class AssistantConversations implements OnModuleInit {
  private readonly logger = new Logger('AssistantConversations');

  constructor(
    private readonly repository: AssistantConversationsRepository,
    private readonly jobs: JobsService,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.jobs.define(
      PURGE_ASSISTANT_RESPONSES_QUEUE,
      async () => {
        const deleted = await this.purgeExpired();
        if (deleted > 0) this.logger.log({ deleted }, 'Deleted expired assistant conversations');
      },
      { policy: 'singleton' },
    );
    this.jobs.schedule(PURGE_ASSISTANT_RESPONSES_QUEUE, PURGE_ASSISTANT_RESPONSES_CRON);
  }

  async save(responseId: string, conversation: StoredConversation): Promise<void> {
    await this.repository.insert({
      id: responseId,
      siteId: conversation.siteId,
      ownerHash: sha256Hex(conversation.owner),
      question: conversation.question,
      messages: conversation.messages,
      pending: conversation.pending ?? null,
      expiresAt: new Date(this.clock.now().getTime() + KEEP_MS),
    });
  }

  /** The conversation of a response of this site and owner; undefined for any other. */
  async find(
    responseId: string,
    siteId: string,
    owner: string,
  ): Promise<StoredConversation | undefined> {
    const row = await this.repository.find(responseId, siteId, sha256Hex(owner), this.clock.now());
    if (!row) return undefined;
    return {
      siteId,
      owner,
      question: row.question,
      messages: row.messages as ToolChatMessage[],
      ...(row.pending ? { pending: row.pending } : {}),
    };
  }

  /** Deletes the conversations past their hour; answers how many. */
  purgeExpired(): Promise<number> {
    return this.repository.deleteExpired(this.clock.now());
  }
}
