import { Controller, Get, Param, Res, StreamableFile } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProduces } from '@nestjs/swagger';
import type { Response } from 'express';
import { Access } from '../platform/auth/access.decorator';
import { BlobStore } from '../platform/blob-store/blob-store';
import { notFound } from '../platform/errors/domain-error';
import { ErrorBody } from '../platform/errors/error-body';
import { imageBlobKey } from './integrations.service';
import { imageTypeOf } from './manifest/images';

/** The icons and preview images of integrations (`urls.icon`, `previewImages`), by digest. */
@Controller('integration-images')
export class IntegrationImagesController {
  constructor(private readonly blobs: BlobStore) {}

  @Get(':digest')
  @Access.public()
  @ApiOperation({
    operationId: 'getIntegrationImage',
    summary: "An integration's icon or preview image",
    description:
      "Bindery's own. The URLs in an integration's `urls.icon` and `previewImages`, named by " +
      'the SHA-256 of the bytes, so they never change: cached for a year.',
  })
  @ApiProduces('image/png', 'image/jpeg', 'image/gif', 'image/webp')
  @ApiOkResponse({ description: 'The image.' })
  @ApiNotFoundResponse({ type: ErrorBody, description: 'No such image.' })
  async image(
    @Param('digest') digest: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<StreamableFile> {
    const bytes = /^[0-9a-f]{64}$/.test(digest) ? await this.blobs.get(imageBlobKey(digest)) : null;
    const type = bytes && imageTypeOf(bytes);
    if (!bytes || !type) throw notFound('Image');
    response.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    response.setHeader('X-Content-Type-Options', 'nosniff');
    return new StreamableFile(bytes, { type, length: bytes.length });
  }
}
