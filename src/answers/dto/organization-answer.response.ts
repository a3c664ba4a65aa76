import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { SearchAIAnswerResponse } from './search-ai-answer.response';

/** `askInOrganization`'s answer: GitBook's `{answer: SearchAIAnswer}`. */
export class OrganizationAnswerResponse {
  @ApiPropertyOptional({ type: SearchAIAnswerResponse })
  answer?: SearchAIAnswerResponse;
}

/** GitBook's `SearchAIRecommendedQuestions`. */
export class SearchAIRecommendedQuestionsResponse {
  @ApiProperty({ type: [String] }) questions!: string[];
}

class AIUsageFeatureResponse {
  @ApiProperty({
    description:
      'What used them: `site-ask`, `organization-ask` or `recommended-questions` (suggestions).',
  })
  feature!: string;
  @ApiProperty({ description: 'Credits of this feature: tokens, as the model counted them.' })
  credits!: number;
  @ApiProperty({ minimum: 0, maximum: 100, description: 'Share of the bucket’s credits.' })
  creditsPercent!: number;
}

class AIUsagePeriodResponse {
  @ApiProperty({ format: 'date', description: 'UTC date at the start of the bucket.' })
  date!: string;
  @ApiProperty({ description: 'Credits used in the bucket (tokens).' }) credits!: number;
  @ApiProperty({ type: [AIUsageFeatureResponse] }) features!: AIUsageFeatureResponse[];
}

/** GitBook's `OrganizationAIUsage`: credits (here, tokens) by calendar bucket and feature. */
export class OrganizationAIUsageResponse {
  @ApiProperty({ format: 'date-time', description: 'Inclusive start of the range.' })
  from!: string;
  @ApiProperty({
    format: 'date-time',
    description: 'Exclusive end of the range, capped at the current instant.',
  })
  to!: string;
  @ApiProperty({
    type: [AIUsagePeriodResponse],
    description: 'Chronological buckets, empty ones included.',
  })
  periods!: AIUsagePeriodResponse[];
}
