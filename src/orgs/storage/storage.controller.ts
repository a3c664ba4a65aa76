import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiCreatedResponse, ApiOperation } from '@nestjs/swagger';
import { Access, Granted } from '../../platform/auth/access.decorator';
import { ErrorBody } from '../../platform/errors/error-body';
import type { ResolvedAccess } from '../../platform/policy/access';
import { GenerateStorageUploadUrlDto, StorageUploadUrlResponse } from './dto/storage-upload.dto';
import { StorageUploads, UPLOAD_URL_TTL_SECONDS } from './storage-uploads';

@Controller('orgs/:organizationId/storage')
export class StorageController {
  constructor(private readonly uploads: StorageUploads) {}

  /** Admins: the only kind taken is a custom font's file, which only they may create. */
  @Post('upload')
  @HttpCode(201)
  @Access('organization', 'admin')
  @ApiOperation({
    operationId: 'generateStorageUploadURL',
    summary: 'Create a signed URL to upload a file',
    description:
      'A URL to PUT the file to (its bytes as the body, no token; valid for ' +
      `${UPLOAD_URL_TTL_SECONDS / 60} minutes), and the key that names it in the operation that ` +
      'uses it. Bindery takes `customization_font` files (WOFF2, WOFF, TrueType or OpenType, ' +
      'up to CUSTOM_FONT_MAX_BYTES), for `createCustomFont` and `updateCustomFont`; other kinds ' +
      'answer 400.',
  })
  @ApiCreatedResponse({ type: StorageUploadUrlResponse })
  @ApiBadRequestResponse({
    type: ErrorBody,
    description: 'A kind Bindery does not take, or a file over its size.',
  })
  generate(
    @Granted() organization: ResolvedAccess,
    @Body() body: GenerateStorageUploadUrlDto,
  ): StorageUploadUrlResponse {
    const { url, key } = this.uploads.signedUpload(organization.id, body.kind, body.file.size);
    return { object: 'storage-signed-url', url, key };
  }
}
