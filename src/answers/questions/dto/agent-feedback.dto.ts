import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { plainToInstance, Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  Min,
  ValidateNested,
} from 'class-validator';
import { Chars, MaxChars } from '../../../platform/validation/chars';
import { PresentNotNull } from '../../../platform/validation/present-not-null';

const URL_OPTIONS = { require_tld: false, require_protocol: true, protocols: ['http', 'https'] };

export const FEEDBACK_CATEGORIES = [
  'usability',
  'reliability',
  'documentation',
  'efficiency',
  'interoperability',
  'could-not-accomplish',
] as const;
export const FEEDBACK_SEVERITIES = ['low', 'medium', 'high'] as const;
export const FEEDBACK_SOURCES = ['mcp', 'assistant'] as const;
const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;

/** GitBook's `AgentFeedbackReportedBy`: the agent, never the user it acts for. */
export class AgentFeedbackReportedByDto {
  @ApiPropertyOptional({ maxLength: 100 }) @IsOptional() @IsString() @MaxChars(100) model?: string;
  @ApiPropertyOptional({ maxLength: 512 })
  @IsOptional()
  @IsString()
  @MaxChars(512)
  userAgent?: string;
  @ApiPropertyOptional({
    maxLength: 100,
    description:
      'For feedback on an answer of `streamAskInSite`: that ask’s `X-Request-Id` (the answer’s ' +
      '`responseId`), which links the feedback to it and rates it -1.',
  })
  @IsOptional()
  @IsString()
  @MaxChars(100)
  correlationId?: string;
  @ApiPropertyOptional({ default: false }) @IsOptional() @IsBoolean() onDemand?: boolean;
}

export class AgentFeedbackSubjectMcpToolDto {
  @ApiProperty({ enum: ['mcp-tool'] }) @IsIn(['mcp-tool']) kind!: 'mcp-tool';
  @ApiProperty({ maxLength: 200 }) @IsString() @MaxChars(200) toolName!: string;
  @ApiPropertyOptional({ maxLength: 200 }) @IsOptional() @IsString() @MaxChars(200) target?: string;
}

export class AgentFeedbackSubjectCliCommandDto {
  @ApiProperty({ enum: ['cli-command'] }) @IsIn(['cli-command']) kind!: 'cli-command';
  @ApiProperty({ maxLength: 200 }) @IsString() @MaxChars(200) command!: string;
  @ApiPropertyOptional({ type: [String], maxItems: 50 })
  @PresentNotNull()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxChars(100, { each: true })
  flags?: string[];
}

export class AgentFeedbackSubjectApiEndpointDto {
  @ApiProperty({ enum: ['api-endpoint'] }) @IsIn(['api-endpoint']) kind!: 'api-endpoint';
  @ApiProperty({ enum: HTTP_METHODS }) @IsIn(HTTP_METHODS) method!: string;
  @ApiProperty({ maxLength: 500 }) @IsString() @MaxChars(500) path!: string;
}

export class AgentFeedbackSubjectDocumentationDto {
  @ApiProperty({ enum: ['documentation'] }) @IsIn(['documentation']) kind!: 'documentation';
  @ApiProperty({ format: 'uri', maxLength: 2048 })
  @IsString()
  @MaxChars(2048)
  @IsUrl(URL_OPTIONS)
  url!: string;
}

export class AgentFeedbackSubjectGenericDto {
  @ApiProperty({ enum: ['generic'] }) @IsIn(['generic']) kind!: 'generic';
}

const SUBJECTS: Record<string, new () => object> = {
  'mcp-tool': AgentFeedbackSubjectMcpToolDto,
  'cli-command': AgentFeedbackSubjectCliCommandDto,
  'api-endpoint': AgentFeedbackSubjectApiEndpointDto,
  documentation: AgentFeedbackSubjectDocumentationDto,
  generic: AgentFeedbackSubjectGenericDto,
};
const SUBJECT_KINDS = Object.keys(SUBJECTS);

/** A subject of an unknown `kind`: refused, naming the kinds. */
class UnknownSubjectDto {
  @IsIn(SUBJECT_KINDS) kind!: string;
}

export class AgentFeedbackMetricsDto {
  @ApiPropertyOptional({ minimum: 0 }) @IsOptional() @IsInt() @Min(0) callCount?: number;
  @ApiPropertyOptional({ minimum: 0 }) @IsOptional() @IsInt() @Min(0) successCount?: number;
  @ApiPropertyOptional({ minimum: 0 }) @IsOptional() @IsInt() @Min(0) retryCount?: number;
}

/** GitBook's `AgentFeedbackContent`. */
export class AgentFeedbackContentDto {
  @ApiProperty({ enum: FEEDBACK_CATEGORIES }) @IsIn(FEEDBACK_CATEGORIES) category!: string;
  @ApiPropertyOptional({ enum: FEEDBACK_SEVERITIES })
  @IsOptional()
  @IsIn(FEEDBACK_SEVERITIES)
  severity?: string;
  @ApiPropertyOptional({ maxLength: 1024 }) @IsOptional() @IsString() @MaxChars(1024) goal?: string;
  @ApiProperty({ minLength: 1, maxLength: 256 }) @IsString() @Chars(1, 256) summary!: string;
  @ApiPropertyOptional({ maxLength: 4096 })
  @IsOptional()
  @IsString()
  @MaxChars(4096)
  detail?: string;
  @ApiPropertyOptional({ maxLength: 2048 })
  @IsOptional()
  @IsString()
  @MaxChars(2048)
  workaround?: string;
  @ApiPropertyOptional({ type: AgentFeedbackMetricsDto })
  @PresentNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => AgentFeedbackMetricsDto)
  metrics?: AgentFeedbackMetricsDto;
}

/** GitBook's `AgentFeedbackInput`: the body of `submitAgentFeedbackToSite`. */
export class SubmitAgentFeedbackDto {
  @ApiPropertyOptional({ type: AgentFeedbackReportedByDto })
  @PresentNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => AgentFeedbackReportedByDto)
  reportedBy?: AgentFeedbackReportedByDto;

  @ApiProperty({
    oneOf: Object.values(SUBJECTS).map((type) => ({ $ref: getSchemaPath(type) })),
    description: 'What the feedback is about; `kind` decides its shape.',
  })
  @IsObject()
  @ValidateNested()
  @Transform(
    ({ value }) =>
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? plainToInstance(
            SUBJECTS[(value as { kind?: string }).kind ?? ''] ?? UnknownSubjectDto,
            value,
          )
        : value,
    { toClassOnly: true },
  )
  subject!: object;

  @ApiProperty({ type: AgentFeedbackContentDto })
  @IsObject()
  @ValidateNested()
  @Type(() => AgentFeedbackContentDto)
  feedback!: AgentFeedbackContentDto;
}

export const AGENT_FEEDBACK_SUBJECT_TYPES = Object.values(SUBJECTS);

/** The body of the deprecated `submitSiteAgentFeedback`. */
export class SubmitSiteAgentFeedbackDto {
  @ApiProperty({
    minLength: 1,
    maxLength: 2048,
    description: 'The feedback on the site’s content.',
  })
  @IsString()
  @Chars(1, 2048)
  feedback!: string;

  @ApiPropertyOptional({ maxLength: 1024 }) @IsOptional() @IsString() @MaxChars(1024) goal?: string;

  @ApiProperty({ format: 'uri', maxLength: 2048 })
  @IsString()
  @MaxChars(2048)
  @IsUrl(URL_OPTIONS)
  url!: string;

  @ApiProperty() @IsString() @Chars(1, 64) spaceId!: string;
  @ApiProperty() @IsString() @Chars(1, 64) pageId!: string;

  @ApiPropertyOptional({ enum: FEEDBACK_SOURCES })
  @IsOptional()
  @IsIn(FEEDBACK_SOURCES)
  source?: (typeof FEEDBACK_SOURCES)[number];
}
