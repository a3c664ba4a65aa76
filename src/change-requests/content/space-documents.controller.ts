import { Controller, Get, Param, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPropertyOptional,
} from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import type { JSONDocument } from '../../content-engine/documents/document';
import { ContentReader } from '../../content-engine/reads/content-reader';
import { Access, Granted } from '../../platform/auth/access.decorator';
import { ErrorBody } from '../../platform/errors/error-body';
import { notFound } from '../../platform/errors/domain-error';
import { JSONDocumentResponse } from '../../spaces/content/dto/content.response';
import type { SpaceAccess } from '../../spaces/space-access.resolver';
import { ChangeRequestsRepository } from '../change-requests.repository';

/** How many change requests' heads a document is looked for in, the last updated first. */
export const DOCUMENT_CHANGE_REQUEST_HEADS = 20;

export class DocumentSchemaQueryDto {
  @ApiPropertyOptional({
    enum: ['current', 'next'],
    description: 'Version of the document schema. Accepted; documents come as stored.',
  })
  @IsOptional()
  @IsIn(['current', 'next'])
  schema?: 'current' | 'next';
}

/**
 * A document of a space by its id (the `documentId` of a page, the `document` of a reusable
 * content: the hash the content store keeps it under).
 */
@Controller('spaces/:spaceId/documents')
export class SpaceDocumentsController {
  constructor(
    private readonly reader: ContentReader,
    private readonly changeRequests: ChangeRequestsRepository,
  ) {}

  @Get(':documentId')
  @Access('space', 'view', {
    siteReaders: true,
    integrations: { installation: 'space:content:read' },
  })
  @ApiOperation({
    operationId: 'getDocumentById',
    summary: 'Get a document of a space by its id',
    description:
      "The JSON document with this id (a page's `documentId`, a reusable content's " +
      '`document`) when the space has it: in its primary revision, or in the head of one of ' +
      `its ${DOCUMENT_CHANGE_REQUEST_HEADS} last updated draft or open change requests. A ` +
      "site token reads the primary's documents only, those of pages its visitor sees, without " +
      'refs to the pages it does not. 404 otherwise: a document of another space, or only of ' +
      'an older revision, is not found.',
  })
  @ApiOkResponse({ type: JSONDocumentResponse })
  @ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' })
  async getDocument(
    @Granted() space: SpaceAccess,
    @Param('documentId') documentId: string,
    @Query() _query: DocumentSchemaQueryDto,
  ): Promise<JSONDocument> {
    const visitor = space.visitor;
    const primary = await this.reader.readRevision(space.id, space.entity.revisionId);
    const found = await this.reader.findDocument(primary, documentId, visitor ? { visitor } : {});
    if (found) return found;
    if (!visitor) {
      const heads = await this.changeRequests.activeHeads(space.id, DOCUMENT_CHANGE_REQUEST_HEADS);
      for (const head of heads) {
        if (head === primary.revision.id) continue;
        const document = await this.reader.findDocument(
          await this.reader.readRevision(space.id, head),
          documentId,
        );
        if (document) return document;
      }
    }
    throw notFound('Document');
  }
}
