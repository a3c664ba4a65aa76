import { posix } from 'node:path';
import type {
  ContentRef,
  DocumentBlock,
  DocumentInline,
  DocumentNode,
  DocumentText,
  JSONDocument,
} from '../../content-engine/documents/document';
import { downloadUrlTarget } from '../../content-engine/files/file-downloads';
import { markdownPathsOfTree, type MarkdownPaths } from '../../content-engine/refs/markdown-paths';
import { stableRefOf } from '../../content-engine/refs/markdown-refs';
import { readRoot, type FileNode } from '../../content-engine/tree/format';
import { getRequired, type ObjectStore } from '../../content-engine/tree/object-store';
import { findPageById, findPageByPath } from '../../content-engine/tree/read';
import { childrenOf } from './draft-tree';

/**
 * What a link target becomes: a content ref, `keep` (left as the URL written), or null (nothing
 * to keep: a `data:` URI; the link becomes plain text).
 */
export type LinkTarget = ContentRef | 'keep' | null;
export type ResolveLink = (url: string) => Promise<LinkTarget>;

/** Names given in the batch: `./<ref>.md` links to a page, `./<ref>` to a file (or a page). */
export interface BatchRefs {
  pages: ReadonlyMap<string, string>;
  files: ReadonlyMap<string, string>;
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * Resolves markdown link targets against the pages and files of a tree (the change request's
 * content once the whole batch is applied; REFERENCE §16), in this order:
 * - the download URL of a file of the tree (as `format=markdown` reads write files) is that
 *   file;
 * - URLs with a scheme (http:, mailto:…) and protocol-relative ones are kept, except `data:`
 *   URIs, which are not ingested; `#anchor` is an anchor of the linking page;
 * - `./<ref>.md` and `./<ref>` for pages and files inserted in the batch;
 * - paths relative to the linking page in GitBook's markdown layout, as `format=markdown`
 *   reads and the Git export write them (markdown-paths.ts): `../install/README.md#step-2`,
 *   `.gitbook/assets/logo.png`;
 * - Git-style paths by slugs, relative (`./x.md`, `../README.md`, folder-style `./x`) or under
 *   `/pages/` (`/pages/<slug>`, `/pages/<parent>/<slug>.md`, `/pages/README.md`: the first
 *   page), and `/pages/<pageId>[#anchor]`;
 * - the stable forms (markdown-refs.ts): `/pages/<pageId>`, `/files/<fileId>`, `/users/<id>`,
 *   … name their target even when it is no longer in the tree (the link keeps naming it).
 * Anything else stays a link to the URL as written (`keep`), so that nothing written is lost.
 */
export class LinkResolver {
  /** The tree's markdown layout, and its paths' pages and files; planned on first use. */
  private layout?: Promise<
    MarkdownPaths & { pageAt: Map<string, string>; fileAt: Map<string, string> }
  >;

  constructor(
    private readonly store: ObjectStore,
    private readonly tree: string,
    private readonly refs: BatchRefs,
  ) {}

  /** How links from the page `pageId` resolve (undefined: the page is not in the tree). */
  async forPage(pageId: string): Promise<ResolveLink | undefined> {
    const page = await findPageById(this.store, this.tree, pageId);
    if (!page || page.path === null) return undefined;
    const segments = page.path.split('/');
    // Git Sync's layout: a page with subpages is the README of its own folder.
    const folder = page.pages.length > 0 ? segments : segments.slice(0, -1);
    return (url) => this.resolve(url, pageId, folder);
  }

  private async resolve(url: string, pageId: string, folder: string[]): Promise<LinkTarget> {
    const target = url.trim();
    if (/^data:/i.test(target)) return null;
    const downloaded = await this.fileOfDownloadUrl(target);
    if (downloaded !== undefined) return { kind: 'file', file: downloaded };
    if (SCHEME.test(target) || target.startsWith('//')) return 'keep';
    const hashAt = target.indexOf('#');
    const anchor = hashAt >= 0 ? decode(target.slice(hashAt + 1)) : undefined;
    const path = (hashAt >= 0 ? target.slice(0, hashAt) : target).replace(/\?.*$/, '');
    if (path === '') {
      return anchor ? { kind: 'anchor', anchor, page: pageId } : 'keep';
    }
    const inBatch = this.batchRef(path);
    if (inBatch !== undefined && typeof inBatch !== 'string') return inBatch;
    const page =
      inBatch ??
      (await this.laidOut(path, anchor, pageId)) ??
      (await this.pageOfPath(path, folder));
    if (typeof page === 'object') return page;
    if (page !== undefined && (await findPageById(this.store, this.tree, page))) {
      return anchor ? { kind: 'anchor', anchor, page } : { kind: 'page', page };
    }
    // A page the batch inserted and deleted again, a page or file no longer there, or none.
    return (path.startsWith('/') && stableRefOf(target)) || 'keep';
  }

  /**
   * The file of the tree that a download URL serves (its blob, under its name), as markdown
   * reads write a file's ref: the file again, not a link to a URL that expires.
   */
  private async fileOfDownloadUrl(url: string): Promise<string | undefined> {
    const target = downloadUrlTarget(url);
    if (!target) return undefined;
    const root = await readRoot(this.store, this.tree);
    for (const hash of root.files) {
      const file = await getRequired<FileNode>(this.store, hash);
      if (file.blob === target.blob && file.name === target.name) return file.id;
    }
    return undefined;
  }

  /** A path relative to the linking page in the markdown layout of the tree. */
  private async laidOut(
    path: string,
    anchor: string | undefined,
    pageId: string,
  ): Promise<ContentRef | undefined> {
    if (path.startsWith('/')) return undefined;
    this.layout ??= markdownPathsOfTree(this.store, this.tree).then((paths) => ({
      ...paths,
      pageAt: invert(paths.pages),
      fileAt: invert(paths.files),
    }));
    const layout = await this.layout;
    const from = layout.pages.get(pageId);
    if (from === undefined) return undefined;
    const dir = posix.dirname(from);
    const joined = posix.normalize(posix.join(dir === '.' ? '' : dir, decodePath(path)));
    if (joined.startsWith('../')) return undefined;
    const at = joined.replace(/^\.\//, '').replace(/\/+$/, '');
    const file = layout.fileAt.get(at);
    if (file !== undefined) return anchor === undefined ? { kind: 'file', file } : undefined;
    const page = layout.pageAt.get(at) ?? layout.pageAt.get(posix.join(at, 'README.md'));
    if (page === undefined) return undefined;
    return anchor ? { kind: 'anchor', anchor, page } : { kind: 'page', page };
  }

  /** `./<ref>.md` (a page), `./<ref>` (a file, else a page) inserted in the batch. */
  private batchRef(path: string): string | ContentRef | undefined {
    const match = /^(?:\.\/)?([^/]+?)(\.md)?$/.exec(path);
    if (!match) return undefined;
    const name = decode(match[1]);
    const file = match[2] === undefined ? this.refs.files.get(name) : undefined;
    return file !== undefined ? { kind: 'file', file } : this.refs.pages.get(name);
  }

  private async pageOfPath(path: string, folder: string[]): Promise<string | undefined> {
    if (path.startsWith('/pages/')) {
      const rest = path.slice('/pages/'.length).replace(/\/+$/, '');
      if (!rest.includes('/') && (await findPageById(this.store, this.tree, decode(rest)))) {
        return decode(rest);
      }
      return this.pageAtGitPath(rest.split('/').map(decode));
    }
    if (path.startsWith('/')) return undefined;
    const segments = [...folder];
    for (const segment of path.replace(/\/+$/, '').split('/').map(decode)) {
      if (segment === '.' || segment === '') continue;
      if (segment === '..') {
        if (segments.length === 0) return undefined;
        segments.pop();
      } else {
        segments.push(segment);
      }
    }
    return this.pageAtGitPath(segments);
  }

  /** `a/b`, `a/b.md`, `a/b/README.md`, `README.md` (the first page). */
  private async pageAtGitPath(segments: string[]): Promise<string | undefined> {
    const parts = segments.filter((segment) => segment !== '');
    const last = parts[parts.length - 1];
    if (last !== undefined && /^readme(\.md)?$/i.test(last)) {
      parts.pop();
    } else if (last !== undefined) {
      parts[parts.length - 1] = last.replace(/\.md$/i, '');
    }
    if (parts.length === 0) {
      return (await childrenOf(this.store, this.tree, null))[0]?.id;
    }
    return (await findPageByPath(this.store, this.tree, parts.join('/')))?.id;
  }
}

function invert(map: Map<string, string>): Map<string, string> {
  return new Map([...map].map(([id, path]) => [path, id]));
}

/** A path's segments decoded one by one (`%2F` stays inside its segment). */
function decodePath(path: string): string {
  return path
    .split('/')
    .map((segment) => decode(segment).replace(/\//g, '%2F'))
    .join('/');
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The document with every URL ref of its links, images, files and content-ref blocks
 * resolved: a resolved target replaces the ref, `keep` leaves it, and an unresolved one is
 * turned into text (a link into its label, an inline image into its alt text, a file or
 * content-ref block into a paragraph with the URL) or dropped (an image of an images block).
 * Returns the same document when nothing changed.
 */
export async function resolveDocumentLinks(
  document: JSONDocument,
  resolve: ResolveLink,
): Promise<{ document: JSONDocument; changed: boolean }> {
  let changed = false;
  const targetOf = async (node: DocumentBlock | DocumentInline): Promise<LinkTarget> => {
    const ref = node.data?.ref as { kind?: unknown; url?: unknown } | undefined;
    if (ref?.kind !== 'url' || typeof ref.url !== 'string') return 'keep';
    const target = await resolve(ref.url);
    if (target !== 'keep') changed = true;
    return target;
  };
  const withRef = <T extends DocumentBlock | DocumentInline>(node: T, ref: ContentRef): T => ({
    ...node,
    data: { ...node.data, ref },
  });

  const blocks = async (nodes: DocumentBlock[]): Promise<DocumentBlock[]> => {
    const out: DocumentBlock[] = [];
    for (const node of nodes) out.push(...(await block(node)));
    return out;
  };

  const block = async (node: DocumentBlock): Promise<DocumentBlock[]> => {
    if (node.type === 'file' || node.type === 'content-ref') {
      const target = await targetOf(node);
      if (target === null) {
        const url = String((node.data?.ref as { url?: unknown }).url);
        return [textParagraph(node.key, url)];
      }
      return [target === 'keep' ? node : withRef(node, target)];
    }
    if (node.type === 'images') {
      const kept: DocumentBlock[] = [];
      const dropped: string[] = [];
      for (const child of node.nodes ?? []) {
        if (child.object !== 'block' || child.type !== 'image') {
          kept.push(...(child.object === 'block' ? [child] : []));
          continue;
        }
        const target = await targetOf(child);
        if (target === null) dropped.push(String(child.data?.alt ?? ''));
        else {
          const image = target === 'keep' ? child : withRef(child, target);
          kept.push({ ...image, ...(await dataRefsOf(image)) });
        }
      }
      if (kept.length === 0) return [textParagraph(node.key, dropped.join(' ').trim())];
      return [{ ...node, nodes: kept, ...(await fragmentsOf(node)) }];
    }
    if (node.type === 'table') return [{ ...node, ...(await tableOf(node)) }];
    return [
      {
        ...node,
        ...(await dataRefsOf(node)),
        ...(await childrenOf(node)),
        ...(await fragmentsOf(node)),
      },
    ];
  };

  /** A resolved target of a URL ref; the ref itself otherwise. */
  const resolved = async (value: unknown): Promise<unknown> => {
    const ref = value as { kind?: unknown; url?: unknown } | null;
    if (ref?.kind !== 'url' || typeof ref.url !== 'string') return value;
    const target = await resolve(ref.url);
    if (target === null || target === 'keep') return value;
    changed = true;
    return target;
  };

  /**
   * A table's cells resolved: a card's target (a `content-ref` column) and the links of a
   * `files` column (a card's cover), whose files are their ids, as GitBook keeps them.
   */
  const tableOf = async (
    node: DocumentBlock,
  ): Promise<{ data?: Record<string, unknown>; fragments?: DocumentBlock['fragments'] }> => {
    const records = node.data?.records as Record<string, { values?: object }> | undefined;
    if (typeof records !== 'object' || records === null) return fragmentsOf(node);
    const out: Record<string, unknown> = {};
    for (const [id, record] of Object.entries(records)) {
      if (typeof record?.values !== 'object' || record.values === null) {
        out[id] = record;
        continue;
      }
      const values: Record<string, unknown> = {};
      for (const [column, cell] of Object.entries(record.values)) {
        if (!Array.isArray(cell)) values[column] = await resolved(cell);
        else {
          const items: unknown[] = [];
          for (const item of cell) {
            const target = (await resolved(item)) as { kind?: unknown; file?: unknown };
            items.push(
              target?.kind === 'file' && typeof target.file === 'string' ? target.file : target,
            );
          }
          values[column] = items;
        }
      }
      out[id] = { ...record, values };
    }
    return { data: { ...node.data, records: out }, ...(await fragmentsOf(node)) };
  };

  /**
   * Other nodes' refs (drawings, mentions, reusable contents, an image's `refDark`, …): a
   * resolved target replaces the ref; anything else leaves it, as the node has no text to
   * become.
   */
  const dataRefsOf = async (
    node: DocumentBlock | DocumentInline,
  ): Promise<{ data?: Record<string, unknown> }> => {
    if (!node.data) return {};
    let data = node.data;
    for (const field of ['ref', 'refDark']) {
      const ref = data[field] as { kind?: unknown; url?: unknown } | undefined;
      if (ref?.kind !== 'url' || typeof ref.url !== 'string') continue;
      const target = await resolve(ref.url);
      if (target !== null && target !== 'keep') {
        changed = true;
        data = { ...data, [field]: target };
      }
    }
    return { data };
  };

  const childrenOf = async (
    node: DocumentBlock | DocumentInline,
  ): Promise<{ nodes?: DocumentNode[] }> => {
    if (!node.nodes) return {};
    const out: DocumentNode[] = [];
    for (const child of node.nodes) {
      if (child.object === 'block') out.push(...(await block(child)));
      else if (child.object === 'inline') out.push(...(await inline(child)));
      else out.push(child);
    }
    return { nodes: out };
  };

  const fragmentsOf = async (
    node: DocumentBlock | DocumentInline,
  ): Promise<{ fragments?: DocumentBlock['fragments'] }> => {
    if (!node.fragments) return {};
    const fragments = [];
    for (const fragment of node.fragments) {
      fragments.push({ ...fragment, nodes: await blocks(fragment.nodes ?? []) });
    }
    return { fragments };
  };

  const inline = async (node: DocumentInline): Promise<(DocumentInline | DocumentText)[]> => {
    if (node.type === 'link' || node.type === 'inline-image') {
      const target = await targetOf(node);
      if (target === null) {
        if (node.type === 'inline-image') return [text(String(node.data?.alt ?? ''))];
        const label = await childrenOf(node);
        return (label.nodes ?? []) as (DocumentInline | DocumentText)[];
      }
      const resolved = target === 'keep' ? node : withRef(node, target);
      return [
        {
          ...resolved,
          ...(await childrenOf(node)),
          ...(await fragmentsOf(node)),
        } as DocumentInline,
      ];
    }
    return [
      {
        ...node,
        ...(await dataRefsOf(node)),
        ...(await childrenOf(node)),
        ...(await fragmentsOf(node)),
      } as DocumentInline,
    ];
  };

  const nodes = await blocks(document.nodes ?? []);
  return changed ? { document: { ...document, nodes }, changed } : { document, changed };
}

function text(value: string): DocumentText {
  return { object: 'text', leaves: [{ object: 'leaf', text: value, marks: [] }] };
}

function textParagraph(key: string | undefined, value: string): DocumentBlock {
  return {
    object: 'block',
    ...(key !== undefined ? { key } : {}),
    type: 'paragraph',
    data: {},
    nodes: [text(value)],
  };
}
