import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsOptional } from 'class-validator';
import { PageQueryDto } from '../../../platform/pagination/page-query.dto';
import { TRANSLATION_LANGUAGES, type TranslationLanguage } from '../../../spaces/languages';

/** Most operations in one `updateGlossaryEntries`. */
export const MAX_GLOSSARY_OPERATIONS = 1000;

/** Query of `listGlossaryEntries`. */
export class ListGlossaryEntriesQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    enum: TRANSLATION_LANGUAGES,
    description:
      'Sort by the term in this language (case aside; entries without it last). Default: oldest first.',
  })
  @IsOptional()
  @IsIn(TRANSLATION_LANGUAGES, {
    message: `orderBy must be one of ${TRANSLATION_LANGUAGES.join(', ')}`,
  })
  orderBy?: TranslationLanguage;
}

/** One of GitBook's `GlossaryBatchOperation`s (checked by the service, with its index). */
export class GlossaryBatchOperationDto {
  @ApiProperty({ enum: ['insert', 'update', 'delete'] }) type!: 'insert' | 'update' | 'delete';
  @ApiPropertyOptional({ description: 'The entry to update or delete.' }) id?: string;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string', minLength: 1, maxLength: 255 },
    example: { en: 'space', fr: 'espace', de: 'Bereich' },
    description:
      'insert and update: the term by language code, 1 to 255 characters on one line each ' +
      '(an update replaces every language of the entry).',
  })
  translations?: Record<string, string>;
}

/** Body of `updateGlossaryEntries`. */
export class UpdateGlossaryEntriesDto {
  @ApiProperty({
    type: [GlossaryBatchOperationDto],
    description: `Applied in order, all or none; at most ${MAX_GLOSSARY_OPERATIONS}.`,
  })
  @IsArray({ message: 'operations must be an array' })
  @ArrayMaxSize(MAX_GLOSSARY_OPERATIONS, {
    message: `operations: at most ${MAX_GLOSSARY_OPERATIONS} in one request`,
  })
  operations!: unknown[];
}
