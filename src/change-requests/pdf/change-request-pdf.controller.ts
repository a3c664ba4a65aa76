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
import { ChangeRequestPdfService } from './change-request-pdf.service';
import {
  ChangeRequestPdfDownloadQueryDto,
  ChangeRequestPdfQueryDto,
  PdfUrlResponse,
} from './dto/change-request-pdf.dto';
import { PDF_URL_TTL_SECONDS } from './pdf-links';
import { pdfResponse } from './pdf-response';

/** PDF exports of a change request: the signed URL, and the PDF behind it. */
@Controller()
export class ChangeRequestPdfController {
  constructor(private readonly pdfs: ChangeRequestPdfService) {}

  @Get('spaces/:spaceId/change-requests/:changeRequestId/pdf')
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'getChangeRequestPDF',
    summary: 'Get a URL of the content of a change request as PDF',
    description:
      "The change request's content as it is now (its head revision): every page in order, " +
      'or `page` with its subpages, or with `only=true` that page alone. The URL needs no ' +
      `token and works for ${PDF_URL_TTL_SECONDS / 3600} hour.`,
  })
  @ApiParam({ name: 'changeRequestId', description: 'ID or number of the change request.' })
  @ApiOkResponse({ type: PdfUrlResponse })
  @ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' })
  async url(
    @Granted() space: SpaceAccess,
    @Param('changeRequestId') changeRequestId: string,
    @Query() query: ChangeRequestPdfQueryDto,
  ): Promise<PdfUrlResponse> {
    return { url: await this.pdfs.url(space, changeRequestId, query) };
  }

  @Get('pdf/change-requests/:changeRequestId')
  @Access.public()
  @ApiOperation({
    operationId: 'downloadChangeRequestPDF',
    summary: 'Download the PDF of a change request',
    description:
      "The `url` answered by getChangeRequestPDF. No token: the URL's signature is the " +
      `authorization, for ${PDF_URL_TTL_SECONDS / 3600} hour from when it was made; ask again ` +
      'for a fresh one. Always prints the revision that was the head when the URL was made.',
  })
  @ApiParam({ name: 'changeRequestId', description: 'ID of the change request.' })
  @ApiProduces('application/pdf')
  @ApiOkResponse({ description: 'The PDF.' })
  @ApiForbiddenResponse({ type: ErrorBody, description: 'Bad or expired signature.' })
  @ApiNotFoundResponse({ type: ErrorBody, description: 'The change request is gone.' })
  async download(
    @Param('changeRequestId') changeRequestId: string,
    @Query() query: ChangeRequestPdfDownloadQueryDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<StreamableFile> {
    return pdfResponse(await this.pdfs.open(changeRequestId, query), response);
  }
}
