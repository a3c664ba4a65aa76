import { Injectable } from '@nestjs/common';
import type { VisitorClaims } from '../../platform/conditions/evaluate';
import { UrlBuilder } from '../../platform/urls/url-builder';
import type { PresentedChangeRequest } from './merged-change-requests';
import type { SpaceAccess } from '../space-access.resolver';
import { FileDownloads } from '../../content-engine/files/file-downloads';
import type {
  FileObject,
  PageBody,
  PageTree,
  ReadRevision,
} from '../../content-engine/reads/content-reader';
import type { ReusableContentNode } from '../../content-engine/tree/format';
import type {
  PageLayoutResponse,
  RevisionFileResponse,
  RevisionPageResponse,
  RevisionResponse,
  RevisionReusableContentResponse,
} from './dto/content.response';

/** Where content is read from, and what the caller asked to see of it. */
export interface ContentView {
  organizationId: string;
  spaceId: string;
  /** The revision the URLs point at; null for the space's primary content. */
  revisionId: string | null;
  /** The change request whose content this is, by number: the URLs point into it. */
  changeRequestNumber?: number;
  /** false: leave out mutable Git metadata (`metadata=false`). */
  metadata: boolean;
  /**
   * A published site's visitor (a site reader): pages whose adaptive-content condition, or an
   * ancestor's, the visitor does not meet are absent.
   */
  visitor?: VisitorClaims;
}

/** The view of a space's content that a read asks for: by default its primary, with metadata. */
export function contentView(
  space: SpaceAccess,
  at: {
    revisionId?: string | null;
    changeRequestNumber?: number;
    metadata?: boolean;
  } = {},
): ContentView {
  return {
    organizationId: space.entity.organizationId,
    spaceId: space.id,
    revisionId: at.revisionId ?? null,
    ...(at.changeRequestNumber !== undefined
      ? { changeRequestNumber: at.changeRequestNumber }
      : {}),
    metadata: at.metadata ?? true,
    ...(space.visitor ? { visitor: space.visitor } : {}),
  };
}

/** The layout of a page that sets none, as GitBook shows a new page: everything visible. */
export const DEFAULT_PAGE_LAYOUT: PageLayoutResponse = {
  width: 'default',
  cover: true,
  coverSize: 'full',
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
  coverMask: 'none',
  tags: true,
  actions: true,
  anchors: true,
};

/** Optional page fields copied as stored when present. */
const COMMON_FIELDS = ['emoji', 'icon'] as const;
const FLAGS = ['hidden', 'noIndex', 'noRobotsIndex'] as const;

/** GitBook's `Revision`, `RevisionPage` (four variants) and `RevisionFile` shapes. */
@Injectable()
export class ContentPresenter {
  /** Each view's app URL (see appBaseUrl); views are made per request. */
  private readonly appBaseUrls = new WeakMap<ContentView, string>();

  constructor(
    private readonly urls: UrlBuilder,
    private readonly downloads: FileDownloads,
  ) {}

  /** `mergedFrom`: for a `merge` revision, the change request it merged. */
  revision(
    read: ReadRevision,
    content: { pages: PageTree[]; files: FileObject[]; reusableContents: ReusableContentNode[] },
    view: ContentView,
    mergedFrom?: PresentedChangeRequest,
  ): RevisionResponse {
    const { revision, root } = read;
    return {
      object: 'revision',
      id: revision.id,
      parents: revision.parents,
      type: revision.type,
      pages: content.pages.map((page) => this.page(page, view)),
      files: content.files.map((file) => this.file(file, view)),
      reusableContents: content.reusableContents.map((reusableContent) =>
        this.reusableContent(reusableContent, view),
      ),
      tags: [],
      variables: root.variables,
      createdAt: revision.createdAt.toISOString(),
      urls: {
        app:
          view.changeRequestNumber !== undefined
            ? this.urls.app(...this.appBase(view))
            : this.urls.app(...this.spaceBase(view), '~', 'revisions', revision.id),
      },
      ...(revision.git && view.metadata ? { git: { ...revision.git } } : {}),
      ...(mergedFrom ? { mergedFrom } : {}),
    };
  }

  /** A page with its subpages; `body` is added for a page read on its own. */
  page(tree: PageTree, view: ContentView, body: PageBody = {}): RevisionPageResponse {
    const { node, path } = tree;
    const meta = node.meta;
    const common: Record<string, unknown> = {
      id: node.id,
      title: typeof meta.title === 'string' && meta.title !== '' ? meta.title : 'Untitled',
    };
    for (const field of COMMON_FIELDS) {
      if (meta[field] !== undefined) common[field] = meta[field];
    }
    const flags: Record<string, unknown> = {};
    for (const flag of FLAGS) {
      if (meta[flag] !== undefined) flags[flag] = meta[flag];
    }
    const pages = () => tree.pages.map((child) => this.page(child, view));
    switch (node.type) {
      case 'document':
        return {
          kind: 'sheet',
          type: 'document',
          ...common,
          ...(meta.description !== undefined ? { description: meta.description } : {}),
          urls: { app: this.pageAppUrl(view, path ?? '') },
          slug: meta.slug ?? '',
          path: path ?? '',
          pages: pages(),
          layout: { ...DEFAULT_PAGE_LAYOUT, ...(meta.layout as Partial<PageLayoutResponse>) },
          tags: [] as object[],
          ...(meta.cover ? { cover: { yPos: 0, ...meta.cover } } : {}),
          ...(meta.variables ? { variables: meta.variables } : {}),
          ...(meta.git && view.metadata ? { git: meta.git } : {}),
          ...flags,
          ...(meta.computed
            ? { computed: meta.computed, computedSeed: meta.computedSeed ?? node.id }
            : node.document !== null
              ? { documentId: node.document }
              : {}),
          ...body,
        } as RevisionPageResponse;
      case 'group':
        return {
          kind: 'group',
          type: 'group',
          ...common,
          slug: meta.slug ?? '',
          path: path ?? '',
          ...flags,
          pages: pages(),
        } as RevisionPageResponse;
      case 'link':
        return {
          kind: 'link',
          type: 'link',
          ...common,
          target: meta.target,
          ...(meta.href !== undefined ? { href: meta.href } : {}),
          ...(meta.hidden !== undefined ? { hidden: meta.hidden } : {}),
        } as RevisionPageResponse;
      case 'computed':
        return { type: 'computed', ...common, computed: meta.computed } as RevisionPageResponse;
    }
  }

  file(file: FileObject, view: ContentView): RevisionFileResponse {
    return {
      id: file.id,
      name: file.name,
      contentType: file.contentType,
      // Bytes Bindery holds are served by Bindery (signed, expiring: for a site's readers, in a
      // month); others keep their URL.
      downloadURL:
        typeof file.blob === 'string'
          ? this.downloads.url(
              { blob: file.blob, name: file.name, contentType: file.contentType },
              view.visitor !== undefined,
            )
          : typeof file.downloadURL === 'string'
            ? file.downloadURL
            : this.urls.api(...this.apiContentBase(view), 'files', file.id),
      size: file.size,
      ...(file.dimensions ? { dimensions: file.dimensions } : {}),
      ...(file.git && view.metadata ? { git: file.git } : {}),
    };
  }

  reusableContent(
    reusableContent: ReusableContentNode,
    view: ContentView,
  ): RevisionReusableContentResponse {
    return {
      id: reusableContent.id,
      title: reusableContent.title,
      ...(typeof reusableContent.document === 'string'
        ? { document: reusableContent.document }
        : {}),
      ...(reusableContent.git && view.metadata ? { git: reusableContent.git } : {}),
    };
  }

  private pageAppUrl(view: ContentView, path: string): string {
    return this.urls.under(this.appBaseUrl(view), ...(path === '' ? [] : path.split('/')));
  }

  /** The app URL of the view's content, made once per view: a revision has a page per link. */
  private appBaseUrl(view: ContentView): string {
    let url = this.appBaseUrls.get(view);
    if (url === undefined) {
      url = this.urls.app(...this.appBase(view));
      this.appBaseUrls.set(view, url);
    }
    return url;
  }

  private spaceBase(view: ContentView): string[] {
    return ['o', view.organizationId, 's', view.spaceId];
  }

  /** Where the content is in the app: a change request, a revision, or the primary. */
  private appBase(view: ContentView): string[] {
    if (view.changeRequestNumber !== undefined) {
      return [...this.spaceBase(view), '~', 'changes', String(view.changeRequestNumber)];
    }
    return view.revisionId === null
      ? this.spaceBase(view)
      : [...this.spaceBase(view), '~', 'revisions', view.revisionId];
  }

  /** Where the content is in the API: a change request's, or the space's. */
  private apiContentBase(view: ContentView): string[] {
    return view.changeRequestNumber !== undefined
      ? ['spaces', view.spaceId, 'change-requests', String(view.changeRequestNumber), 'content']
      : ['spaces', view.spaceId, 'content'];
  }
}
