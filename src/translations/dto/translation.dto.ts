import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsNotEmptyObject, IsString, Length, ValidateNested } from 'class-validator';
import { RichDocumentSchema } from '../../orgs/agent-instructions/dto/agent-instructions.dto';
import { IsDocument } from '../../content-engine/documents/document-validation';
import type { JSONDocument } from '../../content-engine/documents/document';
import { TRANSLATION_LANGUAGES, type TranslationLanguage } from '../../spaces/languages';
import { PresentNotNull } from '../../platform/validation/present-not-null';

const LANGUAGE_LIST = TRANSLATION_LANGUAGES.join(', ');

/** GitBook's `TranslationSource`. */
export class TranslationSourceDto {
  @ApiProperty({ description: 'ID of the source space, in this organization.' })
  @IsString()
  @Length(1, 32)
  space!: string;

  @ApiProperty({
    enum: TRANSLATION_LANGUAGES,
    description: 'The language the source is written in.',
  })
  @IsIn(TRANSLATION_LANGUAGES, { message: `source.language must be one of ${LANGUAGE_LIST}` })
  language!: TranslationLanguage;
}

/** Body of `createTranslation`. */
export class CreateTranslationDto {
  @ApiProperty({ type: TranslationSourceDto })
  @IsNotEmptyObject({}, { message: 'source must be an object {space, language}' })
  @ValidateNested()
  @Type(() => TranslationSourceDto)
  source!: TranslationSourceDto;

  @ApiProperty({
    enum: TRANSLATION_LANGUAGES,
    description: 'The language to translate into; not the source language.',
  })
  @IsIn(TRANSLATION_LANGUAGES, { message: `language must be one of ${LANGUAGE_LIST}` })
  language!: TranslationLanguage;

  @ApiPropertyOptional({
    type: RichDocumentSchema,
    description:
      'Guidance for the translator (tone, terms to keep), as a document of at most 200 KB of ' +
      'JSON; used by the `ai` provider. Default: an empty document.',
  })
  @PresentNotNull()
  @IsDocument()
  instructions?: JSONDocument;
}

/** Body of `updateTranslation`. */
export class UpdateTranslationDto {
  @ApiProperty({
    type: RichDocumentSchema,
    description: 'The new instructions; the next run translates every page again with them.',
  })
  @IsDocument()
  instructions!: JSONDocument;
}
