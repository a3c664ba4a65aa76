import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RichDocumentSchema } from '../../orgs/agent-instructions/dto/agent-instructions.dto';
import type { JSONDocument } from '../../content-engine/documents/document';
import { TRANSLATION_LANGUAGES, type TranslationLanguage } from '../../spaces/languages';
import { TRANSLATION_STATUSES, type TranslationStatus } from '../entities/translation.entity';

export class TranslationSourceResponse {
  @ApiProperty({ description: 'ID of the source space.' }) space!: string;
  @ApiProperty({ enum: TRANSLATION_LANGUAGES }) language!: TranslationLanguage;
}

export class TranslationResultResponse {
  @ApiProperty({ description: 'ID of the space holding the translated content.' }) space!: string;
  @ApiProperty({ description: 'ID of the revision the last successful run wrote there.' })
  revision!: string;
}

export class TranslationStatsResponse {
  @ApiProperty({ type: 'integer', description: 'Successful runs.' }) runs!: number;
  @ApiProperty({ type: 'integer', description: 'Words sent to the provider, all runs together.' })
  totalWords!: number;
  @ApiProperty({ type: 'integer', description: 'Pages translated, all runs together.' })
  totalPages!: number;
  @ApiProperty({
    type: 'integer',
    description: 'Duration of all runs, in seconds (their milliseconds added, rounded up).',
  })
  totalDuration!: number;
  @ApiProperty({
    type: 'integer',
    description: 'Duration of the latest run, in seconds, rounded up (a run under a second is 1).',
  })
  latestRunDuration!: number;
  @ApiProperty({
    type: 'integer',
    description: 'Pages translated by the latest run (unchanged pages are reused, not counted).',
  })
  latestPages!: number;
  @ApiProperty({ type: 'integer', description: 'Words sent to the provider by the latest run.' })
  latestWords!: number;
  // Bindery's additions (GitBook's stats object allows more properties).
  @ApiProperty({
    type: 'integer',
    description:
      "Bindery's addition: segments (blocks of text, titles, alt texts, …) of the pages the " +
      'latest run made again, sent or reused.',
  })
  latestSegments!: number;
  @ApiProperty({
    type: 'integer',
    description:
      "Bindery's addition: of latestSegments, those reused because their source did not " +
      "change (with a translator's edits).",
  })
  latestCachedSegments!: number;
  @ApiProperty({
    type: 'integer',
    description: "Bindery's addition: characters sent to the provider by the latest run.",
  })
  latestCharacters!: number;
  @ApiProperty({ type: 'integer', description: "Bindery's addition: latestSegments, all runs." })
  totalSegments!: number;
  @ApiProperty({
    type: 'integer',
    description: "Bindery's addition: latestCharacters, all runs.",
  })
  totalCharacters!: number;
  @ApiProperty({
    type: 'integer',
    description: "Bindery's addition: duration of the latest run, in milliseconds.",
  })
  latestRunDurationMs!: number;
  @ApiProperty({
    type: 'integer',
    description: "Bindery's addition: duration of all runs, in milliseconds.",
  })
  totalDurationMs!: number;
}

export class TranslationPermissionsResponse {
  @ApiProperty() view!: boolean;
  @ApiProperty({ description: 'Can the caller change, run or delete the translation.' })
  edit!: boolean;
}

export class TranslationUrlsResponse {
  @ApiProperty({ format: 'uri', description: 'URL of the translation in the API.' })
  location!: string;
}

/** A segment the last run left in the source language. */
export class TranslationRunErrorDetailResponse {
  @ApiProperty({ description: 'ID of the page.' }) page!: string;
  @ApiProperty({
    description: 'Where the segment is in the page: `title`, `description`, `document.nodes.2`, …',
  })
  segment!: string;
  @ApiProperty({ description: 'What the provider did wrong.' }) reason!: string;
}

/** Bindery's addition: why the last run failed. */
export class TranslationRunErrorResponse {
  @ApiProperty({ description: 'What went wrong, e.g. what the provider answered.' })
  message!: string;
  @ApiProperty({ format: 'date-time' }) failedAt!: string;
  @ApiPropertyOptional({
    type: [TranslationRunErrorDetailResponse],
    description:
      'Segments the run left untranslated because the provider dropped or broke their ' +
      'placeholders twice; the rest of the result was written. Next run asks for them again.',
  })
  details?: TranslationRunErrorDetailResponse[];
}

/** GitBook's `Translation`. */
export class TranslationResponse {
  @ApiProperty({ enum: ['translation'] }) object!: 'translation';
  @ApiProperty() id!: string;
  @ApiProperty({
    enum: TRANSLATION_STATUSES,
    description:
      '`pending` until a run starts (also when never run), `running` during a run, ' +
      '`completed` once it ended, successfully or not (see `lastRunError`).',
  })
  status!: TranslationStatus;
  @ApiProperty({ type: TranslationSourceResponse }) source!: TranslationSourceResponse;
  @ApiProperty({ enum: TRANSLATION_LANGUAGES }) language!: TranslationLanguage;
  @ApiProperty({ type: RichDocumentSchema }) instructions!: JSONDocument;
  @ApiPropertyOptional({
    type: TranslationResultResponse,
    description: 'Absent until a run succeeds, and once the result space is purged.',
  })
  result?: TranslationResultResponse;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
  @ApiProperty({ type: TranslationStatsResponse }) stats!: TranslationStatsResponse;
  @ApiProperty({ type: TranslationPermissionsResponse })
  permissions!: TranslationPermissionsResponse;
  @ApiProperty({ type: TranslationUrlsResponse }) urls!: TranslationUrlsResponse;
  @ApiPropertyOptional({
    type: TranslationRunErrorResponse,
    description:
      "Not in GitBook's schema (which allows more properties): present when the last run " +
      'failed; the previous result stays as it was. Cleared by the next successful run.',
  })
  lastRunError?: TranslationRunErrorResponse;
}
