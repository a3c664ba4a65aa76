import { Injectable } from '@nestjs/common';
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
/** Responses kept at most (the oldest go first). */
const MAX_KEPT = 5000;

/**
 * The conversations of the site assistant's responses, by response id, for `previousResponseId`
 * (GitBook's renderer sends only the new message, or a client tool's result, with the id of the
 * response it follows). Kept in this process for an hour, the 5,000 most recent: a response
 * another process gave, or from before a restart, is not found, and the next question is then
 * answered without the turns before it.
 */
@Injectable()
export class AssistantConversations {
  private readonly kept = new Map<string, StoredConversation & { expiresAt: number }>();

  save(responseId: string, conversation: StoredConversation): void {
    const now = Date.now();
    for (const [id, entry] of this.kept) {
      if (entry.expiresAt > now && this.kept.size < MAX_KEPT) break;
      this.kept.delete(id);
    }
    this.kept.set(responseId, { ...conversation, expiresAt: now + KEEP_MS });
  }

  /** The conversation of a response of this site and owner; undefined for any other. */
  find(responseId: string, siteId: string, owner: string): StoredConversation | undefined {
    const entry = this.kept.get(responseId);
    if (!entry || entry.expiresAt <= Date.now()) return undefined;
    if (entry.siteId !== siteId || entry.owner !== owner) return undefined;
    return entry;
  }
}
