import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { LRUCache } from 'lru-cache';
import { DataSource, EntityManager, In } from 'typeorm';
import type { VisitorClaims } from '../../platform/conditions/evaluate';
import { visitorSeesPage, withPageCondition } from '../../platform/conditions/page-visibility';
import { DomainError, invalidInput, notFound } from '../../platform/errors/domain-error';
import { DEFAULT_PAGE_SIZE } from '../../platform/pagination/page-query.dto';
import { decodeCursor, encodeCursor } from '../../platform/pagination/keyset';
import type { Page } from '../../platform/pagination/page';
import { ContentEngine } from '../content-engine';
import { ContentObjectsRepository } from '../content-objects.repository';
import { emptyDocument, type JSONDocument } from '../documents/document';
import { documentToMarkdown } from '../documents/markdown';
import { withoutMarkdownSource } from '../documents/markdown-source';
import { referencedPageIds, withoutPageRefs } from '../documents/page-refs';
import { dereferenceReusableContents } from '../documents/reusable-contents';
import {
  keptPath,
  planMarkdownPaths,
  type MarkdownPaths,
  type PathPage,
} from '../refs/markdown-paths';
import { tableRefs } from '../links/document-references';
import { refToMarkdownUrl, type MarkdownRefs } from '../refs/markdown-refs';
import { Revision } from '../entities/revision.entity';
import {
  childRefs,
  hasPath,
  readPage,
  readRoot,
  type AnyRoot,
  type ChildRef,
  type PageMeta,
  type PageNode,
  type ReusableContentNode,
} from '../tree/format';
import { CachedObjectStore, getRequired, type ObjectStore } from '../tree/object-store';
import { pagePathChanges, type PagePathChange } from '../tree/page-path-changes';
import { findPageById, findPageByPath, type TreePage } from '../tree/read';
import { BatchedObjectStore } from './batched-object-store';

/** Objects kept in memory by hash, per process (they never change, so never go stale). */
export const READ_CACHE_ENTRIES = 10_000;

export const PAGE_FORMATS = ['document', 'markdown'] as const;
export type PageFormat = (typeof PAGE_FORMATS)[number];

/** A page of a revision with where it sits and, loaded with it, its subpages. */
export interface PageTree {
  node: PageNode;
  /** Slugs from the top joined by `/`; null for links and computed pages. */
  path: string | null;
  pages: PageTree[];
}

/** A page's body as `format` asks: none for an empty page or a page that has no document. */
export type PageBody = { document: JSONDocument } | { markdown: string } | Record<string, never>;

export interface ReadPage {
  page: PageTree;
  body: PageBody;
  /** The adaptive-content conditions of the page and its ancestors, top first. */
  conditions: string[];
}

/** Where a page is in a revision, without its body or subpages. */
export interface PageLocation {
  id: string;
  type: PageNode['type'];
  /** Slugs from the top joined by `/`; null for links and computed pages. */
  path: string | null;
  /** The adaptive-content conditions of the page and its ancestors, top first. */
  conditions: string[];
}

/** A page under adaptive-content conditions (its own or an ancestor's), top first. */
export interface ConditionedPage {
  id: string;
  conditions: string[];
}

/** File metadata as a tree stores it (by hash, in the root's `files`). */
export interface FileObject {
  id: string;
  name: string;
  contentType: string;
  size: number;
  /** SHA-256 of the bytes (see FileNode); absent on files whose bytes Bindery does not hold. */
  blob?: string;
  dimensions?: { width: number; height: number };
  git?: { oid: string; path: string };
  [key: string]: unknown;
}

/**
 * How a document is read. `dereferenceReusableContents`: its reusable-content blocks are
 * replaced by the contents they include (see dereferenceReusableContents). Expressions are never
 * evaluated: documents come as stored.
 */
export interface DocumentReadOptions {
  dereferenceReusableContents?: boolean;
  /** How markdown bodies write their refs (GitBook's `format.markdown.refs`; `relative`). */
  markdownRefs?: MarkdownRefs;
  /**
   * A published site's visitor reading it: a page the visitor does not see is absent, from the
   * layout that markdown refs are planned in too, and documents have no refs to it
   * (withoutPageRefs: a link keeps its text, a mention or a content-ref block goes).
   */
  visitor?: VisitorClaims;
  /**
   * Markdown bodies: the URL a reader fetches a file of the revision at (its `downloadURL`),
   * written for every ref to one; without it, file refs are written as `markdownRefs` says.
   */
  fileUrl?: (file: FileObject) => string;
  /** Markdown bodies: DocumentToMarkdownOptions.keepSource (true unless false). */
  keepMarkdownSource?: boolean;
}

/** A revision's content as read: its row and its tree's root. */
export interface ReadRevision {
  revision: Revision;
  root: AnyRoot;
}

const FILES_CURSOR = 'files';

/**
 * Reads revisions: their page trees, pages with their bodies, files. Works on any revision of
 * a space (the primary, a change request's head, an old one), through one process-wide cache
 * of content objects in front of batched reads of `content_objects`.
 */
@Injectable()
export class ContentReader {
  private readonly store: ObjectStore;
  /** Revision rows by id: immutable, so kept as read (a purged space's go unread). */
  private readonly revisions = new LRUCache<string, Revision>({ max: READ_CACHE_ENTRIES });
  /**
   * Markdown layouts by tree hash (immutable too) and, when planned for a visitor who does not
   * see some pages, by their ids, for reads of markdown.
   */
  private readonly layouts = new LRUCache<string, Promise<MarkdownPaths>>({ max: 64 });
  /** The conditioned pages of a tree, by its hash: most trees have none, and are read once. */
  private readonly conditioned = new LRUCache<string, Promise<ConditionedPage[]>>({ max: 256 });
  /**
   * The pages each document refers to, by the document as the object cache holds it (frozen,
   * so they never change), so a document is walked once to learn that it links to no hidden
   * page; a dereferenced document is a new object each time, and walked each time.
   */
  private readonly pageRefs = new WeakMap<JSONDocument, ReadonlySet<string>>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly engine: ContentEngine,
    objects: ContentObjectsRepository,
  ) {
    const database = new BatchedObjectStore(
      dataSource.manager,
      (kind, data) => engine.put(dataSource.manager, kind, data),
      objects,
    );
    this.store = new CachedObjectStore(database, { maxEntries: READ_CACHE_ENTRIES });
  }

  /** The objects these reads go through (cached by hash, batched), for the engine's other reads. */
  get objects(): ObjectStore {
    return this.store;
  }

  /** A revision of `spaceId` by id; 404 for an unknown one or another space's. */
  async readRevision(spaceId: string, revisionId: string): Promise<ReadRevision> {
    let revision = this.revisions.get(revisionId);
    if (!revision) {
      revision =
        (await this.dataSource.manager.findOneBy(Revision, { id: revisionId, spaceId })) ??
        undefined;
      if (revision) this.revisions.set(revisionId, revision);
    }
    if (!revision || revision.spaceId !== spaceId) {
      throw notFound('Revision');
    }
    return { revision, root: await readRoot(this.store, revision.tree) };
  }

  /** Every page of the revision, nested, in order. */
  async listPages(revision: ReadRevision): Promise<PageTree[]> {
    return this.loadTrees(await childRefs(this.store, revision.root.pages), '');
  }

  /** The page with this id and its subpages, with its body per `format`; 404 when absent. */
  async getPage(
    revision: ReadRevision,
    pageId: string,
    format: PageFormat,
    options: DocumentReadOptions = {},
  ): Promise<ReadPage> {
    const found = await findPageById(this.store, revision.revision.tree, pageId);
    if (!found) {
      throw notFound('Page');
    }
    return this.readFound(revision, found, format, options);
  }

  /**
   * The page with this id as the revision has it, without its subpages (`pages` is empty) or
   * its body; undefined when absent.
   */
  async findPage(revision: ReadRevision, pageId: string): Promise<PageTree | undefined> {
    const found = await findPageById(this.store, revision.revision.tree, pageId);
    return found ? { node: pageNode(found), path: found.path, pages: [] } : undefined;
  }

  /**
   * Whether the revision has a page (of any variant) with this id that `visitor`, a published
   * site's visitor, sees (anyone else sees every page).
   */
  async hasPage(revision: ReadRevision, pageId: string, visitor?: VisitorClaims): Promise<boolean> {
    const found = await findPageById(this.store, revision.revision.tree, pageId);
    return found !== undefined && visitorSeesPage(found.conditions, visitor);
  }

  /**
   * The ids of the revision's pages that `visitor` does not see: those whose condition, or an
   * ancestor's, it does not meet (so a hidden page's subpages are among them).
   */
  async hiddenPageIds(revision: ReadRevision, visitor: VisitorClaims): Promise<string[]> {
    const conditioned = await this.conditionedPages(revision);
    return conditioned
      .filter((page) => !visitorSeesPage(page.conditions, visitor))
      .map((page) => page.id);
  }

  /** The document or group page at `path` (slugs joined by `/`); 404 when absent. */
  async getPageByPath(
    revision: ReadRevision,
    path: string,
    format: PageFormat,
    options: DocumentReadOptions = {},
  ): Promise<ReadPage> {
    const found = await findPageByPath(this.store, revision.revision.tree, path);
    if (!found || !hasPath(found.type)) {
      throw notFound('Page');
    }
    return this.readFound(revision, found, format, options);
  }

  /**
   * The document of a document page (an empty document for one without any); 404 for an
   * unknown page, one `options.visitor` does not see, and a page of another variant (groups,
   * links and computed pages have no document).
   */
  async getPageDocument(
    revision: ReadRevision,
    pageId: string,
    options: DocumentReadOptions = {},
  ): Promise<JSONDocument> {
    const found = await findPageById(this.store, revision.revision.tree, pageId);
    if (!found || !visitorSeesPage(found.conditions, options.visitor)) {
      throw notFound('Page');
    }
    if (found.type !== 'document') {
      throw new DomainError(
        'not_found',
        'PageDocumentNotFound',
        `The page is a ${found.type} page, which has no document.`,
      );
    }
    return this.answerDocument(revision, found.documentHash, options);
  }

  /** The revision's reusable contents, in order. */
  listReusableContents(revision: ReadRevision): Promise<ReusableContentNode[]> {
    return Promise.all(
      revision.root.reusableContents.map((hash) =>
        getRequired<ReusableContentNode>(this.store, hash),
      ),
    );
  }

  /** A reusable content of the revision by id; 404 when the revision has none by that id. */
  async getReusableContent(
    revision: ReadRevision,
    reusableContentId: string,
  ): Promise<ReusableContentNode> {
    const reusableContent = (await this.listReusableContents(revision)).find(
      (candidate) => candidate.id === reusableContentId,
    );
    if (!reusableContent) {
      throw notFound('Reusable content');
    }
    return reusableContent;
  }

  /** The document of a reusable content of the revision (empty when it has none); 404 when absent. */
  async getReusableContentDocument(
    revision: ReadRevision,
    reusableContentId: string,
    options: DocumentReadOptions = {},
  ): Promise<JSONDocument> {
    const reusableContent = await this.getReusableContent(revision, reusableContentId);
    return this.answerDocument(revision, reusableContent.document ?? null, options, [
      reusableContentId,
    ]);
  }

  /**
   * The document `documentId` (a document's id is its hash) when the revision has it as the
   * body of a document page that `options.visitor` sees or of a reusable content; null when it
   * has not (a document of another revision or space is not read). As getPageDocument answers
   * it, with `options` (dereferenced, a visitor's refs left out).
   */
  async findDocument(
    revision: ReadRevision,
    documentId: string,
    options: DocumentReadOptions = {},
  ): Promise<JSONDocument | null> {
    const reusableContent = (await this.listReusableContents(revision)).find(
      (candidate) => candidate.document === documentId,
    );
    if (reusableContent) {
      return this.answerDocument(revision, documentId, options, [reusableContent.id]);
    }
    const hidden = options.visitor
      ? new Set(await this.hiddenPageIds(revision, options.visitor))
      : new Set<string>();
    const holds = (pages: PageTree[]): boolean =>
      pages.some(
        (page) =>
          !hidden.has(page.node.id) &&
          ((page.node.type === 'document' && page.node.document === documentId) ||
            holds(page.pages)),
      );
    if (!holds(await this.listPages(revision))) return null;
    return this.answerDocument(revision, documentId, options);
  }

  /** Where the page with this id, or at this path (slugs joined by `/`), is; null when absent. */
  async locatePage(
    revision: ReadRevision,
    page: { id: string } | { path: string },
  ): Promise<PageLocation | null> {
    const tree = revision.revision.tree;
    const found =
      'id' in page
        ? await findPageById(this.store, tree, page.id)
        : await findPageByPath(this.store, tree, page.path);
    return found
      ? { id: found.id, type: found.type, path: found.path, conditions: found.conditions }
      : null;
  }

  /**
   * Where a page is in a revision, read in `manager`'s transaction (the revision row and every
   * object): for a writer that checks a page while it holds its transaction (on the embedded
   * database, a read outside it would wait for it). Null when the page is not there.
   */
  async locatePageIn(
    manager: EntityManager,
    spaceId: string,
    revisionId: string,
    page: { id: string } | { path: string },
  ): Promise<PageLocation | null> {
    const revision = await manager.findOneBy(Revision, { id: revisionId, spaceId });
    if (!revision) return null;
    const store = new CachedObjectStore(this.engine.objectStore(manager));
    const found =
      'id' in page
        ? await findPageById(store, revision.tree, page.id)
        : await findPageByPath(store, revision.tree, page.path);
    return found
      ? { id: found.id, type: found.type, path: found.path, conditions: found.conditions }
      : null;
  }

  /**
   * The pages of `spaceId` whose path differs from revision `fromRevisionId` to
   * `toRevisionId` (moved, or a slug on their path renamed), reading only the parts of the
   * trees that differ. Reads in `manager`'s transaction, which may be the one that wrote the
   * later revision (a PrimaryMovedListener's).
   */
  async pagePathChanges(
    manager: EntityManager,
    spaceId: string,
    fromRevisionId: string,
    toRevisionId: string,
  ): Promise<PagePathChange[]> {
    const revisions = await manager.findBy(Revision, {
      id: In([fromRevisionId, toRevisionId]),
      spaceId,
    });
    const treeOf = (id: string) => {
      const revision = revisions.find((candidate) => candidate.id === id);
      if (!revision) throw notFound('Revision');
      return revision.tree;
    };
    const store = new CachedObjectStore(this.engine.objectStore(manager));
    return pagePathChanges(store, treeOf(fromRevisionId), treeOf(toRevisionId));
  }

  /** The revision's files in tree order, `limit` at a time. */
  async listFiles(
    revision: ReadRevision,
    request: { page?: string; limit?: number },
  ): Promise<Page<FileObject>> {
    const files = await this.listAllFiles(revision);
    let start = 0;
    if (request.page) {
      const [after] = decodeCursor(request.page, FILES_CURSOR, 1);
      const index = files.findIndex((file) => file.id === after);
      if (index < 0) {
        throw invalidInput('page is not a valid page identifier for this list.');
      }
      start = index + 1;
    }
    const limit = request.limit ?? DEFAULT_PAGE_SIZE;
    const items = files.slice(start, start + limit);
    const more = start + limit < files.length;
    return {
      items,
      count: files.length,
      ...(more ? { next: { page: encodeCursor([items[items.length - 1].id], FILES_CURSOR) } } : {}),
    };
  }

  /** A file of the revision by id; 404 when absent. */
  async getFile(revision: ReadRevision, fileId: string): Promise<FileObject> {
    const file = (await this.listAllFiles(revision)).find((candidate) => candidate.id === fileId);
    if (!file) {
      throw notFound('File');
    }
    return file;
  }

  /** Every file of the revision, in tree order. */
  listAllFiles(revision: ReadRevision): Promise<FileObject[]> {
    return Promise.all(
      revision.root.files.map((hash) => getRequired<FileObject>(this.store, hash)),
    );
  }

  private async readFound(
    revision: ReadRevision,
    found: TreePage,
    format: PageFormat,
    options: DocumentReadOptions,
  ): Promise<ReadPage> {
    const node = pageNode(found);
    const [pages, body] = await Promise.all([
      this.loadTrees(found.pages, found.path),
      this.body(revision, node, format, options),
    ]);
    return { page: { node, path: found.path, pages }, body, conditions: found.conditions };
  }

  private async body(
    revision: ReadRevision,
    node: PageNode,
    format: PageFormat,
    options: DocumentReadOptions,
  ): Promise<PageBody> {
    if (node.type !== 'document') return {};
    if (format !== 'markdown') {
      return node.document === null
        ? {}
        : { document: await this.answerDocument(revision, node.document, options) };
    }
    // GitBook answers every document page in markdown, an empty one too: its title as the
    // first heading, then its body (the renderer's `.md` pages and llms-full.txt read it so,
    // and fail on a page without `markdown`).
    const title = `# ${String(node.meta.title ?? '').replace(/\n/g, ' ')}\n`;
    if (node.document === null) return { markdown: title };
    const document = await this.readDocument(revision, node.document, options);
    const refs = options.markdownRefs ?? 'relative';
    // The layout's paths are planned only for documents that link to pages or files.
    const paths =
      refs === 'relative' && hasLayoutRefs(document)
        ? await this.markdownPaths(revision, options.visitor)
        : undefined;
    const files = options.fileUrl && hasFileRefs(document) ? await this.filesById(revision) : null;
    const writing = { refs, pageId: node.id, paths, from: paths?.pages.get(node.id) };
    const markdown = await documentToMarkdown(document, {
      keepSource: options.keepMarkdownSource,
      refToUrl: (ref) => {
        // A file of the space is written as a URL its reader can fetch, as GitBook writes
        // its files' URLs: a path in the Git layout or `/files/<id>` fetches nothing.
        const file = ref.kind === 'file' ? files?.get(ref.file) : undefined;
        return file ? options.fileUrl!(file) : refToMarkdownUrl(ref, writing);
      },
    });
    const body = markdown.replace(/\n+$/, '');
    return { markdown: body === '' ? title : `${title}\n${body}\n` };
  }

  /** The revision's files by id. */
  private async filesById(revision: ReadRevision): Promise<Map<string, FileObject>> {
    return new Map((await this.listAllFiles(revision)).map((file) => [file.id, file]));
  }

  /**
   * Where the revision's pages and files sit in GitBook's markdown layout, as `visitor` sees
   * the pages (cached by tree, and by the pages hidden from the visitor).
   */
  private async markdownPaths(
    revision: ReadRevision,
    visitor: VisitorClaims | undefined,
  ): Promise<MarkdownPaths> {
    const tree = revision.revision.tree;
    const hidden = visitor ? await this.hiddenPageIds(revision, visitor) : [];
    const key = hidden.length === 0 ? tree : `${tree} ${hidden.join(' ')}`;
    let paths = this.layouts.get(key);
    if (!paths) {
      paths = Promise.all([this.listPages(revision), this.listAllFiles(revision)]).then(
        ([pages, files]) =>
          planMarkdownPaths(visiblePageTrees(pages, visitor).map(pathPage), files),
      );
      paths.catch(() => this.layouts.delete(key));
      this.layouts.set(key, paths);
    }
    return paths;
  }

  /** The revision's pages under a condition, with their conditions (cached by tree). */
  private conditionedPages(revision: ReadRevision): Promise<ConditionedPage[]> {
    const tree = revision.revision.tree;
    let pages = this.conditioned.get(tree);
    if (!pages) {
      pages = this.listPages(revision).then((trees) => conditionedPagesOf(trees, []));
      pages.catch(() => this.conditioned.delete(tree));
      this.conditioned.set(tree, pages);
    }
    return pages;
  }

  /**
   * The document stored under `hash` (empty for null), dereferenced when `options` asks;
   * `inside`: the reusable contents it is part of.
   */
  private async readDocument(
    revision: ReadRevision,
    hash: string | null,
    options: DocumentReadOptions,
    inside: string[] = [],
  ): Promise<JSONDocument> {
    const stored =
      hash === null ? emptyDocument() : await getRequired<JSONDocument>(this.store, hash);
    const document = options.dereferenceReusableContents
      ? await this.dereferenced(revision, stored, inside)
      : stored;
    return options.visitor ? this.asVisitorSees(revision, document, options.visitor) : document;
  }

  /**
   * The document as the API answers it: without the markdown a page read from Git keeps to be
   * written back (markdown-source.ts), which is Bindery's, not the document's, and may hold what
   * the reader does not see (refs to hidden pages).
   */
  private async answerDocument(
    revision: ReadRevision,
    hash: string | null,
    options: DocumentReadOptions,
    inside: string[] = [],
  ): Promise<JSONDocument> {
    return withoutMarkdownSource(await this.readDocument(revision, hash, options, inside));
  }

  /**
   * The document without refs to the pages `visitor` does not see. Most trees hide no page
   * from anyone: their documents are returned without a walk. Most documents link to no hidden
   * page: a stored one is walked once for the pages it names, then returned as it is.
   */
  private async asVisitorSees(
    revision: ReadRevision,
    document: JSONDocument,
    visitor: VisitorClaims,
  ): Promise<JSONDocument> {
    const hidden = await this.hiddenPageIds(revision, visitor);
    if (hidden.length === 0) return document;
    let referenced = this.pageRefs.get(document);
    if (!referenced) {
      referenced = referencedPageIds(document.nodes);
      if (Object.isFrozen(document)) this.pageRefs.set(document, referenced);
    }
    if (!hidden.some((id) => referenced.has(id))) return document;
    return withoutPageRefs(document, new Set(hidden), revision.revision.spaceId);
  }

  /** `document` with its reusable contents inlined (see dereferenceReusableContents). */
  private dereferenced(
    revision: ReadRevision,
    document: JSONDocument,
    inside: string[],
  ): Promise<JSONDocument> {
    let byId: Promise<Map<string, ReusableContentNode>> | undefined;
    return dereferenceReusableContents(
      document,
      revision.revision.spaceId,
      async (id) => {
        byId ??= this.listReusableContents(revision).then(
          (contents) => new Map(contents.map((content) => [content.id, content])),
        );
        const reusableContent = (await byId).get(id);
        if (!reusableContent) return null;
        const contentHash = reusableContent.document ?? null;
        return contentHash === null
          ? emptyDocument()
          : getRequired<JSONDocument>(this.store, contentHash);
      },
      inside,
    );
  }

  /**
   * Pages under `refs` with their subpages, one level at a time: the pages of a level are read
   * together (one query for those not cached yet). `parentPath`: '' at the top of the tree,
   * null under a page without a path.
   */
  private async loadTrees(refs: ChildRef[], parentPath: string | null): Promise<PageTree[]> {
    const top: PageTree[] = [];
    let level = refs.map((ref) => ({ ref, parentPath, into: top }));
    while (level.length > 0) {
      const nodes = await Promise.all(level.map(({ ref }) => readPage(this.store, ref.hash)));
      const next: typeof level = [];
      nodes.forEach((node, i) => {
        const { parentPath: above, into } = level[i];
        const slug = node.meta.slug;
        const path =
          above === null || !hasPath(node.type) || typeof slug !== 'string'
            ? null
            : above === ''
              ? slug
              : `${above}/${slug}`;
        const tree: PageTree = { node, path, pages: [] };
        into.push(tree);
        for (const ref of node.pages) {
          next.push({ ref, parentPath: path, into: tree.pages });
        }
      });
      level = next;
    }
    return top;
  }
}

/**
 * The pages of `pages`, with their subpages, that `visitor` sees (all of them without a
 * visitor); `above`: the conditions of their ancestors, top first.
 */
export function visiblePageTrees(
  pages: PageTree[],
  visitor: VisitorClaims | undefined,
  above: readonly string[] = [],
): PageTree[] {
  if (!visitor) return pages;
  return pages.flatMap((tree) => {
    const conditions = withPageCondition(above, tree.node.meta);
    return visitorSeesPage(conditions, visitor)
      ? [{ ...tree, pages: visiblePageTrees(tree.pages, visitor, conditions) }]
      : [];
  });
}

/** The pages of `pages`, at any depth, under a condition of their own or of an ancestor. */
function conditionedPagesOf(pages: PageTree[], above: readonly string[]): ConditionedPage[] {
  return pages.flatMap((tree) => {
    const conditions = withPageCondition(above, tree.node.meta);
    return [
      ...(conditions.length > 0 ? [{ id: tree.node.id, conditions }] : []),
      ...conditionedPagesOf(tree.pages, conditions),
    ];
  });
}

function pathPage(tree: PageTree): PathPage {
  const slug = tree.node.meta.slug;
  const keep = keptPath(tree.node.meta);
  return {
    id: tree.node.id,
    type: tree.node.type,
    ...(typeof slug === 'string' ? { slug } : {}),
    ...(keep ? { keep } : {}),
    pages: tree.pages.map(pathPage),
  };
}

/** Whether a document has a file ref (a table's `files` cells hold files by id). */
function hasFileRefs(value: unknown): boolean {
  return hasRefOf(value, new Set(['file']));
}

/** Whether a document has a page, anchor or file ref (written as a path in the layout). */
function hasLayoutRefs(value: unknown): boolean {
  return hasRefOf(value, new Set(['page', 'anchor', 'file']));
}

function hasRefOf(value: unknown, kinds: ReadonlySet<string>): boolean {
  if (Array.isArray(value)) return value.some((item) => hasRefOf(item, kinds));
  if (typeof value !== 'object' || value === null) return false;
  const { kind, type, data } = value as { kind?: unknown; type?: unknown; data?: unknown };
  if (typeof kind === 'string' && kinds.has(kind)) return true;
  if (type === 'table' && typeof data === 'object' && data !== null) {
    if (tableRefs(data as Record<string, unknown>).some((ref) => kinds.has(ref.kind))) return true;
  }
  return Object.values(value).some((item) => hasRefOf(item, kinds));
}

/** The page node a tree lookup found. */
function pageNode(found: TreePage): PageNode {
  const { type: _type, ...meta } = found.meta;
  return {
    id: found.id,
    type: found.type,
    meta: meta as PageMeta,
    document: found.documentHash,
    pages: found.pages,
  };
}
