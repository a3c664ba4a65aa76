import { INITIAL_PAGE_TITLE } from '../../content-engine/content-engine';
import type { DocumentNode, JSONDocument } from '../../content-engine/documents/document';
import { splitFrontmatter } from '../../content-engine/documents/frontmatter';
import { keepBlockKeys } from '../../content-engine/documents/keep-block-keys';
import {
  commit,
  TreeChangeError,
  type PageChange,
  type PageMetaUpdate,
} from '../../content-engine/tree/commit';
import { hasPath, type FileNode, type PageMeta } from '../../content-engine/tree/format';
import { getRequired, type ObjectStore } from '../../content-engine/tree/object-store';
import { findPageById } from '../../content-engine/tree/read';
import { uniqueSlug } from '../../content-engine/tree/slug';
import { DomainError } from '../../platform/errors/domain-error';
import { charCount } from '../../platform/validation/chars';
import type {
  Change,
  InsertFilesChangeDto,
  InsertPageChangeDto,
  PageDocumentInput,
  PageMetadataDto,
  UpdatePageChangeDto,
} from './dto/update-change-request-content.dto';
import { childrenOf, DraftObjectStore, pageOf } from './draft-tree';
import { LinkResolver, resolveDocumentLinks } from './markdown-links';
import { revertPage, RevertError } from './page-revert';

/** The bytes of a file of an `insert_files` change, as read before the write. */
export interface FileBytes {
  name: string;
  contentType?: string;
  data: Buffer;
}

/** What planning needs from the write around it. */
export interface TreeChangeContext {
  /** The writer's store, on the caller's transaction. */
  store: ObjectStore;
  /** The tree of the change request's head. */
  tree: string;
  /** The revision `revert_page` goes back to by default: the change request's merge base. */
  baseRevisionId: string;
  /** The tree of a revision of the space, or undefined for an unknown one. */
  revisionTree(revisionId: string): Promise<string | undefined>;
  /** The bytes of file `file` of change `change` (read beforehand). */
  fileBytes(change: number, file: number): FileBytes;
  /** Stores a file (bytes and `file` object); throws a DomainError for an invalid one. */
  storeFile(file: FileBytes): Promise<{ hash: string; file: FileNode }>;
  markdownToDocument(markdown: string): Promise<JSONDocument>;
  newId(): string;
}

/** A page the batch touched, and what happened to it overall. */
export interface TouchedPage {
  id: string;
  /** The insert's `ref`. */
  ref?: string;
  outcome: 'created' | 'updated' | 'deleted';
}

export interface TreeChangePlan {
  /** Tree changes, documents given by hash (stored in the writer's store). */
  changes: PageChange[];
  /** One per page the changes touched, in first-touch order (none for a page added and removed). */
  pages: TouchedPage[];
  insertedFiles: FileNode[];
}

/** A change that cannot be made: 400 "Change <index> (<operation>): <detail>". */
class Invalid extends Error {}

/** Removed when given empty (REFERENCE §16: an empty `icon` or `condition` removes it). */
const CLEARABLE = ['emoji', 'icon', 'description', 'condition'] as const;
const STRING_FIELDS: Record<string, number> = {
  title: 255,
  slug: 100,
  emoji: 50,
  icon: 50,
  description: 1000,
  condition: 1024,
};
const BOOLEAN_FIELDS = ['hidden', 'noIndex', 'noRobotsIndex'] as const;

/** A markdown body waiting for its links to be resolved against the final tree. */
interface PendingDocument {
  change: Extract<PageChange, { operation: 'insert_page' | 'set_document' }>;
  pageId: string;
  document: JSONDocument;
  markdown: boolean;
  /** The body a markdown update replaces: its blocks keep their keys where they are unchanged. */
  replaces?: string | null;
}

/**
 * Turns the API's changes (REFERENCE §16) into tree changes (src/content-engine/tree/commit.ts). The
 * batch is applied change by change to a draft of the head's tree (in memory), so that every
 * change is read against what the previous ones made (`at` without `into`, a rename that keeps
 * the slug, a revert) and a change the tree refuses is named by its index in the request.
 * Markdown links are then resolved against the draft of the whole batch, and the documents are
 * stored; the writer commits the returned changes on the head for real.
 */
export async function planTreeChanges(
  context: TreeChangeContext,
  changes: readonly Change[],
): Promise<TreeChangePlan> {
  return new TreeChangePlanner(context).run(changes);
}

class TreeChangePlanner {
  private readonly draft: DraftObjectStore;
  private current: string;
  private readonly changes: PageChange[] = [];
  private readonly pending: PendingDocument[] = [];
  /** Bodies made by reverts: stored as they are. */
  private readonly reverted: JSONDocument[] = [];
  private readonly touched = new Map<string, { ref?: string }>();
  private readonly pageRefs = new Map<string, string>();
  private readonly fileRefs = new Map<string, string>();
  private readonly insertedFiles: FileNode[] = [];

  constructor(private readonly context: TreeChangeContext) {
    this.draft = new DraftObjectStore(context.store);
    this.current = context.tree;
  }

  async run(changes: readonly Change[]): Promise<TreeChangePlan> {
    for (const [index, change] of changes.entries()) {
      let produced: PageChange[];
      try {
        produced = await this.plan(index, change);
        this.current = await commit(this.draft, this.current, produced);
      } catch (error) {
        throw named(error, index, change.operation);
      }
      this.changes.push(...produced);
    }
    await this.storeDocuments();
    return {
      changes: this.changes,
      pages: await this.outcomes(),
      insertedFiles: this.insertedFiles,
    };
  }

  private plan(index: number, change: Change): Promise<PageChange[]> {
    switch (change.operation) {
      case 'insert_page':
        return this.insertPage(change);
      case 'update_page':
        return this.updatePage(change);
      case 'delete_page':
        this.touch(change.page);
        return Promise.resolve([{ operation: 'delete_page', page: change.page }]);
      case 'revert_page':
        return this.revertPage(change.page, change.revision, change.block);
      case 'insert_files':
        return this.insertFiles(index, change);
    }
  }

  private async insertPage(change: InsertPageChangeDto): Promise<PageChange[]> {
    if (change.ref !== undefined && this.pageRefs.has(change.ref)) {
      throw new Invalid(`ref ${change.ref} names another page of this batch`);
    }
    const id = this.context.newId();
    const body = await this.body(change.document, { titleFromHeading: true });
    const meta: PageMeta = {};
    for (const [key, value] of Object.entries({ ...metadataOf(change), ...body.meta })) {
      if (value !== null) meta[key] = value;
    }
    meta.title = body.meta.title ?? body.headingTitle ?? change.title ?? INITIAL_PAGE_TITLE;
    const insert: Extract<PageChange, { operation: 'insert_page' }> = {
      operation: 'insert_page',
      id,
      meta,
      document: null,
      into: change.into ?? null,
      ...(change.at !== undefined ? { at: change.at } : {}),
    };
    await this.attach(insert, id, body);
    if (change.ref !== undefined) this.pageRefs.set(change.ref, id);
    this.touch(id, change.ref);
    return [insert];
  }

  private async updatePage(change: UpdatePageChangeDto): Promise<PageChange[]> {
    const page = await pageOf(this.draft, this.current, change.page);
    if (!page) throw new Invalid(`page ${change.page} not found`);
    this.touch(page.id);
    const body =
      change.document === undefined
        ? undefined
        : await this.body(change.document, {
            titleFromHeading: false,
            title: change.title ?? (page.meta.title as string | undefined),
          });
    const changes: PageChange[] = [];
    // The move first: a slug given with it is checked against the new siblings.
    const into = change.into === undefined ? page.parentId : change.into;
    let slug = page.meta.slug as string | undefined;
    if (change.at !== undefined || into !== page.parentId) {
      changes.push({
        operation: 'move_page',
        page: page.id,
        into,
        ...(change.at !== undefined ? { at: change.at } : {}),
      });
      if (into !== page.parentId && slug !== undefined) {
        // What the move makes of the slug: the same unless a new sibling has it.
        const siblings = await childrenOf(this.draft, this.current, into);
        slug = uniqueSlug(slug, new Set(siblings.flatMap((ref) => (ref.slug ? [ref.slug] : []))));
      }
    }
    const meta: PageMetaUpdate = { ...metadataOf(change), ...body?.meta };
    if (meta.title !== undefined && meta.slug === undefined && hasPath(page.type)) {
      // A rename keeps the page's URL: title and slug change independently.
      meta.slug = slug;
    }
    if (Object.keys(meta).length > 0) {
      changes.push({ operation: 'update_page', page: page.id, meta });
    }
    if (body) {
      const set: Extract<PageChange, { operation: 'set_document' }> = {
        operation: 'set_document',
        page: page.id,
        document: null,
      };
      await this.attach(set, page.id, body, page.documentHash);
      changes.push(set);
    }
    return changes;
  }

  private async revertPage(
    pageId: string,
    revisionId: string | undefined,
    blocks: string[] | undefined,
  ): Promise<PageChange[]> {
    const revision = revisionId ?? this.context.baseRevisionId;
    const target = await this.context.revisionTree(revision);
    if (target === undefined) throw new Invalid(`revision ${revision} not found in this space`);
    this.touch(pageId);
    try {
      return await revertPage({
        store: this.draft,
        current: this.current,
        target,
        revisionId: revision,
        pageId,
        blocks,
        putDocument: (document) => {
          this.reverted.push(document);
          return this.draft.put('document', document);
        },
      });
    } catch (error) {
      throw error instanceof RevertError ? new Invalid(error.message) : error;
    }
  }

  private async insertFiles(index: number, change: InsertFilesChangeDto): Promise<PageChange[]> {
    const changes: PageChange[] = [];
    for (const [at, input] of change.files.entries()) {
      if (input.ref !== undefined && this.fileRefs.has(input.ref)) {
        throw new Invalid(`files.${at}: ref ${input.ref} names another file of this batch`);
      }
      let stored: { hash: string; file: FileNode };
      try {
        stored = await this.context.storeFile(this.context.fileBytes(index, at));
      } catch (error) {
        if (error instanceof DomainError && error.kind === 'bad_request') {
          throw new Invalid(`files.${at}: ${error.message}`);
        }
        throw error;
      }
      if (input.ref !== undefined) this.fileRefs.set(input.ref, stored.file.id);
      this.insertedFiles.push(stored.file);
      changes.push({ operation: 'insert_file', file: stored.hash });
    }
    return changes;
  }

  /**
   * A page body as given: markdown is converted (its frontmatter read as metadata and, for a
   * new page, a leading `# heading` taken as its title when the frontmatter names none; for a
   * page updated, a leading `# heading` that is its title left out);
   * `{}` is an empty page (document null).
   */
  private async body(
    input: PageDocumentInput,
    options: { titleFromHeading: boolean; title?: string },
  ): Promise<{
    document: JSONDocument | null;
    markdown: boolean;
    meta: PageMetaUpdate;
    headingTitle?: string;
  }> {
    if (input.document !== undefined) {
      return { document: input.document as unknown as JSONDocument, markdown: false, meta: {} };
    }
    if (input.markdown === undefined) {
      return { document: null, markdown: false, meta: {} };
    }
    const split = splitFrontmatter(input.markdown);
    const meta = split.frontmatter ? frontmatterMetadata(split.frontmatter) : {};
    let body = split.body;
    const title = meta.title ?? options.title;
    if (!options.titleFromHeading && title !== undefined) {
      // `format=markdown` reads start with the page's title as a heading, written as is:
      // written back, it is the title again, not a heading of the body.
      const heading = `# ${title.replace(/\n/g, ' ')}`;
      const [line, rest] = splitFirstLine(body.replace(/^(?:[ \t]*\r?\n)+/, ''));
      if (line.trimEnd() === heading) body = rest;
    }
    let document = await this.context.markdownToDocument(body);
    let headingTitle: string | undefined;
    const [first, ...rest] = document.nodes;
    if (options.titleFromHeading && meta.title === undefined && first?.type === 'heading-1') {
      const title = plainText(first).trim();
      if (title !== '') {
        // The heading becomes the title: kept in the body too, it would show twice.
        headingTitle = [...title].slice(0, 255).join('');
        document = { ...document, nodes: rest };
      }
    }
    return { document, markdown: true, meta, headingTitle };
  }

  /** Sets a body on a tree change (by its hash in the draft) until `storeDocuments`. */
  private async attach(
    change: PendingDocument['change'],
    pageId: string,
    body: { document: JSONDocument | null; markdown: boolean },
    replaces: string | null = null,
  ): Promise<void> {
    if (body.document === null) return;
    change.document = await this.draft.put('document', body.document);
    this.pending.push({
      change,
      pageId,
      document: body.document,
      markdown: body.markdown,
      replaces: body.markdown ? replaces : null,
    });
  }

  /**
   * Resolves the links of markdown bodies against the tree the whole batch made, and stores
   * every new body in the writer's store.
   */
  private async storeDocuments(): Promise<void> {
    const resolver = new LinkResolver(this.draft, this.current, {
      pages: this.pageRefs,
      files: this.fileRefs,
    });
    // Final bodies by their draft hash: a later change of the batch may replace one.
    const final = new Map<string, JSONDocument>();
    for (const pending of this.pending) {
      let document = pending.document;
      const resolve = pending.markdown ? await resolver.forPage(pending.pageId) : undefined;
      if (resolve) {
        document = (await resolveDocumentLinks(document, resolve)).document;
      }
      if (pending.replaces) {
        // Markdown comes with fresh block keys; the unchanged and edited blocks take back
        // theirs, so that a merge sees which blocks changed.
        const previous =
          final.get(pending.replaces) ??
          (await getRequired<JSONDocument>(this.draft, pending.replaces));
        document = keepBlockKeys(previous, document);
      }
      final.set(pending.change.document as string, document);
      pending.change.document = await this.context.store.put('document', document);
    }
    for (const document of this.reverted) {
      await this.context.store.put('document', document);
    }
  }

  private touch(pageId: string, ref?: string) {
    if (!this.touched.has(pageId)) this.touched.set(pageId, ref === undefined ? {} : { ref });
  }

  private async outcomes(): Promise<TouchedPage[]> {
    const pages: TouchedPage[] = [];
    for (const [id, { ref }] of this.touched) {
      const before = (await findPageById(this.context.store, this.context.tree, id)) !== undefined;
      const after = (await findPageById(this.draft, this.current, id)) !== undefined;
      if (before || after) {
        pages.push({
          id,
          ...(ref !== undefined ? { ref } : {}),
          outcome: !after ? 'deleted' : before ? 'updated' : 'created',
        });
      }
    }
    return pages;
  }
}

/** The error a change failed with, as the 400 that names it. */
function named(error: unknown, index: number, operation: string): unknown {
  if (error instanceof Invalid) return new TreeChangeError(index, operation, error.message);
  if (error instanceof TreeChangeError) {
    const detail = error.message.slice(error.message.indexOf(': ') + 2);
    return new TreeChangeError(index, operation, detail);
  }
  return error;
}

/** The metadata fields given on a change; an empty removable one is a removal (null). */
function metadataOf(change: PageMetadataDto): PageMetaUpdate {
  const meta: PageMetaUpdate = {};
  for (const key of [...Object.keys(STRING_FIELDS), ...BOOLEAN_FIELDS]) {
    const value = change[key as keyof PageMetadataDto];
    if (value !== undefined) meta[key] = value;
  }
  for (const key of CLEARABLE) {
    if (meta[key] === '') meta[key] = null;
  }
  return meta;
}

/**
 * Page metadata from markdown frontmatter: the fields of `RevisionPageUpdate` (others are
 * ignored), checked as the request's own fields are.
 */
function frontmatterMetadata(frontmatter: Record<string, unknown>): PageMetaUpdate {
  const meta: PageMetaUpdate = {};
  for (const [key, max] of Object.entries(STRING_FIELDS)) {
    const value = frontmatter[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string' && typeof value !== 'number') {
      throw new Invalid(`frontmatter ${key} must be a string`);
    }
    const text = String(value);
    if (charCount(text) > max || (key === 'title' && text.trim() === '')) {
      throw new Invalid(
        `frontmatter ${key} must have ${key === 'title' ? 1 : 0} to ${max} characters`,
      );
    }
    meta[key] = (CLEARABLE as readonly string[]).includes(key) && text === '' ? null : text;
  }
  for (const key of BOOLEAN_FIELDS) {
    const value = frontmatter[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'boolean') throw new Invalid(`frontmatter ${key} must be true or false`);
    meta[key] = value;
  }
  return meta;
}

function plainText(node: DocumentNode): string {
  if (node.object === 'text') return node.leaves.map((leaf) => leaf.text).join('');
  return (node.nodes ?? []).map(plainText).join('');
}

/** The first line of `text` (without its line break) and the rest. */
function splitFirstLine(text: string): [string, string] {
  const end = text.indexOf('\n');
  return end < 0 ? [text, ''] : [text.slice(0, end).replace(/\r$/, ''), text.slice(end + 1)];
}
