import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsOptional, IsString } from 'class-validator';
import { PageQueryDto } from '../../../platform/pagination/page-query.dto';
import { MaxChars } from '../../../platform/validation/chars';
import { QueryList } from '../../../platform/validation/query-list';

export const QUESTION_TYPES = [
  'exploring',
  'how-to',
  'troubleshooting',
  'reference',
  'unknown',
] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];
export const RELEVANCES = ['relevant', 'spam', 'off-topic', 'unclear'] as const;
export type Relevance = (typeof RELEVANCES)[number];
export const RESOLUTIONS = ['no', 'partially', 'yes'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];
export const HELPFULNESS = ['low', 'medium', 'high'] as const;
export type Helpfulness = (typeof HELPFULNESS)[number];
export const CHANNEL_TYPES = [
  'site',
  'embed',
  'api',
  'builtin:slack',
  'builtin:discord',
  'builtin:github',
  'builtin:linear',
] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];
export const QUESTION_SORTS = [
  'askedAt',
  'stats.answered',
  'stats.feedback',
  'stats.answers',
] as const;
export type QuestionSort = (typeof QUESTION_SORTS)[number];

const CLASSIFIED =
  'Bindery does not classify questions: every answer is `relevant`, every question of type ' +
  '`unknown`, and no answer has a topic.';

/** `from` and `to`: the answers counted, by when they were asked. */
export class AnswerRangeQueryDto {
  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Only answers asked at or after this time.',
  })
  @IsOptional()
  @IsISO8601({ strict: true })
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Only answers asked at or before it.' })
  @IsOptional()
  @IsISO8601({ strict: true })
  to?: string;
}

/** The filters of answers that GitBook's question operations share. */
export class AnswerFiltersQueryDto extends AnswerRangeQueryDto {
  @ApiPropertyOptional({ enum: RELEVANCES, isArray: true, description: CLASSIFIED })
  @QueryList()
  @IsIn(RELEVANCES, { each: true })
  relevance?: Relevance[];

  @ApiPropertyOptional({
    enum: CHANNEL_TYPES,
    isArray: true,
    description: 'Where asked: `site` (a site’s token, its renderer) or `api` (a member).',
  })
  @QueryList()
  @IsIn(CHANNEL_TYPES, { each: true })
  channelType?: ChannelType[];

  @ApiPropertyOptional({
    enum: RESOLUTIONS,
    isArray: true,
    description:
      '`no`: no page was found for the question, or the model wrote no answer; `yes` otherwise.',
  })
  @QueryList()
  @IsIn(RESOLUTIONS, { each: true })
  answered?: Resolution[];
}

/** `getSiteQuestionStats`' query. */
export class SiteQuestionStatsQueryDto extends AnswerFiltersQueryDto {
  @ApiPropertyOptional({ type: [String], description: CLASSIFIED })
  @QueryList()
  @IsString({ each: true })
  @MaxChars(64, { each: true })
  topic?: string[];
}

/** `getSiteQuestionById`' query. */
export class SiteQuestionQueryDto extends AnswerFiltersQueryDto {}

/** `listSiteQuestions`' query. */
export class ListSiteQuestionsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ format: 'date-time', description: 'Only answers asked at or after it.' })
  @IsOptional()
  @IsISO8601({ strict: true })
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Only answers asked at or before it.' })
  @IsOptional()
  @IsISO8601({ strict: true })
  to?: string;

  @ApiPropertyOptional({ enum: QUESTION_TYPES, description: CLASSIFIED })
  @IsOptional()
  @IsIn(QUESTION_TYPES)
  type?: QuestionType;

  @ApiPropertyOptional({ enum: RELEVANCES, isArray: true, description: CLASSIFIED })
  @QueryList()
  @IsIn(RELEVANCES, { each: true })
  relevance?: Relevance[];

  @ApiPropertyOptional({ enum: CHANNEL_TYPES, isArray: true })
  @QueryList()
  @IsIn(CHANNEL_TYPES, { each: true })
  channelType?: ChannelType[];

  @ApiPropertyOptional({
    enum: RESOLUTIONS,
    isArray: true,
    description: '`no` finds the questions asked with no page found or no answer written.',
  })
  @QueryList()
  @IsIn(RESOLUTIONS, { each: true })
  answered?: Resolution[];

  @ApiPropertyOptional({ type: [String], description: CLASSIFIED })
  @QueryList()
  @IsString({ each: true })
  @MaxChars(64, { each: true })
  topic?: string[];

  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'desc' })
  @IsOptional()
  @IsIn(['asc', 'desc'])
  order?: 'asc' | 'desc';

  @ApiPropertyOptional({
    enum: QUESTION_SORTS,
    description:
      'By latest ask, share of answers answered, share of positive feedback, or answers; ' +
      'unset: by when the question was first asked.',
  })
  @IsOptional()
  @IsIn(QUESTION_SORTS)
  sort?: QuestionSort;
}

/** `listSiteQuestionSources`' query. */
export class ListSiteQuestionSourcesQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ format: 'date-time', description: 'Only answers asked at or after it.' })
  @IsOptional()
  @IsISO8601({ strict: true })
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Only answers asked at or before it.' })
  @IsOptional()
  @IsISO8601({ strict: true })
  to?: string;

  @ApiPropertyOptional({ enum: RELEVANCES, isArray: true, description: CLASSIFIED })
  @QueryList()
  @IsIn(RELEVANCES, { each: true })
  relevance?: Relevance[];

  @ApiPropertyOptional({ enum: CHANNEL_TYPES, isArray: true })
  @QueryList()
  @IsIn(CHANNEL_TYPES, { each: true })
  channelType?: ChannelType[];

  @ApiPropertyOptional({ enum: RESOLUTIONS, isArray: true })
  @QueryList()
  @IsIn(RESOLUTIONS, { each: true })
  answered?: Resolution[];
}

/** `listSiteQuestionAnswers`' query. */
export class ListSiteQuestionAnswersQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Only the answers of this question.' })
  @IsOptional()
  @IsString()
  @MaxChars(64)
  question?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Only answers asked at or after it.' })
  @IsOptional()
  @IsISO8601({ strict: true })
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Only answers asked at or before it.' })
  @IsOptional()
  @IsISO8601({ strict: true })
  to?: string;

  @ApiPropertyOptional({
    description: 'Only answers in this language. Bindery does not detect languages: `und`.',
  })
  @IsOptional()
  @IsString()
  @MaxChars(16)
  language?: string;

  @ApiPropertyOptional({ enum: RESOLUTIONS, isArray: true })
  @QueryList()
  @IsIn(RESOLUTIONS, { each: true })
  answered?: Resolution[];

  @ApiPropertyOptional({
    enum: HELPFULNESS,
    description:
      'Bindery does not assess answers: `high` is an answer rated 1, `low` one rated -1 or not ' +
      'answered, `medium` the others.',
  })
  @IsOptional()
  @IsIn(HELPFULNESS)
  helpfulness?: Helpfulness;

  @ApiPropertyOptional({ enum: RELEVANCES, isArray: true, description: CLASSIFIED })
  @QueryList()
  @IsIn(RELEVANCES, { each: true })
  relevance?: Relevance[];

  @ApiPropertyOptional({ enum: CHANNEL_TYPES, isArray: true })
  @QueryList()
  @IsIn(CHANNEL_TYPES, { each: true })
  channelType?: ChannelType[];

  @ApiPropertyOptional({ name: 'question.type', enum: QUESTION_TYPES, description: CLASSIFIED })
  @IsOptional()
  @IsIn(QUESTION_TYPES)
  'question.type'?: QuestionType;

  @ApiPropertyOptional({ description: CLASSIFIED })
  @IsOptional()
  @IsString()
  @MaxChars(64)
  topic?: string;

  @ApiPropertyOptional({
    description: 'Only the answers of this thread. Each ask is a thread of its own in Bindery.',
  })
  @IsOptional()
  @IsString()
  @MaxChars(64)
  thread?: string;
}
