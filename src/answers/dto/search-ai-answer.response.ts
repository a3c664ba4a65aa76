import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** GitBook's `SearchAIAnswerSourcePage`: a page an answer drew from. */
export class SearchAIAnswerSourcePageResponse {
  @ApiProperty({ enum: ['page'] }) type!: 'page';
  @ApiProperty({ description: 'The page’s id.' }) page!: string;
  @ApiProperty({ description: 'The revision the page was read from.' }) revision!: string;
  @ApiProperty({ description: 'The space of the page.' }) space!: string;
  @ApiProperty({ type: [String], description: 'The sections of the page the search found.' })
  sections!: string[];
}

/** GitBook's `SearchAIAnswer`. */
export class SearchAIAnswerResponse {
  @ApiPropertyOptional({
    description:
      'The answer so far: `{document}` (format `document`) or `{markdown}`; `{}` before its first words.',
    type: 'object',
    additionalProperties: true,
  })
  answer?: object;

  @ApiProperty({ type: [String] }) followupQuestions!: string[];

  @ApiProperty({ type: [SearchAIAnswerSourcePageResponse] })
  sources!: SearchAIAnswerSourcePageResponse[];
}

/** GitBook's `SearchAIAnswerStream`: one event of `streamAskInSite`, the answer as far as it has come. */
export class SearchAIAnswerStreamResponse {
  @ApiProperty({ enum: ['answer'] }) type!: 'answer';
  @ApiProperty({ type: SearchAIAnswerResponse }) answer!: SearchAIAnswerResponse;
}

/** GitBook's `SearchAIRecommendedQuestionStream`: one event of `streamRecommendedQuestionsInSite`. */
export class SearchAIRecommendedQuestionStreamResponse {
  @ApiProperty() question!: string;
}
