import { Controller, HttpCode, Param, Put, Query, Req } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { Access } from '../../platform/auth/access.decorator';
import { ErrorBody } from '../../platform/errors/error-body';
import { RawBody } from '../../platform/validation/request-body';
import { StorageUploadQueryDto } from './dto/storage-upload.dto';
import { StorageUploads } from './storage-uploads';

/** Where the URLs of `generateStorageUploadURL` take the files' bytes. */
@Controller('storage/uploads')
export class StorageUploadsController {
  constructor(private readonly uploads: StorageUploads) {}

  @Put(':organizationId/:kind/:uploadId')
  @HttpCode(204)
  @Access.public()
  @RawBody()
  @ApiOperation({
    operationId: 'uploadStorageFile',
    summary: 'Upload a file to a signed URL',
    description:
      'The `url` of `generateStorageUploadURL`: the body is the file, as bytes of any ' +
      "Content-Type. No token: the URL's signature is the authorization, until it expires. " +
      'Sending again replaces the file until its key is used.',
  })
  @ApiNoContentResponse({ description: 'The file is stored under its key.' })
  @ApiBadRequestResponse({ type: ErrorBody, description: 'Not a file of the kind.' })
  @ApiForbiddenResponse({ type: ErrorBody, description: 'Bad or expired signature.' })
  @ApiPayloadTooLargeResponse({
    type: ErrorBody,
    description: 'Larger than files of its kind may be.',
  })
  async upload(
    @Param('organizationId') organizationId: string,
    @Param('kind') kind: string,
    @Param('uploadId') uploadId: string,
    @Query() query: StorageUploadQueryDto,
    @Req() request: Request,
  ): Promise<void> {
    const length = Number.parseInt(request.headers['content-length'] ?? '', 10);
    await this.uploads.receive(
      { organizationId, kind, uploadId },
      query,
      request,
      Number.isNaN(length) ? undefined : length,
    );
  }
}
