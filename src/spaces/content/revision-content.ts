import { Injectable } from '@nestjs/common';
import { visitorSeesPage } from '../../platform/conditions/page-visibility';
import { notFound } from '../../platform/errors/domain-error';
import { mapPage, type Page } from '../../platform/pagination/page';
import type { JSONDocument } from '../../content-engine/documents/document';
import {
  ContentReader,
  type DocumentReadOptions,
  type PageFormat,
  type ReadPage,
  type ReadRevision,
  visiblePageTrees,
} from '../../content-engine/reads/content-reader';
import { ContentPresenter, type ContentView } from './content.presenter';
import { MergedChangeRequests, type PresentedChangeRequest } from './merged-change-requests';
import type {
  RevisionFileResponse,
  RevisionPageResponse,
  RevisionPagesResponse,
  RevisionResponse,
  RevisionReusableContentResponse,
} from './dto/content.response';

/**
 * The reads of a revision's content as GitBook shapes them, whichever route names the
 * revision: a space's primary, a revision by id, or a change request's head.
 */
@Injectable()
export class RevisionContent {
  constructor(
    private readonly reader: ContentReader,
    private readonly presenter: ContentPresenter,
    private readonly mergedChangeRequests: MergedChangeRequests,
  ) {}

  /**
   * The whole revision: its page tree, its files, its reusable contents and, for a merge, the
   * change request.
   */
  async revision(read: ReadRevision, view: ContentView): Promise<RevisionResponse> {
    const [pages, files, reusableContents, mergedFrom] = await Promise.all([
      this.reader.listPages(read),
      this.reader.listAllFiles(read),
      this.reader.listReusableContents(read),
      this.mergedFrom(read),
    ]);
    return this.presenter.revision(
      read,
      { pages: visiblePageTrees(pages, view.visitor), files, reusableContents },
      view,
      mergedFrom,
    );
  }

  async pages(read: ReadRevision, view: ContentView): Promise<RevisionPagesResponse> {
    const pages = visiblePageTrees(await this.reader.listPages(read), view.visitor);
    return { pages: pages.map((page) => this.presenter.page(page, view)) };
  }

  /** A page by id with its subpages and its body in `format`; 404 when absent. */
  async page(
    read: ReadRevision,
    pageId: string,
    view: ContentView,
    format: PageFormat = 'document',
    options: DocumentReadOptions = {},
  ): Promise<RevisionPageResponse> {
    const found = visiblePage(
      await this.reader.getPage(read, pageId, format, this.pageReadOptions(options, view)),
      view,
    );
    return this.presenter.page(found.page, view, found.body);
  }

  /** A document or group page by path (slugs joined by `/`); 404 when absent. */
  async pageByPath(
    read: ReadRevision,
    path: string,
    view: ContentView,
    format: PageFormat = 'document',
    options: DocumentReadOptions = {},
  ): Promise<RevisionPageResponse> {
    const found = visiblePage(
      await this.reader.getPageByPath(read, path, format, this.pageReadOptions(options, view)),
      view,
    );
    return this.presenter.page(found.page, view, found.body);
  }

  /** A page body's reads as the view's caller makes them: markdown links files it can fetch. */
  private pageReadOptions(options: DocumentReadOptions, view: ContentView): DocumentReadOptions {
    return {
      ...options,
      visitor: view.visitor,
      fileUrl: (file) => this.presenter.file(file, view).downloadURL,
    };
  }

  /** The document of a document page; 404 for an unknown page or one without a document. */
  pageDocument(
    read: ReadRevision,
    pageId: string,
    view: ContentView,
    options: DocumentReadOptions = {},
  ): Promise<JSONDocument> {
    return this.reader.getPageDocument(read, pageId, { ...options, visitor: view.visitor });
  }

  /** A reusable content by id; 404 when the revision has no such reusable content. */
  async reusableContent(
    read: ReadRevision,
    reusableContentId: string,
    view: ContentView,
  ): Promise<RevisionReusableContentResponse> {
    const reusableContent = await this.reader.getReusableContent(read, reusableContentId);
    return this.presenter.reusableContent(reusableContent, view);
  }

  /** The document of a reusable content; 404 when the revision has no such reusable content. */
  reusableContentDocument(
    read: ReadRevision,
    reusableContentId: string,
    view: ContentView,
    options: DocumentReadOptions = {},
  ): Promise<JSONDocument> {
    return this.reader.getReusableContentDocument(read, reusableContentId, {
      ...options,
      visitor: view.visitor,
    });
  }

  async files(
    read: ReadRevision,
    view: ContentView,
    query: { page?: string; limit?: number },
  ): Promise<Page<RevisionFileResponse>> {
    const page = await this.reader.listFiles(read, query);
    return mapPage(page, (file) => this.presenter.file(file, view));
  }

  /** A file by id; 404 when absent. */
  async file(read: ReadRevision, fileId: string, view: ContentView): Promise<RevisionFileResponse> {
    return this.presenter.file(await this.reader.getFile(read, fileId), view);
  }

  /** The change request that a `merge` revision merged (its `revision_merged`). */
  private mergedFrom(read: ReadRevision): Promise<PresentedChangeRequest | undefined> {
    const { revision } = read;
    if (revision.type !== 'merge') return Promise.resolve(undefined);
    return this.mergedChangeRequests.find(revision.spaceId, revision.id);
  }
}

/** The page, if the view's visitor sees it (else 404), with the subpages the visitor sees. */
export function visiblePage(found: ReadPage, view: ContentView): ReadPage {
  const { visitor } = view;
  if (!visitor) return found;
  if (!visitorSeesPage(found.conditions, visitor)) throw notFound('Page');
  const pages = visiblePageTrees(found.page.pages, visitor, found.conditions);
  return { ...found, page: { ...found.page, pages } };
}
