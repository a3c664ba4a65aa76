import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsDefined,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  ValidateNested,
} from 'class-validator';
import { MaxChars } from '../../../platform/validation/chars';
import { PresentNotNull } from '../../../platform/validation/present-not-null';
import { IgnoreUnknownProperties } from '../../../platform/validation/validation.pipe';
import { AskSessionDto } from '../../dto/ask-in-site.dto';

const MAX_ID_CHARS = 64;
/** GitBook's limit of a message given as text. */
export const MAX_MESSAGE_CHARS = 2048;
/** Messages one request may give. */
export const MAX_INPUT_MESSAGES = 50;
/** Tools of the client one request may offer. */
const MAX_TOOLS = 20;

export const AI_MESSAGE_ROLES = ['user', 'assistant', 'developer'] as const;
export const AI_MODELS = ['fast', 'reasoning-low', 'reasoning-medium', 'reasoning-high'] as const;
export const CHANNEL_TYPES = ['site', 'embed', 'api'] as const;

/** GitBook's `AIMessageContext`: where the message is written from. */
@IgnoreUnknownProperties()
export class AIMessageLocationDto {
  @ApiProperty() @IsString() @MaxChars(MAX_ID_CHARS) spaceId!: string;
  @ApiProperty() @IsString() @MaxChars(MAX_ID_CHARS) pageId!: string;
}

@IgnoreUnknownProperties()
export class AIMessageContextDto {
  @ApiPropertyOptional({
    type: AIMessageLocationDto,
    description: 'The page the reader is on: the model is told its title.',
  })
  @PresentNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => AIMessageLocationDto)
  location?: AIMessageLocationDto;
}

/** GitBook's `AIMessageInput`: a message of the conversation. */
@IgnoreUnknownProperties()
export class AIMessageInputDto {
  @ApiProperty({ enum: AI_MESSAGE_ROLES })
  @IsIn(AI_MESSAGE_ROLES)
  role!: (typeof AI_MESSAGE_ROLES)[number];

  @ApiProperty({
    oneOf: [
      { type: 'string', maxLength: MAX_MESSAGE_CHARS },
      { type: 'object', description: 'A JSON document (`{object: "document", nodes}`).' },
    ],
    description: 'The message: text, or a JSON document (read as its Markdown).',
  })
  @IsDefined()
  content!: string | { object: 'document'; nodes: unknown[]; data?: object };

  @ApiPropertyOptional({ type: AIMessageContextDto })
  @PresentNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => AIMessageContextDto)
  context?: AIMessageContextDto;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'object' },
    description: 'Attachments (images, files): accepted, not given to the model.',
  })
  @PresentNotNull()
  @IsArray()
  attachments?: object[];
}

/** GitBook's `AIToolDefinition`: a tool of the client (the renderer's) the model may call. */
@IgnoreUnknownProperties()
export class AIToolDefinitionDto {
  @ApiProperty() @IsString() @MaxChars(64) name!: string;
  @ApiProperty() @IsString() @MaxChars(2048) description!: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'JSON schema of its input (`{type: "object", properties}`).',
  })
  @PresentNotNull()
  @IsObject()
  inputSchema?: { type: 'object'; properties: Record<string, object> };
}

/** GitBook's `AIToolCallResult`: what a tool of the client answered. */
@IgnoreUnknownProperties()
export class AIToolCallResultDto {
  @ApiProperty() @IsString() @MaxChars(64) tool!: string;
  @ApiProperty() @IsString() @MaxChars(256) toolCallId!: string;

  @ApiProperty({ type: 'object', additionalProperties: true })
  @IsObject()
  output!: object;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @PresentNotNull()
  @IsObject()
  summary?: object;
}

@IgnoreUnknownProperties()
export class AIResponseChannelDto {
  @ApiProperty({ enum: CHANNEL_TYPES })
  @IsIn(CHANNEL_TYPES)
  type!: (typeof CHANNEL_TYPES)[number];
}

/** The body of `streamAIResponseInSite`. */
@IgnoreUnknownProperties()
export class AIResponseInSiteDto {
  @ApiPropertyOptional({
    description:
      'The response this continues (its `response_finish` event’s `response.id`): the ' +
      'conversation up to it is answered from.',
  })
  @IsOptional()
  @IsString()
  @MaxChars(MAX_ID_CHARS)
  previousResponseId?: string;

  @ApiProperty({
    type: [AIMessageInputDto],
    maxItems: MAX_INPUT_MESSAGES,
    description:
      'The messages to send: the new ones after `previousResponseId`, or the whole ' +
      'conversation. The last user message is answered.',
  })
  @IsArray()
  @ArrayMaxSize(MAX_INPUT_MESSAGES)
  @ValidateNested({ each: true })
  @Type(() => AIMessageInputDto)
  input!: AIMessageInputDto[];

  @ApiPropertyOptional({
    enum: AI_MODELS,
    description: 'Accepted; every tier is answered by the model of AI_MODEL.',
  })
  @IsOptional()
  @IsIn(AI_MODELS)
  model?: (typeof AI_MODELS)[number];

  @ApiPropertyOptional({
    type: [AIToolDefinitionDto],
    description:
      'Tools of the client: a call of one ends the response with `response_tool_call_pending`.',
  })
  @PresentNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_TOOLS)
  @ValidateNested({ each: true })
  @Type(() => AIToolDefinitionDto)
  tools?: AIToolDefinitionDto[];

  @ApiPropertyOptional({
    type: AIToolCallResultDto,
    description: 'The result of the client tool call the previous response ended on.',
  })
  @PresentNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => AIToolCallResultDto)
  toolCall?: AIToolCallResultDto;

  @ApiPropertyOptional({
    type: AskSessionDto,
    description: 'The visitor’s anonymous ids: counted per visitor, kept with the question.',
  })
  @PresentNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => AskSessionDto)
  session?: AskSessionDto;

  @ApiPropertyOptional({ type: AIResponseChannelDto })
  @PresentNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => AIResponseChannelDto)
  channel?: AIResponseChannelDto;
}
