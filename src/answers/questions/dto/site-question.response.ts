import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RichDocumentSchema } from '../../../orgs/agent-instructions/dto/agent-instructions.dto';
import type { JSONDocument } from '../../../content-engine/documents/document';
import {
  CHANNEL_TYPES,
  HELPFULNESS,
  QUESTION_TYPES,
  RELEVANCES,
  RESOLUTIONS,
  type Helpfulness,
  type QuestionType,
  type Relevance,
  type Resolution,
} from './site-question-queries.dto';

class LocationUrls {
  @ApiProperty({ format: 'uri' }) location!: string;
}

class FeedbackStats {
  @ApiProperty({ description: 'Answers rated 1.' }) positive!: number;
  @ApiProperty({ description: 'Answers rated -1.' }) negative!: number;
  @ApiProperty({ description: 'Answers not rated.' }) unrated!: number;
}

class AnsweredStats {
  @ApiProperty() yes!: number;
  @ApiProperty({ description: 'Always 0: Bindery does not assess answers.' }) partially!: number;
  @ApiProperty() no!: number;
}

class RelevanceStats {
  @ApiProperty() relevant!: number;
  @ApiProperty() spam!: number;
  @ApiProperty({ name: 'off-topic' }) 'off-topic'!: number;
  @ApiProperty() unclear!: number;
}

class TypeStats {
  @ApiProperty() exploring!: number;
  @ApiProperty({ name: 'how-to' }) 'how-to'!: number;
  @ApiProperty() troubleshooting!: number;
  @ApiProperty() reference!: number;
  @ApiProperty() unknown!: number;
}

/** GitBook's `SiteQuestionStats`. */
export class SiteQuestionStatsResponse {
  @ApiProperty({ description: 'Questions with at least one answer counted.' }) total!: number;
  @ApiProperty({ description: 'Answers counted.' }) answers!: number;
  @ApiProperty({ type: FeedbackStats }) feedback!: FeedbackStats;
  @ApiProperty({ type: AnsweredStats }) answered!: AnsweredStats;
  @ApiProperty({ type: RelevanceStats }) relevance!: RelevanceStats;
  @ApiProperty({ type: TypeStats }) types!: TypeStats;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'number' },
    description: 'Answers by channel type (`site`, `api`).',
  })
  channelTypes!: Record<string, number>;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'number' },
    description: 'Always empty: Bindery has no configurable channels.',
  })
  channels!: Record<string, number>;
  @ApiProperty({
    type: [Number],
    minItems: 13,
    maxItems: 13,
    description: 'Answers per week (Monday to Sunday, UTC) of the last 13, oldest first.',
  })
  weeklyPulse!: number[];
}

/** GitBook's `SiteQuestion`. */
export class SiteQuestionResponse {
  @ApiProperty({ enum: ['site-question'] }) object!: 'site-question';
  @ApiProperty() id!: string;
  @ApiProperty({ description: 'The text it was first asked in.' }) question!: string;
  @ApiProperty({ enum: QUESTION_TYPES, description: 'Always `unknown`.' }) type!: QuestionType;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time', description: 'Its latest ask.' }) askedAt!: string;
  @ApiProperty({ type: SiteQuestionStatsResponse }) stats!: SiteQuestionStatsResponse;
  @ApiProperty({ type: LocationUrls }) urls!: LocationUrls;
}

/** GitBook's `SiteQuestionAnswerSourcePage`. */
export class SiteQuestionAnswerSourceResponse {
  @ApiProperty({ enum: ['site-question-answer-source'] }) object!: 'site-question-answer-source';
  @ApiProperty({ description: 'The source’s id: its space and page.' }) id!: string;
  @ApiProperty({ enum: ['page'] }) type!: 'page';
  @ApiProperty() space!: string;
  @ApiProperty({ description: 'The revision of its latest answer.' }) revision!: string;
  @ApiProperty() page!: string;
  @ApiProperty({ description: 'The page’s title when last asked.' }) title!: string;
  @ApiProperty({
    description:
      'Its share of the sources of the answers counted (1 when every answer drew on it alone).',
  })
  weight!: number;
  @ApiProperty({ type: LocationUrls }) urls!: LocationUrls;
}

class AnswerQuestionRef {
  @ApiProperty() id!: string;
  @ApiProperty({ enum: QUESTION_TYPES }) type!: QuestionType;
}

class AnswerInput {
  @ApiProperty({ description: 'The question normalized (lower-cased, spaces collapsed).' })
  text!: string;
  @ApiProperty({ description: 'As asked.' }) raw!: string;
}

class AnswerSession {
  @ApiProperty() visitorId!: string;
  @ApiProperty() sessionId!: string;
}

class AnswerFeedback {
  @ApiProperty({ enum: [-1, 1] }) rating!: -1 | 1;
}

class AnswerChannel {
  @ApiProperty({ enum: CHANNEL_TYPES }) type!: string;
}

/** GitBook's `SiteQuestionAnswer`. */
export class SiteQuestionAnswerResponse {
  @ApiProperty({ enum: ['site-question-answer'] }) object!: 'site-question-answer';
  @ApiProperty() id!: string;
  @ApiProperty({ type: AnswerQuestionRef }) question!: AnswerQuestionRef;
  @ApiProperty({ type: [String], description: 'Always empty.' }) topics!: string[];
  @ApiProperty({ type: AnswerInput }) input!: AnswerInput;
  @ApiPropertyOptional({
    type: AnswerSession,
    description: 'The anonymous ids the renderer gave with the question, when it gave them.',
  })
  session?: AnswerSession;
  @ApiPropertyOptional({ type: AnswerFeedback }) feedback?: AnswerFeedback;
  @ApiProperty({
    description:
      'The request id of the ask (its `X-Request-Id`): an agent names the answer with it as ' +
      '`reportedBy.correlationId` in `submitAgentFeedbackToSite`.',
  })
  responseId!: string;
  @ApiProperty({ description: 'Always `und`: Bindery does not detect languages.' })
  language!: string;
  @ApiProperty({ enum: RESOLUTIONS }) answered!: Resolution;
  @ApiProperty({ enum: HELPFULNESS }) helpfulness!: Helpfulness;
  @ApiProperty({ enum: RELEVANCES }) relevance!: Relevance;
  @ApiProperty({ type: AnswerChannel }) channel!: AnswerChannel;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
  @ApiProperty({ type: LocationUrls }) urls!: LocationUrls;
}

class AIMessageStepResponse {
  @ApiPropertyOptional({ type: RichDocumentSchema }) content?: JSONDocument;
}

/** GitBook's `AIMessage`: the answer as the model wrote it. */
export class AIMessageResponse {
  @ApiProperty() id!: string;
  @ApiProperty({ enum: ['assistant'] }) role!: 'assistant';
  @ApiProperty({
    type: [AIMessageStepResponse],
    description: 'One step with the answer as a document; none when no answer was written.',
  })
  steps!: AIMessageStepResponse[];
  @ApiPropertyOptional({ format: 'date-time' }) createdAt?: string;
}

/** GitBook's `SiteQuestionAnswerWithResponse`. */
export class SiteQuestionAnswerWithResponseResponse extends SiteQuestionAnswerResponse {
  @ApiProperty({ type: AIMessageResponse }) response!: AIMessageResponse;
}

/** The answer of `submitAgentFeedbackToSite`. */
export class AgentFeedbackResultResponse {
  @ApiProperty({ description: 'The id of the feedback.' }) id!: string;
  @ApiProperty({ description: 'What happens next, for the agent.' }) result!: string;
}
