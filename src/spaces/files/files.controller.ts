import type { Readable } from 'node:stream';
import { Controller, Get, Param, Query, Res, StreamableFile } from '@nestjs/common';
import {
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Access } from '../../platform/auth/access.decorator';
import { BlobStore } from '../../platform/blob-store/blob-store';
import { notFound } from '../../platform/errors/domain-error';
import { ErrorBody } from '../../platform/errors/error-body';
import { FileDownloadQueryDto } from './dto/file-download-query.dto';
import { blobKeyOf } from '../../content-engine/files/file-content';
import { DOWNLOAD_URL_TTL_SECONDS, FileDownloads } from '../../content-engine/files/file-downloads';

/** `Content-Disposition: inline` with an ASCII fallback name and the exact one (RFC 6266/5987). */
export function inlineDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const exact = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `inline; filename="${fallback}"; filename*=UTF-8''${exact}`;
}

/** File bytes behind the `downloadURL` of RevisionFile objects. */
@Controller('files')
export class FilesController {
  constructor(
    private readonly downloads: FileDownloads,
    private readonly blobs: BlobStore,
  ) {}

  @Get('sha256/:digest')
  @Access.public()
  @ApiOperation({
    operationId: 'downloadFile',
    summary: 'Download the bytes of a file',
    description:
      `The \`downloadURL\` of a RevisionFile. No token: the URL's signature is the authorization. ` +
      `A URL is valid for ${DOWNLOAD_URL_TTL_SECONDS / 3600} hour from when the file was read; ` +
      'read the file again for a fresh one. Served inline under the file name and content type.',
  })
  @ApiParam({ name: 'digest', description: 'SHA-256 (hex) of the bytes.' })
  @ApiProduces('application/octet-stream')
  @ApiOkResponse({ description: 'The bytes.' })
  @ApiForbiddenResponse({ type: ErrorBody, description: 'Bad or expired signature.' })
  @ApiNotFoundResponse({ type: ErrorBody, description: 'The bytes are no longer stored.' })
  async download(
    @Param('digest') digest: string,
    @Query() query: FileDownloadQueryDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<StreamableFile> {
    const blobKey = blobKeyOf(digest);
    const grant = this.downloads.verify(blobKey, query);
    const opening = this.blobs.createReadStream(blobKey);
    const [size, stream] = await Promise.all([this.blobs.size(blobKey), opening]).catch(
      async (error: unknown) => {
        // The store failed (503): a stream opened all the same would hold its connection.
        ((await opening.catch(() => null)) as Readable | null)?.destroy();
        throw error;
      },
    );
    if (size === null || stream === null) {
      (stream as Readable | null)?.destroy();
      throw notFound('File');
    }
    // A client that goes away mid-download must not leave the blob open (on S3, a connection).
    response.once('close', () => (stream as Readable).destroy());
    // no-transform: the stored bytes as they are, with their length (the response compression
    // and any proxy leave them alone).
    response.setHeader('Cache-Control', `private, max-age=${grant.remainingSeconds}, no-transform`);
    response.setHeader('X-Content-Type-Options', 'nosniff');
    // Uploaded HTML or SVG must not run as a page of the API's origin.
    response.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
    return new StreamableFile(stream as Readable, {
      type: grant.contentType,
      length: size,
      disposition: inlineDisposition(grant.name),
    });
  }
}
