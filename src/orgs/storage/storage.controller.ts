import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiCreatedResponse, ApiOperation } from '@nestjs/swagger';
import { Access, Granted } from '../../platform/auth/access.decorator';
import { ErrorBody } from '../../platform/errors/error-body';
import { forbidden } from '../../platform/errors/domain-error';
import type { ResolvedAccess } from '../../platform/policy/access';
import { atLeast } from '../../platform/policy/roles';
import { GenerateStorageUploadUrlDto, StorageUploadUrlResponse } from './dto/storage-upload.dto';
import { StorageUploads, UPLOAD_URL_TTL_SECONDS } from './storage-uploads';

@Controller('orgs/:organizationId/storage')
export class StorageController {
  constructor(private readonly uploads: StorageUploads) {}

  /**
   * Members who edit content may upload files to import (`import_file`); a custom font's file
   * (`customization_font`) takes an admin, who alone may create fonts.
   */
  @Post('upload')
  @HttpCode(201)
  @Access('organization', 'edit')
  @ApiOperation({
    operationId: 'generateStorageUploadURL',
    summary: 'Create a signed URL to upload a file',
    description:
      'A URL to PUT the file to (its bytes as the body, no token; valid for ' +
      `${UPLOAD_URL_TTL_SECONDS / 60} minutes), and the key that names it in the operation that ` +
      'uses it. Bindery takes `customization_font` files (WOFF2, WOFF, TrueType or OpenType, ' +
      'up to CUSTOM_FONT_MAX_BYTES; admins only), for `createCustomFont` and `updateCustomFont`, ' +
      'and `import_file` files (`.md`, `.markdown`, `.html`, `.htm`, `.docx` or `.zip`, by ' +
      '`file.name`, up to IMPORT_FILE_MAX_BYTES; members with the edit role), for ' +
      '`startImportRun`; `organization_file` answers 400.',
  })
  @ApiCreatedResponse({ type: StorageUploadUrlResponse })
  @ApiBadRequestResponse({
    type: ErrorBody,
    description: 'A kind Bindery does not take, or a file over its size.',
  })
  async generate(
    @Granted() organization: ResolvedAccess,
    @Body() body: GenerateStorageUploadUrlDto,
  ): Promise<StorageUploadUrlResponse> {
    if (body.kind === 'customization_font' && !atLeast(organization.role, 'admin')) {
      throw forbidden('Uploading a font needs the admin role on this organization.');
    }
    const { url, key } = await this.uploads.signedUpload(
      organization.id,
      body.kind,
      body.file.size,
      body.file.name,
    );
    return { object: 'storage-signed-url', url, key };
  }
}
