import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { plainToInstance, Type } from 'class-transformer';
import {
  IsIn,
  IsISO8601,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  ValidateNested,
  IsArray,
  ArrayMaxSize,
} from 'class-validator';
import { invalidInput } from '../../platform/errors/domain-error';
import { MaxChars } from '../../platform/validation/chars';
import { describeValidationErrors } from '../../platform/validation/validation.pipe';
import { validateNestedSync } from '../../platform/validation/nested-objects';
import { CONVERSATION_ROLES, type ConversationRole } from '../entities/conversation.entity';
import { PresentNotNull } from '../../platform/validation/present-not-null';

/** Conversations one ingestion request may carry. */
export const MAX_BATCH = 500;
/** Parts of one conversation, and characters of one part's body. */
export const MAX_PARTS = 1000;
export const MAX_BODY_CHARS = 100_000;
export const MAX_ATTRIBUTES = 100;

/** GitBook's `ConversationPartMessage`. */
export class ConversationPartDto {
  @ApiProperty({ enum: ['message'] })
  @IsIn(['message'])
  type!: 'message';

  @ApiProperty({ enum: CONVERSATION_ROLES })
  @IsIn(CONVERSATION_ROLES)
  role!: ConversationRole;

  @ApiProperty({ description: 'Markdown or HTML body of the message; not empty.' })
  @IsString()
  @Matches(/\S/, { message: '$property must not be empty' })
  @MaxChars(MAX_BODY_CHARS)
  body!: string;
}

/** GitBook's `ConversationMetadata`. */
export class ConversationMetadataDto {
  @ApiPropertyOptional({ description: 'URL to the conversation.' })
  @IsOptional()
  @IsString()
  @MaxChars(2048)
  url?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } })
  @PresentNotNull()
  @IsObject()
  attributes?: Record<string, string>;

  @ApiPropertyOptional({ format: 'date-time', description: 'When the conversation started.' })
  @IsOptional()
  @IsISO8601({ strict: true })
  createdAt?: string;
}

/** GitBook's `ConversationInput`. */
export class ConversationInputDto {
  @ApiProperty({
    minLength: 1,
    maxLength: 255,
    description: 'Unique within the source: ingesting the same id again updates the conversation.',
  })
  @IsString()
  @Length(1, 255)
  id!: string;

  @ApiPropertyOptional({ type: ConversationMetadataDto })
  @PresentNotNull()
  @ValidateNested()
  @Type(() => ConversationMetadataDto)
  metadata?: ConversationMetadataDto;

  @ApiPropertyOptional({ maxLength: 512 })
  @IsOptional()
  @IsString()
  @MaxChars(512)
  subject?: string;

  @ApiProperty({ type: ConversationPartDto, isArray: true })
  @IsArray()
  @ArrayMaxSize(MAX_PARTS)
  @ValidateNested({ each: true })
  @Type(() => ConversationPartDto)
  parts!: ConversationPartDto[];
}

/**
 * The conversations of an ingestion request, one object or an array of them, every one checked
 * before anything is stored; a problem is answered 400 naming the item (`[3].parts.0.role`).
 */
export function parseConversationInputs(body: unknown): ConversationInputDto[] {
  const batch = Array.isArray(body);
  const items: unknown[] = batch ? body : [body];
  if (batch && items.length === 0) throw invalidInput('The batch holds no conversation.');
  if (items.length > MAX_BATCH) {
    throw invalidInput(`A batch holds at most ${MAX_BATCH} conversations.`);
  }
  const seen = new Map<string, number>();
  return items.map((item, index) => {
    const where = batch ? `[${index}]` : '';
    const label = batch ? `Conversation [${index}]` : 'The conversation';
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      throw invalidInput(`${label} must be an object.`);
    }
    const input = plainToInstance(ConversationInputDto, item);
    const errors = validateNestedSync(input, {
      whitelist: true,
      forbidNonWhitelisted: true,
      validationError: { target: false, value: true },
    });
    if (errors.length > 0) throw invalidInput(describeValidationErrors(errors, where));
    const attributesProblem = attributesProblemOf(input.metadata?.attributes);
    if (attributesProblem)
      throw invalidInput(`${where ? `${where}.` : ''}metadata.attributes ${attributesProblem}`);
    const earlier = seen.get(input.id);
    if (earlier !== undefined) {
      throw invalidInput(`${label} repeats the id of conversation [${earlier}] ("${input.id}").`);
    }
    seen.set(input.id, index);
    return input;
  });
}

function attributesProblemOf(attributes: Record<string, unknown> | undefined): string | undefined {
  if (attributes === undefined) return undefined;
  const entries = Object.entries(attributes);
  if (entries.length > MAX_ATTRIBUTES) return `must have at most ${MAX_ATTRIBUTES} entries`;
  for (const [key, value] of entries) {
    if (typeof value !== 'string') return `values must be strings ("${key}" is not)`;
    if (key.length > 255 || value.length > 4096)
      return `entries are too long ("${key.slice(0, 50)}")`;
  }
  return undefined;
}
