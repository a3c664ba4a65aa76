import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CONVERSATION_ROLES, type ConversationRole } from '../entities/conversation.entity';

export class ConversationUrlsResponse {
  @ApiProperty({ format: 'uri', description: 'URL of the conversation in the API.' })
  location!: string;
  @ApiPropertyOptional({
    format: 'uri',
    description: 'URL of the conversation in its source (`metadata.url`, when it is a URL).',
  })
  source?: string;
}

/** GitBook's `Conversation`. */
export class ConversationResponse {
  @ApiProperty({ enum: ['conversation'] }) object!: 'conversation';
  @ApiProperty() id!: string;
  @ApiPropertyOptional() subject?: string;
  @ApiProperty({ format: 'date-time', description: '`metadata.createdAt`, else its ingestion.' })
  createdAt!: string;
  @ApiPropertyOptional({ format: 'date-time', description: 'Absent until analysed.' })
  processedAt?: string;
  @ApiProperty({ description: '`email` or `integration:<name>:<id>`.' }) source!: string;
  @ApiProperty({ type: ConversationUrlsResponse }) urls!: ConversationUrlsResponse;
}

export class ConversationPartResponse {
  @ApiProperty({ enum: ['message'] }) type!: 'message';
  @ApiProperty({ enum: CONVERSATION_ROLES }) role!: ConversationRole;
  @ApiProperty() body!: string;
}

export class ConversationMetadataResponse {
  @ApiPropertyOptional() url?: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } })
  attributes?: Record<string, string>;
  @ApiPropertyOptional({ format: 'date-time' }) createdAt?: string;
}

/** `getConversationById`'s answer. */
export class ConversationWithPartsResponse {
  @ApiProperty({ type: ConversationResponse }) conversation!: ConversationResponse;
  @ApiProperty({ type: ConversationPartResponse, isArray: true })
  parts!: ConversationPartResponse[];
  @ApiProperty({ type: ConversationMetadataResponse }) metadata!: ConversationMetadataResponse;
}

export class LocationUrlsResponse {
  @ApiProperty({ format: 'uri' }) location!: string;
}

/** GitBook's `ConversationIssue`. */
export class ConversationIssueResponse {
  @ApiProperty({ enum: ['conversation-issue'] }) object!: 'conversation-issue';
  @ApiProperty() id!: string;
  @ApiProperty() title!: string;
  @ApiProperty() summary!: string;
  @ApiProperty({ format: 'date-time', description: 'When its conversation happened.' })
  createdAt!: string;
  @ApiProperty({ format: 'date-time', description: 'When its conversation was ingested.' })
  ingestedAt!: string;
  @ApiProperty({ description: 'Id of its conversation.' }) conversation!: string;
  @ApiPropertyOptional({ description: 'Id of its cluster; absent until similar issues exist.' })
  cluster?: string;
  @ApiProperty({ type: LocationUrlsResponse }) urls!: LocationUrlsResponse;
}

/** Items of `listConversationsIssues`, and `getConversationIssueById`'s answer. */
export class ConversationIssueWithConversationResponse {
  @ApiProperty({ type: ConversationIssueResponse }) issue!: ConversationIssueResponse;
  @ApiProperty({ type: ConversationResponse }) conversation!: ConversationResponse;
}

export class ClusterStatsResponse {
  @ApiProperty() issues!: number;
  @ApiProperty() conversations!: number;
  @ApiProperty({ description: 'Always 0: Bindery has no agent tasks.' }) tasksTotal!: number;
  @ApiProperty() tasksBacklog!: number;
  @ApiProperty() tasksStarted!: number;
  @ApiProperty() tasksCompleted!: number;
  @ApiProperty() tasksCancelled!: number;
}

export class ClusterUrlsResponse {
  @ApiProperty({ format: 'uri' }) location!: string;
  @ApiProperty({ format: 'uri' }) app!: string;
}

/** GitBook's `ConversationsIssuesCluster`. */
export class ConversationsIssuesClusterResponse {
  @ApiProperty({ enum: ['issues-cluster'] }) object!: 'issues-cluster';
  @ApiProperty() id!: string;
  @ApiProperty() label!: string;
  @ApiProperty() summary!: string;
  @ApiProperty({ maxLength: 50, description: 'An icon name.' }) icon!: string;
  @ApiProperty({
    type: Number,
    isArray: true,
    minItems: 13,
    maxItems: 13,
    description: 'Issues per week (Monday to Sunday, UTC), oldest first, ending with this week.',
  })
  weeklyPulse!: number[];
  @ApiProperty({ type: 'object', additionalProperties: { type: 'number' } })
  sources!: Record<string, number>;
  @ApiProperty({ type: ClusterStatsResponse }) stats!: ClusterStatsResponse;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
  @ApiProperty({ type: ClusterUrlsResponse }) urls!: ClusterUrlsResponse;
}

/**
 * `ingestConversation`'s answer when the request says `Prefer: return=representation`
 * (Bindery's; GitBook answers 204 only): the stored conversations, in the order sent.
 */
export class IngestedConversationsResponse {
  @ApiProperty({
    type: [ConversationResponse],
    description: 'One per conversation sent, in the same order (a single object gives one).',
  })
  items!: ConversationResponse[];
}
