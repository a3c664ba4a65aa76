import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { LRUCache } from 'lru-cache';
import { DataSource } from 'typeorm';
import { Organization } from '../../orgs/entities/organization.entity';
import { MembersRepository } from '../../orgs/members/members.repository';
import { AppConfig } from '../../platform/config/app-config';
import { notFound } from '../../platform/errors/domain-error';
import type { Page } from '../../platform/pagination/page';
import { pageOfList } from '../../platform/pagination/slice';
import type { Role } from '../../platform/policy/roles';
import type { SpaceAccess } from '../space-access.resolver';
import { ContentEngine } from '../../content-engine/content-engine';
import type { JSONDocument } from '../../content-engine/documents/document';
import { ContentObjectsRepository } from '../../content-engine/content-objects.repository';
import { RevisionsRepository } from '../../content-engine/revisions.repository';
import { BatchedObjectStore } from '../../content-engine/reads/batched-object-store';
import {
  ContentReader,
  type FileObject,
  type PageTree,
} from '../../content-engine/reads/content-reader';
import { getRequired, type ObjectStore } from '../../content-engine/tree/object-store';
import {
  asContentRef,
  documentAnchors,
  documentReferences,
  type DocumentReference,
} from '../../content-engine/links/document-references';
import {
  analyzeLinks,
  fileBacklinks,
  linkStats,
  missingPageIds,
  pageBacklinks,
  pageLinks,
  type LinkedPage,
  type LinkStats,
  type LinkStatus,
  type LinkUsage,
} from '../../content-engine/links/link-analysis';

/** Revisions whose links are kept in memory (they never change: a revision is immutable). */
export const LINKS_CACHE_REVISIONS = 64;
/** Bound on what the cache holds, counted in pages + references. */
export const LINKS_CACHE_SIZE = 500_000;
/** How many revisions back a link's missing target page is looked for (to name it). */
export const DEAD_TARGET_HISTORY_DEPTH = 50;

/** A page a link points at that the revision no longer has, as an earlier revision had it. */
export interface DeadPage {
  /** The page, without subpages. */
  tree: PageTree;
  /** The nearest earlier revision that has it. */
  revisionId: string;
}

/** The links of one revision, with the pages and files they are presented with. */
export interface RevisionLinks {
  revisionId: string;
  usages: LinkUsage[];
  /** Every page of the revision by id (with its subpages, as read). */
  pages: Map<string, PageTree>;
  files: Map<string, FileObject>;
  /** Pages the links name by id that the revision lacks, found in its history. */
  deadPages: Map<string, DeadPage>;
}

/** Who is asking and about what: enough to present locations (organization, space, pages). */
export interface LinksScope {
  space: SpaceAccess;
  organization: Organization;
  organizationRole: Role | null;
  links: RevisionLinks;
}

export interface LinksListing {
  scope: LinksScope;
  page: Page<LinkUsage>;
  stats: LinkStats;
}

/**
 * Which revision a listing reads: a change request's head names the revision it was last based
 * on (`basedOn`), for the count of links the change request broke.
 */
export interface ListedRevision {
  revisionId: string;
  basedOn?: string;
}

export interface BacklinksListing {
  scope: LinksScope;
  page: Page<string>;
}

/**
 * Links of a revision of a space (its primary unless a route names another, such as a change
 * request's head): every reference its pages make, resolved in the revision and classified
 * `ok`, `broken` or `in-app` (REFERENCE §7 "Link item"). Worked out once per revision and kept
 * by revision id.
 */
@Injectable()
export class LinksService {
  private readonly store: ObjectStore;
  private readonly cache = new LRUCache<string, RevisionLinks>({
    max: LINKS_CACHE_REVISIONS,
    maxSize: LINKS_CACHE_SIZE,
    sizeCalculation: (links) =>
      Math.max(1, links.pages.size + links.usages.reduce((n, u) => n + u.locations.length, 0)),
  });
  private readonly inFlight = new Map<string, Promise<RevisionLinks>>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    engine: ContentEngine,
    private readonly reader: ContentReader,
    private readonly revisions: RevisionsRepository,
    private readonly config: AppConfig,
    private readonly members: MembersRepository,
    objects: ContentObjectsRepository,
  ) {
    this.store = new BatchedObjectStore(
      dataSource.manager,
      (kind, data) => engine.put(dataSource.manager, kind, data),
      objects,
    );
  }

  /** `listSpaceLinks`: every link of the primary revision. */
  async spaceLinks(
    space: SpaceAccess,
    userId: string,
    query: { status?: LinkStatus; page?: string; limit?: number },
  ): Promise<LinksListing> {
    const scope = await this.scope(space, userId);
    return { scope, ...listing(scope.links.usages, query) };
  }

  /**
   * `listPageLinksInSpace` (on the primary) and `listPageLinksInChangeRequest` (on its
   * `revisionId`): the links found on one page; 404 for an unknown page.
   */
  async pageLinks(
    space: SpaceAccess,
    userId: string,
    pageId: string,
    query: { status?: LinkStatus; page?: string; limit?: number },
    at: ListedRevision = { revisionId: space.entity.revisionId },
  ): Promise<LinksListing> {
    const [scope, before] = await Promise.all([
      this.scope(space, userId, at.revisionId),
      at.basedOn === undefined ? undefined : this.revisionLinks(space.id, at.basedOn),
    ]);
    if (!scope.links.pages.has(pageId)) throw notFound('Page');
    return { scope, ...listing(pageLinks(scope.links.usages, pageId), query, before?.usages) };
  }

  /**
   * `listSpacePageBacklinks` (on the primary) and `listChangeRequestPageBacklinks` (on its
   * `revisionId`): the pages that link to a page or an anchor on it; 404 for an unknown page.
   */
  async pageBacklinks(
    space: SpaceAccess,
    userId: string,
    pageId: string,
    query: { page?: string; limit?: number },
    revisionId: string = space.entity.revisionId,
  ): Promise<BacklinksListing> {
    const scope = await this.scope(space, userId, revisionId);
    if (!scope.links.pages.has(pageId)) throw notFound('Page');
    const pages = pageBacklinks(scope.links.usages, pageId);
    return { scope, page: pageOfList(pages, query, 'backlinks') };
  }

  /**
   * `listSpaceFileBacklinks` (on the primary) and `listChangeRequestFileBacklinks` (on its
   * `revisionId`): the pages that reference a file; 404 for an unknown file.
   */
  async fileBacklinks(
    space: SpaceAccess,
    userId: string,
    fileId: string,
    query: { page?: string; limit?: number },
    revisionId: string = space.entity.revisionId,
  ): Promise<BacklinksListing> {
    const scope = await this.scope(space, userId, revisionId);
    if (!scope.links.files.has(fileId)) throw notFound('File');
    const pages = fileBacklinks(scope.links.usages, fileId);
    return { scope, page: pageOfList(pages, query, 'backlinks') };
  }

  /** The links of a revision of `spaceId`, from the cache or worked out. */
  async revisionLinks(spaceId: string, revisionId: string): Promise<RevisionLinks> {
    const cached = this.cache.get(revisionId);
    if (cached) return cached;
    let pending = this.inFlight.get(revisionId);
    if (!pending) {
      pending = this.compute(spaceId, revisionId).finally(() => this.inFlight.delete(revisionId));
      this.inFlight.set(revisionId, pending);
    }
    const links = await pending;
    this.cache.set(revisionId, links);
    return links;
  }

  private async scope(
    space: SpaceAccess,
    userId: string,
    revisionId: string = space.entity.revisionId,
  ): Promise<LinksScope> {
    const manager = this.dataSource.manager;
    const [links, organization, role] = await Promise.all([
      this.revisionLinks(space.id, revisionId),
      manager.findOneByOrFail(Organization, { id: space.entity.organizationId }),
      this.members.roleOf(space.entity.organizationId, userId, manager),
    ]);
    return { space, organization, organizationRole: role ?? null, links };
  }

  private async compute(spaceId: string, revisionId: string): Promise<RevisionLinks> {
    const read = await this.reader.readRevision(spaceId, revisionId);
    const [trees, files, reusable] = await Promise.all([
      this.reader.listPages(read),
      this.reader.listAllFiles(read),
      Promise.all(
        read.root.reusableContents.map((hash) => getRequired<{ id: string }>(this.store, hash)),
      ),
    ]);
    const ordered: PageTree[] = [];
    const walk = (level: PageTree[]) => {
      for (const tree of level) {
        ordered.push(tree);
        walk(tree.pages);
      }
    };
    walk(trees);
    // Every document in one query (the store batches the reads issued together).
    const documents = await Promise.all(
      ordered.map(({ node }) =>
        node.type === 'document' && node.document !== null
          ? getRequired<JSONDocument>(this.store, node.document)
          : Promise.resolve(null),
      ),
    );
    const pages: LinkedPage[] = ordered.map(({ node, path }, i) => {
      const document = documents[i];
      const references: DocumentReference[] = document ? documentReferences(document) : [];
      const target = node.type === 'link' ? asContentRef(node.meta.target) : undefined;
      if (target) references.unshift({ ref: target, relation: 'reference' });
      return {
        id: node.id,
        path,
        anchors: document ? documentAnchors(document) : new Set<string>(),
        references,
      };
    });
    const usages = analyzeLinks({
      spaceId,
      appUrl: this.config.appUrl,
      pages,
      fileIds: new Set(files.map((file) => file.id)),
      reusableContentIds: new Set(reusable.map((content) => content.id)),
    });
    return {
      revisionId,
      usages,
      pages: new Map(ordered.map((tree) => [tree.node.id, tree])),
      files: new Map(files.map((file) => [file.id, file])),
      deadPages: await this.deadPages(spaceId, revisionId, missingPageIds(usages)),
    };
  }

  /**
   * The pages among `pageIds` as the nearest earlier revisions on the first-parent line had
   * them (a deleted page, the last state it had), at most DEAD_TARGET_HISTORY_DEPTH back; ids
   * no such revision has are left out.
   */
  private async deadPages(
    spaceId: string,
    revisionId: string,
    pageIds: string[],
  ): Promise<Map<string, DeadPage>> {
    const found = new Map<string, DeadPage>();
    if (pageIds.length === 0) return found;
    const earlier = await this.revisions.firstParentLine(
      spaceId,
      revisionId,
      DEAD_TARGET_HISTORY_DEPTH,
    );
    let missing = pageIds;
    for (const id of earlier) {
      if (missing.length === 0) break;
      const read = await this.reader.readRevision(spaceId, id);
      const trees = await Promise.all(missing.map((pageId) => this.reader.findPage(read, pageId)));
      trees.forEach((tree) => {
        if (tree) found.set(tree.node.id, { tree, revisionId: id });
      });
      missing = missing.filter((pageId) => !found.has(pageId));
    }
    return found;
  }
}

/** `brokenSince`: the links of the revision a change request was based on (see linkStats). */
function listing(
  usages: LinkUsage[],
  query: { status?: LinkStatus; page?: string; limit?: number },
  brokenSince?: LinkUsage[],
): { page: Page<LinkUsage>; stats: LinkStats } {
  const filtered = query.status ? usages.filter((usage) => usage.status === query.status) : usages;
  return {
    page: pageOfList(filtered, query, `links:${query.status ?? ''}`),
    stats: linkStats(usages, brokenSince),
  };
}
