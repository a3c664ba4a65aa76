import type { Readable } from 'node:stream';
import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { JSONDocument } from '../../content-engine/documents/document';
import { blobKeyOf, MAX_FILE_BYTES } from '../../content-engine/files/file-content';
import {
  ContentReader,
  type FileObject,
  type ReadRevision,
} from '../../content-engine/reads/content-reader';
import type { PageNode } from '../../content-engine/tree/format';
import { BlobStore } from '../../platform/blob-store/blob-store';
import { notFound } from '../../platform/errors/domain-error';
import type { SpaceAccess } from '../../spaces/space-access.resolver';
import { ChangeRequestsService } from '../change-requests.service';
import { ChangeRequest } from '../entities/change-request.entity';
import type {
  ChangeRequestPdfDownloadQueryDto,
  ChangeRequestPdfQueryDto,
} from './dto/change-request-pdf.dto';
import { imageFiles, layoutDocument } from './document-layout';
import { printableImageType, type PrintableImageType } from './image-check';
import { PdfLinks } from './pdf-links';
import { PdfWriter, type PrintedFiles } from './pdf-writer';
import { pagesToPrint, type PageToPrint } from './printed-pages';

/** A PDF on its way out: the stream, a file name, and how long the URL that asked stays valid. */
export interface PdfDownload {
  stream: Readable;
  fileName: string;
  remainingSeconds: number;
}

type LoadedImage = { data: Buffer; type: PrintableImageType };

/**
 * PDF exports of change requests. Asking for one checks what is asked (the change request, the
 * page) and answers a signed URL for the change request's head revision; following the URL
 * prints that revision, page by page, straight into the response: a page's document is read,
 * laid out and written before the next one is read.
 */
@Injectable()
export class ChangeRequestPdfService {
  private readonly logger = new Logger(ChangeRequestPdfService.name);

  constructor(
    private readonly changeRequests: ChangeRequestsService,
    private readonly reader: ContentReader,
    private readonly links: PdfLinks,
    private readonly blobs: BlobStore,
    @InjectRepository(ChangeRequest) private readonly rows: Repository<ChangeRequest>,
  ) {}

  /** The URL of the PDF; 404 for an unknown change request or page. */
  async url(
    space: SpaceAccess,
    changeRequestId: string,
    query: ChangeRequestPdfQueryDto,
  ): Promise<string> {
    const { changeRequest } = await this.changeRequests.get(space, changeRequestId);
    if (query.page !== undefined) {
      const revision = await this.reader.readRevision(space.id, changeRequest.revision);
      await this.reader.getPage(revision, query.page, 'document');
    }
    return this.links.url({
      spaceId: space.id,
      changeRequestId: changeRequest.id,
      revision: changeRequest.revision,
      ...(query.page !== undefined ? { page: query.page } : {}),
      only: query.page !== undefined && query.only === true,
    });
  }

  /**
   * The PDF a signed URL grants (403 for a bad or expired URL, 404 when the change request is
   * gone). Everything that can fail with an answer fails before the first byte.
   */
  async open(
    changeRequestId: string,
    query: ChangeRequestPdfDownloadQueryDto,
  ): Promise<PdfDownload> {
    const grant = this.links.verify(changeRequestId, query);
    const changeRequest = await this.rows.findOneBy({
      id: grant.changeRequestId,
      spaceId: grant.spaceId,
    });
    if (!changeRequest) throw notFound('Change request');
    const revision = await this.reader.readRevision(grant.spaceId, grant.revision);
    const trees =
      grant.page === undefined
        ? await this.reader.listPages(revision)
        : [(await this.reader.getPage(revision, grant.page, 'document')).page];
    const pages = pagesToPrint(trees, grant.only);
    const files = new Map(
      (await this.reader.listAllFiles(revision)).map((file) => [file.id, file] as const),
    );
    const writer = new PdfWriter({
      title: changeRequest.subject || `Change request #${changeRequest.number}`,
    });
    void this.render(writer, changeRequest.id, () => this.write(writer, revision, pages, files));
    return {
      stream: writer.document,
      fileName: `change-request-${changeRequest.number}.pdf`,
      remainingSeconds: grant.remainingSeconds,
    };
  }

  /**
   * Runs `write` and ends the PDF; a failure half-way can no longer be answered as an error, so
   * it is logged and the stream destroyed (the client sees a broken download, not a short PDF).
   */
  private async render(
    writer: PdfWriter,
    changeRequestId: string,
    write: () => Promise<void>,
  ): Promise<void> {
    try {
      await write();
      if (!writer.document.destroyed) writer.end();
    } catch (error) {
      this.logger.error(
        `PDF of change request ${changeRequestId} failed: ${String(error)}`,
        error instanceof Error ? error.stack : undefined,
      );
      writer.document.destroy(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private async write(
    writer: PdfWriter,
    revision: ReadRevision,
    pages: PageToPrint[],
    files: Map<string, FileObject>,
  ): Promise<void> {
    const titles = new Map(pages.map(({ node }) => [node.id, node.meta.title] as const));
    const context = { pageTitle: (id: string) => titles.get(id) };
    // Images already handed to the writer, which keeps them for later pages.
    const loaded = new Set<string>();
    for (const { node, depth } of pages) {
      // The response is gone (the client went away): stop reading.
      if (writer.document.destroyed) return;
      const document = await this.documentOf(revision, node);
      const blocks = document ? layoutDocument(document, context) : [];
      const images = new Map<string, LoadedImage>();
      for (const fileId of imageFiles(blocks)) {
        if (loaded.has(fileId)) continue;
        loaded.add(fileId);
        const image = await this.loadImage(files.get(fileId));
        if (image) images.set(fileId, image);
      }
      const printedFiles: PrintedFiles = {
        image: (id) => images.get(id),
        name: (id) => files.get(id)?.name,
      };
      writer.page({ title: titleOf(node), depth, blocks, href: hrefOf(node) }, printedFiles);
    }
  }

  private async documentOf(revision: ReadRevision, node: PageNode): Promise<JSONDocument | null> {
    if (node.type !== 'document' || node.document === null) return null;
    const { body } = await this.reader.getPage(revision, node.id, 'document');
    return 'document' in body ? body.document : null;
  }

  /** The bytes of an image file a PDF can show (PNG or JPEG, by its bytes); undefined otherwise. */
  private async loadImage(file: FileObject | undefined): Promise<LoadedImage | undefined> {
    if (!file?.blob || file.size > MAX_FILE_BYTES) return undefined;
    const data = await this.blobs.get(blobKeyOf(file.blob));
    const type = data ? printableImageType(data) : undefined;
    return data && type ? { data, type } : undefined;
  }
}

function titleOf(node: PageNode): string {
  if (typeof node.meta.title === 'string' && node.meta.title !== '') return node.meta.title;
  return node.type === 'link' ? 'Link' : 'Untitled';
}

/** Where a link page goes: its resolved URL, or a URL target. */
function hrefOf(node: PageNode): string | undefined {
  if (node.type !== 'link') return undefined;
  if (typeof node.meta.href === 'string') return node.meta.href;
  const target = node.meta.target as { kind?: unknown; url?: unknown } | undefined;
  return target?.kind === 'url' && typeof target.url === 'string' ? target.url : undefined;
}
