import type { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ContentReader } from '../../content-engine/reads/content-reader';
import { notFound } from '../../platform/errors/domain-error';
import type { SpaceAccess } from '../../spaces/space-access.resolver';
import { ChangeRequestsService } from '../change-requests.service';
import { ChangeRequest } from '../entities/change-request.entity';
import type {
  ChangeRequestPdfDownloadQueryDto,
  ChangeRequestPdfQueryDto,
} from './dto/change-request-pdf.dto';
import { PdfLinks } from './pdf-links';
import { PdfWriter } from './pdf-writer';
import { pagesToPrint } from './printed-pages';
import { RevisionPrinter } from './revision-printer';

/** A PDF on its way out: the stream, a file name, and how long the URL that asked stays valid. */
export interface PdfDownload {
  stream: Readable;
  fileName: string;
  remainingSeconds: number;
}

/**
 * PDF exports of change requests. Asking for one checks what is asked (the change request, the
 * page) and answers a signed URL for the change request's head revision; following the URL
 * prints that revision, page by page, straight into the response: a page's document is read,
 * laid out and written before the next one is read.
 */
@Injectable()
export class ChangeRequestPdfService {
  constructor(
    private readonly changeRequests: ChangeRequestsService,
    private readonly reader: ContentReader,
    private readonly links: PdfLinks,
    private readonly printer: RevisionPrinter,
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
    const writer = new PdfWriter({
      title: changeRequest.subject || `Change request #${changeRequest.number}`,
    });
    this.printer.start(writer, revision, pages, `change request ${changeRequest.id}`);
    return {
      stream: writer.document,
      fileName: `change-request-${changeRequest.number}.pdf`,
      remainingSeconds: grant.remainingSeconds,
    };
  }
}
