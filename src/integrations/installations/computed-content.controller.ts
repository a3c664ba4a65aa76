import { Body, Controller, HttpCode, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPropertyOptional,
} from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import type { JSONDocument } from '../../content-engine/documents/document';
import { Access, Granted } from '../../platform/auth/access.decorator';
import { ErrorBody } from '../../platform/errors/error-body';
import type { SpaceAccess } from '../../spaces/space-access.resolver';
import { ComputedContentService } from './computed-content.service';
import { ComputeContentDto } from './dto/computed-content.dto';

export class ComputedDocumentQueryDto {
  @ApiPropertyOptional({
    enum: ['current', 'next'],
    description: 'Version of the document schema. Accepted; the document comes as computed.',
  })
  @IsOptional()
  @IsIn(['current', 'next'])
  schema?: 'current' | 'next';
}

const HOW =
  "The source is an integration's content source (`integration:<integration>:<sourceId>`, " +
  "one of its manifest's `contentSources`), installed on the space (404 otherwise). Its " +
  "script gets GitBook's `%EVENT%` event for the space installation, with the source's " +
  '`props` and `dependencies` (resolved ones only: 400 for a dependency by `ref`). 503 when ' +
  'the script fails or answers something else. Nothing is stored.';

/** Content computed by an integration's content source, for a space (nothing is stored). */
@Controller('spaces/:spaceId/content/computed')
export class ComputedContentController {
  constructor(private readonly computed: ComputedContentService) {}

  @Post('document')
  @HttpCode(200)
  @Access('space', 'view', { reads: true })
  @ApiOperation({
    operationId: 'getComputedDocument',
    summary: 'Compute a document from a content source',
    description: `The JSON document the source computes. ${HOW.replace('%EVENT%', 'content_compute_document')}`,
  })
  @ApiOkResponse({ type: Object })
  @ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' })
  document(
    @Granted() space: SpaceAccess,
    @Body() body: ComputeContentDto,
    @Query() _query: ComputedDocumentQueryDto,
  ): Promise<JSONDocument> {
    return this.computed.document(space, body.source);
  }

  @Post('revision')
  @HttpCode(200)
  @Access('space', 'view', { reads: true })
  @ApiOperation({
    operationId: 'getComputedRevision',
    summary: 'Compute a revision from a content source',
    description:
      "The pages and files the source computes, as a revision's (`reusableContents` empty): " +
      "ids are the script's, or derived from `seed` and the page's place (the same seed, the " +
      'same ids); slugs made from titles where it gives none; a page given as markdown is ' +
      `read as a document. ${HOW.replace('%EVENT%', 'content_compute_revision')}`,
  })
  @ApiOkResponse({ type: Object })
  @ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' })
  revision(
    @Granted() space: SpaceAccess,
    @Body() body: ComputeContentDto,
  ): Promise<{ pages: object[]; files: object[]; reusableContents: object[] }> {
    return this.computed.revision(space, body.source, body.seed);
  }
}
