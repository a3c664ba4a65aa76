import { Controller, Get, Param, Query, Res, StreamableFile } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Access, Granted } from '../../platform/auth/access.decorator';
import { ErrorBody } from '../../platform/errors/error-body';
import type { SpaceAccess } from '../../spaces/space-access.resolver';
import {
  PdfUrlResponse,
  SpacePdfDownloadQueryDto,
  SpacePdfQueryDto,
} from './dto/change-request-pdf.dto';
import { PDF_URL_TTL_SECONDS } from './pdf-links';
import { pdfResponse } from './pdf-response';
import { SpacePdfService } from './space-pdf.service';

/**
 * PDF exports of a space's content: the signed URL, and the PDF behind it. Here rather than in
 * spaces/ because they print with the change requests' PDF writer.
 */
@Controller()
export class SpacePdfController {
  constructor(private readonly pdfs: SpacePdfService) {}

  @Get('spaces/:spaceId/pdf')
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'getSpacePDF',
    summary: 'Get a URL of the content of a space as PDF',
    description:
      "The space's primary content as it is now: every page in order, or `page` with its " +
      'subpages, or with `only=true` that page alone. The URL needs no token and works for ' +
      `${PDF_URL_TTL_SECONDS / 3600} hour.`,
  })
  @ApiOkResponse({ type: PdfUrlResponse })
  @ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' })
  async url(
    @Granted() space: SpaceAccess,
    @Query() query: SpacePdfQueryDto,
  ): Promise<PdfUrlResponse> {
    return { url: await this.pdfs.url(space, query) };
  }

  @Get('pdf/spaces/:spaceId')
  @Access.public()
  @ApiOperation({
    operationId: 'downloadSpacePDF',
    summary: 'Download the PDF of a space',
    description:
      "The `url` answered by getSpacePDF. No token: the URL's signature is the authorization, " +
      `for ${PDF_URL_TTL_SECONDS / 3600} hour from when it was made. Always prints the ` +
      'revision that was primary when the URL was made.',
  })
  @ApiParam({ name: 'spaceId', description: 'ID of the space.' })
  @ApiProduces('application/pdf')
  @ApiOkResponse({ description: 'The PDF.' })
  @ApiForbiddenResponse({ type: ErrorBody, description: 'Bad or expired signature.' })
  @ApiNotFoundResponse({ type: ErrorBody, description: 'The space is gone.' })
  async download(
    @Param('spaceId') spaceId: string,
    @Query() query: SpacePdfDownloadQueryDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<StreamableFile> {
    return pdfResponse(await this.pdfs.open(spaceId, query), response);
  }
}
