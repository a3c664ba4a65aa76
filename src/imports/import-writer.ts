import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { posix } from 'node:path';
import { Readable } from 'node:stream';
import { DataSource, EntityManager } from 'typeorm';
import { ChangeRequestsService } from '../change-requests/change-requests.service';
import { ChangeRequestContributors } from '../change-requests/reviews/change-request-contributors';
import { ContentEngine } from '../content-engine/content-engine';
import { RevisionsRepository } from '../content-engine/revisions.repository';
import type { PageMeta, PageType } from '../content-engine/tree/format';
import { findPageById } from '../content-engine/tree/read';
import { ContentWriter, type ContentChange } from '../content-engine/writes/content-writer';
import { countLayoutPages, importedDocument } from '../git/jobs/imported-pages';
import { readLayout, type ReadLayoutPage } from '../git/layout/layout-reader';
import { importedLinkMeta } from '../git/sync/page-files';
import { AppConfig } from '../platform/config/app-config';
import { newId } from '../platform/ids/ids';
import type { ImportTree } from './convert/import-tree';
import type { ImportRunPage } from './entities/import-run-page.entity';
import type { ImportRun } from './entities/import-run.entity';

/** Why a run cannot be written, in words for its `reason`. */
export class ImportFailure extends Error {}

/** The pages of a run as its record lists them, in tree order. */
export type PlannedPage = Omit<ImportRunPage, 'runId' | 'position'>;

/** A converted tree made ready to write: its changes, computed outside any transaction. */
export interface PreparedImport {
  changes: ContentChange[];
  pages: PlannedPage[];
  /** Pages to write under (`target.page`), checked again when written. */
  under: string | null;
}

/**
 * Writes an ImportTree (a GitBook Git Sync layout in memory) into a change request, as Git Sync
 * reads a repository: the layout reader makes its pages and files (src/git/layout), each page's
 * markdown becomes a document with Bindery's markdown parser, relative links between pages and
 * to files become content refs (resolveRelativeRefs), and the whole lands in one revision of
 * the change request (ContentWriter.commitOnChangeRequest), under `target.page` when given. The
 * space's primary content never changes.
 */
@Injectable()
export class ImportWriter {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly engine: ContentEngine,
    private readonly writer: ContentWriter,
    private readonly revisions: RevisionsRepository,
    private readonly changeRequests: ChangeRequestsService,
    private readonly contributors: ChangeRequestContributors,
    private readonly config: AppConfig,
  ) {}

  /**
   * Stores the tree's documents and files (content-addressed: nothing waits on a lock) and
   * plans the changes; `warn` hears of what is left out.
   */
  async prepare(
    run: ImportRun,
    tree: ImportTree,
    options: { signal: AbortSignal; warn: (message: string) => void },
  ): Promise<PreparedImport> {
    const { signal, warn } = options;
    const layout = await readLayout(tree.files, newId);
    if (countLayoutPages(layout.pages) === 0) {
      throw new ImportFailure('Nothing to import: the source has no page.');
    }
    const under = run.pageId;
    const root = layout.root === '' ? '' : `${layout.root}/`;
    const pageAt = new Map<string, string>();
    const index = (pages: ReadLayoutPage[]) =>
      pages.forEach((page) => {
        if (page.path) pageAt.set(page.path, page.id);
        index(page.pages);
      });
    index(layout.pages);

    const manager = this.dataSource.manager;
    const store = this.engine.objectStore(manager);
    const changes: ContentChange[] = [];
    const fileAt = new Map<string, string>();
    for (const file of layout.files) {
      signal.throwIfAborted();
      try {
        const stored = await this.writer.storeFileStream(manager, {
          id: file.id,
          name: file.name,
          size: file.data.length,
          maxBytes: this.config.GIT_MAX_FILE_BYTES,
          open: () => Promise.resolve(Readable.from([file.data])),
        });
        changes.push({ operation: 'insert_file', file: stored.hash });
        fileAt.set(file.path, file.id);
      } catch (error) {
        warn(`Left out the file ${file.path}: ${describe(error)}`);
      }
    }

    const pages: PlannedPage[] = [];
    const add = async (page: ReadLayoutPage, into: string | null): Promise<void> => {
      signal.throwIfAborted();
      // Groups are top-level pages: under a page, a group is a page holding its pages.
      const type: PageType = page.type === 'group' && into !== null ? 'document' : page.type;
      const meta: PageMeta = {
        ...page.meta,
        title: page.title,
        ...(page.slug ? { slug: page.slug } : {}),
        ...(page.type === 'link' ? importedLinkMeta(page, pageAt) : {}),
      };
      let document: string | null = null;
      if (type === 'document' && page.markdown !== undefined && page.path) {
        try {
          document = await store.put(
            'document',
            await importedDocument(page.markdown, page.path, pageAt, fileAt),
          );
        } catch (error) {
          warn(
            `${page.path}: imported as an empty page, its markdown could not be read (${describe(error)}).`,
          );
        }
      }
      changes.push({ operation: 'insert_page', id: page.id, type, meta, document, into });
      const source = page.path ? tree.sources.get(`${root}${page.path}`) : undefined;
      pages.push({
        pageId: page.id,
        sourceUrl: source ?? (page.path ? posix.join(layout.root, page.path) : null),
        type: page.markdown === undefined && page.pages.length > 0 ? 'folder' : 'page',
        status: 'pending',
      });
      if (page.type !== 'link') await addAll(page.pages, page.id);
    };
    /** Pages of a list; the subpages of a link (an URL in the summary) follow it. */
    const addAll = async (list: ReadLayoutPage[], into: string | null): Promise<void> => {
      for (const page of list) {
        await add(page, into);
        if (page.type === 'link') await addAll(page.pages, into);
      }
    };
    await addAll(layout.pages, under);
    return { changes, pages, under };
  }

  /**
   * Writes the prepared import in the caller's transaction: into the run's change request, or a
   * new one titled for the import. Answers the change request's id.
   */
  async write(
    manager: EntityManager,
    run: ImportRun,
    prepared: PreparedImport,
    subject: string,
  ): Promise<string> {
    const authorId = run.createdBy;
    if (authorId === null) throw new ImportFailure('The user who started the import is gone.');
    let changeRequestId = run.changeRequestId;
    if (changeRequestId === null) {
      const opened = await this.changeRequests.openInTransaction(manager, run.spaceId, authorId, {
        subject,
      });
      changeRequestId = opened.changeRequest.id;
    }
    const id = changeRequestId;
    await this.writer.commitOnChangeRequest(manager, {
      spaceId: run.spaceId,
      changeRequestId: id,
      authorId,
      changes: async ({ tree, store }) => {
        if (prepared.under !== null && !(await findPageById(store, tree, prepared.under))) {
          throw new ImportFailure(
            `The page ${prepared.under} (target.page) is not in the change request any more.`,
          );
        }
        return prepared.changes;
      },
    });
    await this.contributors.record(manager, id, authorId, 'edit');
    return id;
  }

  /** Whether the page is in the content the import writes into (the change request's, or the primary). */
  async hasPage(
    spaceId: string,
    revisionId: string,
    pageId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const tree = await this.revisions.findTree(revisionId, spaceId, manager);
    if (!tree) return false;
    return (await findPageById(this.engine.objectStore(manager), tree, pageId)) !== undefined;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
