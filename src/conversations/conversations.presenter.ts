import { Injectable } from '@nestjs/common';
import { UrlBuilder } from '../platform/urls/url-builder';
import type {
  ConversationIssueResponse,
  ConversationResponse,
  ConversationsIssuesClusterResponse,
  ConversationWithPartsResponse,
} from './dto/conversation.response';
import type { Conversation } from './entities/conversation.entity';
import type { ConversationIssue } from './entities/conversation-issue.entity';
import type { ConversationIssuesCluster } from './entities/conversation-issues-cluster.entity';

/** GitBook's wire shapes of conversations, issues and clusters. */
@Injectable()
export class ConversationsPresenter {
  constructor(private readonly urls: UrlBuilder) {}

  conversation(conversation: Conversation): ConversationResponse {
    const source = httpUrl(conversation.metadataUrl);
    return {
      object: 'conversation',
      id: conversation.id,
      ...(conversation.subject !== null ? { subject: conversation.subject } : {}),
      createdAt: conversation.createdAt.toISOString(),
      ...(conversation.processedAt !== null
        ? { processedAt: conversation.processedAt.toISOString() }
        : {}),
      source: conversation.source,
      urls: {
        location: this.urls.api(
          'orgs',
          conversation.organizationId,
          'conversations',
          conversation.id,
        ),
        ...(source ? { source } : {}),
      },
    };
  }

  conversationWithParts(conversation: Conversation): ConversationWithPartsResponse {
    return {
      conversation: this.conversation(conversation),
      parts: conversation.parts.map(({ type, role, body }) => ({ type, role, body })),
      metadata: {
        ...(conversation.metadataUrl !== null ? { url: conversation.metadataUrl } : {}),
        ...(conversation.metadataAttributes !== null
          ? { attributes: conversation.metadataAttributes }
          : {}),
        ...(conversation.metadataCreatedAt !== null
          ? { createdAt: conversation.metadataCreatedAt.toISOString() }
          : {}),
      },
    };
  }

  issue(issue: ConversationIssue): ConversationIssueResponse {
    return {
      object: 'conversation-issue',
      id: issue.id,
      title: issue.title,
      summary: issue.summary,
      createdAt: issue.createdAt.toISOString(),
      ingestedAt: issue.ingestedAt.toISOString(),
      conversation: issue.conversationId,
      ...(issue.clusterId !== null ? { cluster: issue.clusterId } : {}),
      urls: {
        location: this.urls.api('orgs', issue.organizationId, 'conversations-issues', issue.id),
      },
    };
  }

  /** `{issue, conversation}`; the issue's conversation must be loaded. */
  issueWithConversation(issue: ConversationIssue): {
    issue: ConversationIssueResponse;
    conversation: ConversationResponse;
  } {
    return { issue: this.issue(issue), conversation: this.conversation(issue.conversation!) };
  }

  cluster(
    cluster: ConversationIssuesCluster,
    weeklyPulse: number[],
  ): ConversationsIssuesClusterResponse {
    return {
      object: 'issues-cluster',
      id: cluster.id,
      label: cluster.label,
      summary: cluster.summary,
      icon: cluster.icon,
      weeklyPulse,
      sources: cluster.sources,
      stats: {
        issues: cluster.issues,
        conversations: cluster.conversations,
        tasksTotal: 0,
        tasksBacklog: 0,
        tasksStarted: 0,
        tasksCompleted: 0,
        tasksCancelled: 0,
      },
      createdAt: cluster.createdAt.toISOString(),
      updatedAt: cluster.updatedAt.toISOString(),
      urls: {
        location: this.urls.api(
          'orgs',
          cluster.organizationId,
          'conversations-clusters',
          cluster.id,
        ),
        app: this.urls.app('o', cluster.organizationId, 'conversations', 'clusters', cluster.id),
      },
    };
  }
}

/** `metadata.url` when it is an absolute http(s) URL (GitBook's `urls.source` is a URI). */
function httpUrl(value: string | null): string | undefined {
  if (value === null) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}
