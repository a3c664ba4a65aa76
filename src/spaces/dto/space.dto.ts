import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  Equals,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { DEFAULT_LEVELS } from '../../collections/dto/collection.dto';
import type { DefaultLevel } from '../../collections/entities/collection.entity';
import { IsMergeRules } from '../../orgs/dto/merge-rules';
import { PresentNotNull } from '../../platform/validation/present-not-null';
import {
  CONTENT_VISIBILITIES,
  type ContentVisibility,
  SPACE_EDIT_MODES,
  type SpaceEditMode,
  type SpaceMergeRules,
} from '../entities/space.entity';
import { TRANSLATION_LANGUAGES, type TranslationLanguage } from '../languages';
import { Chars, MaxChars } from '../../platform/validation/chars';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** GitBook's `ApplySpaceTemplate`. */
export class SpaceTemplateDto {
  @ApiProperty({ description: 'The ID of the template to use for the space.' })
  @IsString()
  @Chars(1, 64)
  id!: string;

  @ApiPropertyOptional({ description: '`contentRefs`: content references the template uses.' })
  @PresentNotNull()
  @IsObject()
  params?: Record<string, unknown>;
}

/**
 * GitBook's `CreateSpace` body: all optional, with at most one way to start the content —
 * `template`, `computedSource`, or `empty: true` (no page); otherwise one empty page.
 */
export class CreateSpaceDto {
  @ApiPropertyOptional({ maxLength: 50, default: 'Untitled' })
  @IsOptional()
  @Transform(trim)
  @IsString()
  @MaxChars(50)
  title?: string;

  @ApiPropertyOptional({ maxLength: 50, description: 'Unicode code point or character.' })
  @IsOptional()
  @IsString()
  @Chars(1, 50)
  emoji?: string;

  @ApiPropertyOptional({ description: 'ID of a parent collection of the organization.' })
  @IsOptional()
  @IsString()
  @Chars(1, 32)
  parent?: string;

  @ApiPropertyOptional({ enum: TRANSLATION_LANGUAGES })
  @IsOptional()
  @IsIn(TRANSLATION_LANGUAGES)
  language?: TranslationLanguage;

  @ApiPropertyOptional({ enum: SPACE_EDIT_MODES, default: 'live' })
  @IsOptional()
  @IsIn(SPACE_EDIT_MODES)
  editMode?: SpaceEditMode;

  @ApiPropertyOptional({ type: SpaceTemplateDto })
  @PresentNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => SpaceTemplateDto)
  template?: SpaceTemplateDto;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'A computed content source (GitBook `ComputedContentSourceRevision`).',
  })
  @PresentNotNull()
  @IsObject()
  computedSource?: Record<string, unknown>;

  @ApiPropertyOptional({ enum: [true], description: 'Create the space with no page at all.' })
  @IsOptional()
  @Equals(true, { message: 'empty must be true when given' })
  empty?: true;
}

/** GitBook's `updateSpaceById` body: absent = unchanged. */
export class UpdateSpaceDto {
  @ApiPropertyOptional({ enum: SPACE_EDIT_MODES })
  @PresentNotNull()
  @IsIn(SPACE_EDIT_MODES)
  editMode?: SpaceEditMode;

  @ApiPropertyOptional({ maxLength: 50 })
  @PresentNotNull()
  @Transform(trim)
  @IsString()
  @MaxChars(50)
  title?: string;

  @ApiPropertyOptional({
    enum: DEFAULT_LEVELS,
    nullable: true,
    description:
      "Role of organization members on the space; `inherit` takes the parent collection's " +
      "(the organization's default role at the root); null gives none.",
  })
  @ValidateIf((_, value: unknown) => value !== undefined && value !== null)
  @IsIn(DEFAULT_LEVELS)
  defaultLevel?: DefaultLevel;

  @ApiPropertyOptional({ enum: TRANSLATION_LANGUAGES })
  @PresentNotNull()
  @IsIn(TRANSLATION_LANGUAGES)
  language?: TranslationLanguage;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: '`{type: "inherit"}`, `{type: "none"}` or `{type: "rules", rules: [...]}`.',
  })
  @PresentNotNull()
  @IsMergeRules({ inherit: true })
  mergeRules?: SpaceMergeRules;

  @ApiPropertyOptional({
    maxLength: 50,
    nullable: true,
    description: 'Replaces the icon; null (with `icon` null or absent) clears it.',
  })
  @ValidateIf((_, value: unknown) => value !== undefined && value !== null)
  @IsString()
  @Chars(1, 50)
  emoji?: string | null;

  @ApiPropertyOptional({
    format: 'uri',
    maxLength: 2048,
    nullable: true,
    description: 'An icon URL, instead of an emoji; null clears it.',
  })
  @ValidateIf((_, value: unknown) => value !== undefined && value !== null)
  @IsString()
  @MaxChars(2048)
  @IsUrl({ require_protocol: true, protocols: ['http', 'https'], require_tld: false })
  icon?: string | null;

  @ApiPropertyOptional({
    enum: CONTENT_VISIBILITIES,
    description: '`in-collection` only for a space inside a collection.',
  })
  @PresentNotNull()
  @IsIn(CONTENT_VISIBILITIES)
  visibility?: ContentVisibility;
}

/** `moveSpace` and `transferSpace` take the same bodies as their collection counterparts. */
export { MoveContentDto, TransferContentDto } from '../../collections/dto/collection.dto';
