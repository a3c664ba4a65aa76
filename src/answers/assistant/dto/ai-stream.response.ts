import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export const AI_STREAM_EVENT_TYPES = [
  'response_start',
  'response_step_start',
  'response_tool_call',
  'response_tool_call_pending',
  'response_document',
  'response_finish',
  'response_followup_suggestion',
] as const;

/** GitBook's `AIMessageResponseMetadata`. */
export class AIMessageResponseMetadataResponse {
  @ApiPropertyOptional({ description: 'The id to continue from (`previousResponseId`).' })
  id?: string;

  @ApiPropertyOptional({ description: 'The response this one continued.' })
  previous?: string;
}

/**
 * GitBook's `AIStreamResponse`, the events Bindery sends: `response_start`, then for each step
 * `response_step_start`, its tool calls (`response_tool_call`: a search with its page results, a
 * page read) and its text (`response_document`: blocks inserted, or the last ones updated),
 * a client tool's call (`response_tool_call_pending`) when the model calls one, then
 * `response_finish` and the `response_followup_suggestion`s.
 */
export class AIStreamResponse {
  @ApiProperty({ enum: AI_STREAM_EVENT_TYPES }) type!: (typeof AI_STREAM_EVENT_TYPES)[number];
  @ApiProperty({ description: 'The message this event composes.' }) messageId!: string;

  @ApiPropertyOptional({
    description: 'The step of the message (all but start, finish, suggestions).',
  })
  stepIndex?: number;

  @ApiPropertyOptional({ enum: ['insert', 'update'], description: '`response_document`.' })
  operation?: 'insert' | 'update';

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    description: '`response_document`: document blocks, appended or replacing the last ones.',
  })
  blocks?: object[];

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      '`response_tool_call`: GitBook’s `AIToolCall` (`search` with its results, ' +
      '`getPageContent`); `response_tool_call_pending`: `{tool, input}`.',
  })
  toolCall?: object;

  @ApiPropertyOptional({ description: '`response_tool_call_pending`.' }) toolCallId?: string;

  @ApiPropertyOptional({
    type: AIMessageResponseMetadataResponse,
    description: '`response_finish`.',
  })
  response?: AIMessageResponseMetadataResponse;

  @ApiPropertyOptional({ type: [String], description: '`response_followup_suggestion`.' })
  suggestions?: string[];
}
