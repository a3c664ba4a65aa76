import type { Readable } from 'node:stream';
import { Controller, Get, Param, Res, StreamableFile } from '@nestjs/common';
import {
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { FONT_CONTENT_TYPES } from '../../orgs/storage/font-files';
import { Access } from '../../platform/auth/access.decorator';
import { BlobStore } from '../../platform/blob-store/blob-store';
import { notFound } from '../../platform/errors/domain-error';
import { ErrorBody } from '../../platform/errors/error-body';
import { fontBlobKey, servedFontFormat } from './custom-font-files';
import { CUSTOM_FONT_FILES } from './custom-fonts.presenter';

const YEAR_SECONDS = 365 * 24 * 60 * 60;

/** The files of custom fonts: what published sites' `@font-face` rules load. */
@Controller(CUSTOM_FONT_FILES)
export class CustomFontFilesController {
  constructor(private readonly blobs: BlobStore) {}

  @Get(':fontId/:file')
  @Access.public()
  @ApiOperation({
    operationId: 'getCustomFontFile',
    summary: "A custom font's file",
    description:
      "Bindery's own. The URLs of a custom font's `fontFaces[].sources`: no token (sites' " +
      'visitors load them), any origin (`Access-Control-Allow-Origin: *`, for `@font-face` ' +
      'across origins), cached for a year (a file is never rewritten: a new one gets a new ' +
      'URL). 404 once the font, or that face, is gone.',
  })
  @ApiParam({ name: 'file', description: 'The file: `<id>.<woff2|woff|ttf|otf>`.' })
  @ApiProduces(...Object.values(FONT_CONTENT_TYPES))
  @ApiOkResponse({ description: 'The font file.' })
  @ApiNotFoundResponse({ type: ErrorBody, description: 'No such font file.' })
  async file(
    @Param('fontId') fontId: string,
    @Param('file') file: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<StreamableFile> {
    const format = servedFontFormat(fontId, file);
    if (format === null) throw notFound('Font file');
    const key = fontBlobKey(fontId, file);
    const opening = this.blobs.createReadStream(key);
    const [size, stream] = await Promise.all([this.blobs.size(key), opening]).catch(
      async (error: unknown) => {
        // The store failed (503): a stream opened all the same would hold its connection.
        ((await opening.catch(() => null)) as Readable | null)?.destroy();
        throw error;
      },
    );
    if (size === null || stream === null) {
      (stream as Readable | null)?.destroy();
      throw notFound('Font file');
    }
    response.once('close', () => (stream as Readable).destroy());
    response.setHeader('Cache-Control', `public, max-age=${YEAR_SECONDS}, immutable`);
    response.setHeader('X-Content-Type-Options', 'nosniff');
    // Sites load fonts from their own origin, anonymously (CORS mode, no credentials).
    response.setHeader('Access-Control-Allow-Origin', '*');
    response.removeHeader('Access-Control-Allow-Credentials');
    return new StreamableFile(stream as Readable, {
      type: FONT_CONTENT_TYPES[format],
      length: size,
    });
  }
}
