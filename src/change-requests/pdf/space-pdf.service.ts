import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { ContentReader } from '../../content-engine/reads/content-reader';
import { notFound } from '../../platform/errors/domain-error';
import { Space } from '../../spaces/entities/space.entity';
import type { SpaceAccess } from '../../spaces/space-access.resolver';
import type { PdfDownload } from './change-request-pdf.service';
import type { SpacePdfDownloadQueryDto, SpacePdfQueryDto } from './dto/change-request-pdf.dto';
import { PdfLinks } from './pdf-links';
import { PdfWriter } from './pdf-writer';
import { pagesToPrint } from './printed-pages';
import { RevisionPrinter } from './revision-printer';

/**
 * PDF exports of a space's primary content: asking checks the page and answers a signed URL of
 * the primary revision as it is then; following the URL prints that revision, printed like a
 * change request's (RevisionPrinter).
 */
@Injectable()
export class SpacePdfService {
  constructor(
    private readonly reader: ContentReader,
    private readonly links: PdfLinks,
    private readonly printer: RevisionPrinter,
    @InjectRepository(Space) private readonly spaces: Repository<Space>,
  ) {}

  /** The URL of the PDF; 404 for an unknown page. */
  async url(space: SpaceAccess, query: SpacePdfQueryDto): Promise<string> {
    const revisionId = space.entity.revisionId;
    if (query.page !== undefined) {
      const revision = await this.reader.readRevision(space.id, revisionId);
      await this.reader.getPage(revision, query.page, 'document');
    }
    return this.links.spaceUrl({
      spaceId: space.id,
      revision: revisionId,
      ...(query.page !== undefined ? { page: query.page } : {}),
      only: query.page !== undefined && query.only === true,
    });
  }

  /** The PDF a signed URL grants (403 for a bad or expired URL, 404 when the space is gone). */
  async open(spaceId: string, query: SpacePdfDownloadQueryDto): Promise<PdfDownload> {
    const grant = this.links.verifySpace(spaceId, query);
    const space = await this.spaces.findOneBy({ id: grant.spaceId, deletedAt: IsNull() });
    if (!space) throw notFound('Space');
    const revision = await this.reader.readRevision(space.id, grant.revision);
    const trees =
      grant.page === undefined
        ? await this.reader.listPages(revision)
        : [(await this.reader.getPage(revision, grant.page, 'document')).page];
    const pages = pagesToPrint(trees, grant.only);
    const writer = new PdfWriter({ title: space.title || 'Space' });
    this.printer.start(writer, revision, pages, `space ${space.id}`);
    return {
      stream: writer.document,
      fileName: 'space.pdf',
      remainingSeconds: grant.remainingSeconds,
    };
  }
}
