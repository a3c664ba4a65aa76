import type { ContentRef } from '../documents/document';
import type { DocumentReference, ReferenceRelation } from './document-references';

/** GitBook's `ContentReferenceStatus`. */
export const LINK_STATUSES = ['ok', 'broken', 'in-app'] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];

/** A page of the revision as link analysis sees it. */
export interface LinkedPage {
  id: string;
  /** Slugs from the top joined by `/`; null for pages without a path (links, computed). */
  path: string | null;
  /** Anchors defined on the page (heading ids, `meta.id`s). */
  anchors: ReadonlySet<string>;
  /** References made by the page: its document's, and a link page's target. */
  references: DocumentReference[];
}

export interface LinkAnalysisInput {
  spaceId: string;
  /** Bindery's app URL (APP_URL): a URL under it is an `in-app` link. */
  appUrl: string;
  /** Every page of the revision, in document order. */
  pages: LinkedPage[];
  fileIds: ReadonlySet<string>;
  reusableContentIds: ReadonlySet<string>;
}

/** What a reference points at, resolved in the revision. */
export type LinkTarget =
  /**
   * A page by id; or, with `url`, a path as written that matches no page (`page` is the path
   * as read, `exists` false).
   */
  | { kind: 'page'; page: string; exists: boolean; url?: string }
  | { kind: 'anchor'; page: string; anchor: string; pageExists: boolean; exists: boolean }
  | { kind: 'file'; file: string; exists: boolean }
  | { kind: 'reusable-content'; reusableContent: string; exists: boolean }
  | { kind: 'url'; url: string }
  /** Outside the revision (another space, a user, a collection, an OpenAPI spec…). */
  | { kind: 'other'; ref: ContentRef };

/** Where a reference was found: a page, and the node holding it. */
export interface LinkLocation {
  page: string;
  node?: string;
}

/** One target and every place that references it (GitBook's `ContentReferenceUsage`). */
export interface LinkUsage {
  status: LinkStatus;
  relation: ReferenceRelation;
  target: LinkTarget;
  locations: LinkLocation[];
}

export interface LinkStats {
  total: number;
  /** `changeRequest`: of those, the ones broken by a change request (listings of one only). */
  broken: { total: number; changeRequest?: number };
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * Every reference of the revision resolved and grouped by target (and relation), in the order
 * targets are first met; each usage lists its locations in document order, without repeats.
 */
export function analyzeLinks(input: LinkAnalysisInput): LinkUsage[] {
  const pages = new Map(input.pages.map((page) => [page.id, page]));
  const byPath = new Map<string, string>();
  for (const page of input.pages) {
    if (page.path !== null && !byPath.has(page.path)) byPath.set(page.path, page.id);
  }
  const context: Resolver = { ...input, pages, byPath };
  const usages = new Map<string, LinkUsage & { seen: Set<string> }>();
  for (const page of input.pages) {
    for (const reference of page.references) {
      const target = resolve(reference.ref, page, context);
      const key = usageKey({ relation: reference.relation, target });
      let usage = usages.get(key);
      if (!usage) {
        usage = {
          status: statusOf(target, input.appUrl),
          relation: reference.relation,
          target,
          locations: [],
          seen: new Set(),
        };
        usages.set(key, usage);
      }
      const location: LinkLocation =
        reference.node === undefined ? { page: page.id } : { page: page.id, node: reference.node };
      const at = locationKey(location);
      if (!usage.seen.has(at)) {
        usage.seen.add(at);
        usage.locations.push(location);
      }
    }
  }
  return [...usages.values()].map(({ seen: _seen, ...usage }) => usage);
}

/** The usages found on one page, with only that page's locations. */
export function pageLinks(usages: LinkUsage[], pageId: string): LinkUsage[] {
  const found: LinkUsage[] = [];
  for (const usage of usages) {
    const locations = usage.locations.filter((location) => location.page === pageId);
    if (locations.length > 0) found.push({ ...usage, locations });
  }
  return found;
}

/**
 * Ids of the pages the revision lacks that its references name by id (a page, or an anchor on
 * it), in the order they are first met: what a deleted page's links still point at.
 */
export function missingPageIds(usages: LinkUsage[]): string[] {
  const ids = new Set<string>();
  for (const { target } of usages) {
    if (target.kind === 'page' && !target.exists && target.url === undefined) ids.add(target.page);
    if (target.kind === 'anchor' && !target.pageExists) ids.add(target.page);
  }
  return [...ids];
}

/** Ids of the pages that reference the page (or an anchor on it), each once. */
export function pageBacklinks(usages: LinkUsage[], pageId: string): string[] {
  return referencingPages(
    usages,
    ({ target }) => (target.kind === 'page' || target.kind === 'anchor') && target.page === pageId,
  );
}

/** Ids of the pages that reference the file, each once. */
export function fileBacklinks(usages: LinkUsage[], fileId: string): string[] {
  return referencingPages(usages, ({ target }) => target.kind === 'file' && target.file === fileId);
}

/** The pages where the usages that match are found, each once, in the order they are met. */
function referencingPages(usages: LinkUsage[], matches: (usage: LinkUsage) => boolean): string[] {
  const pages = new Set<string>();
  for (const usage of usages) {
    if (matches(usage)) {
      for (const location of usage.locations) pages.add(location.page);
    }
  }
  return [...pages];
}

/**
 * `brokenSince`: the revision a change request's content is compared with (what it was last
 * based on); with it, `broken.changeRequest` counts the broken links that are not broken there,
 * or that the change request added somewhere they were not.
 */
export function linkStats(usages: LinkUsage[], brokenSince?: LinkUsage[]): LinkStats {
  const broken = usages.filter((usage) => usage.status === 'broken');
  return {
    total: usages.length,
    broken: {
      total: broken.length,
      ...(brokenSince ? { changeRequest: countNewlyBroken(broken, brokenSince) } : {}),
    },
  };
}

/** Broken usages with a location where `before` has no broken usage of the same target. */
function countNewlyBroken(broken: LinkUsage[], before: LinkUsage[]): number {
  const brokenBefore = new Map<string, Set<string>>();
  for (const usage of before) {
    if (usage.status !== 'broken') continue;
    brokenBefore.set(usageKey(usage), new Set(usage.locations.map(locationKey)));
  }
  return broken.filter((usage) => {
    const locations = brokenBefore.get(usageKey(usage));
    return !locations || usage.locations.some((location) => !locations.has(locationKey(location)));
  }).length;
}

/** What makes a usage one: its relation and its target. */
function usageKey(usage: Pick<LinkUsage, 'relation' | 'target'>): string {
  return `${usage.relation} ${targetKey(usage.target)}`;
}

function locationKey(location: LinkLocation): string {
  return `${location.page} ${location.node ?? ''}`;
}

interface Resolver extends Omit<LinkAnalysisInput, 'pages'> {
  pages: Map<string, LinkedPage>;
  byPath: Map<string, string>;
}

function statusOf(target: LinkTarget, appUrl: string): LinkStatus {
  switch (target.kind) {
    case 'page':
    case 'anchor':
    case 'file':
    case 'reusable-content':
      return target.exists ? 'ok' : 'broken';
    case 'url':
      return isInApp(target.url, appUrl) ? 'in-app' : 'ok';
    case 'other':
      return 'ok';
  }
}

/** A URL at or under the app URL (`https://app.example.com`, `…/o/x`, `…?y`, `…#z`). */
export function isInApp(url: string, appUrl: string): boolean {
  const base = appUrl.replace(/\/+$/, '');
  if (!url.toLowerCase().startsWith(base.toLowerCase())) return false;
  const rest = url.slice(base.length);
  return rest === '' || rest.startsWith('/') || rest.startsWith('?') || rest.startsWith('#');
}

function targetKey(target: LinkTarget): string {
  switch (target.kind) {
    case 'page':
      return `page ${target.page}`;
    case 'anchor':
      return `anchor ${target.page} ${target.anchor}`;
    case 'file':
      return `file ${target.file}`;
    case 'reusable-content':
      return `reusable-content ${target.reusableContent}`;
    case 'url':
      return `url ${target.url}`;
    case 'other':
      return `other ${JSON.stringify(target.ref, Object.keys(target.ref).sort())}`;
  }
}

function resolve(ref: ContentRef, from: LinkedPage, context: Resolver): LinkTarget {
  const here = (space: string | undefined) => space === undefined || space === context.spaceId;
  switch (ref.kind) {
    case 'page':
      return here(ref.space)
        ? { kind: 'page', page: ref.page, exists: context.pages.has(ref.page) }
        : { kind: 'other', ref };
    case 'anchor':
      return here(ref.space) ? anchorTarget(ref.page ?? from.id, ref.anchor, context) : other(ref);
    case 'file':
      return { kind: 'file', file: ref.file, exists: context.fileIds.has(ref.file) };
    case 'reusable-content':
      return here(ref.space)
        ? {
            kind: 'reusable-content',
            reusableContent: ref.reusableContent,
            exists: context.reusableContentIds.has(ref.reusableContent),
          }
        : other(ref);
    case 'url':
      return resolveUrl(ref.url, from, context);
    default:
      return other(ref);
  }
}

function other(ref: ContentRef): LinkTarget {
  return { kind: 'other', ref };
}

function anchorTarget(pageId: string, anchor: string, context: Resolver): LinkTarget {
  const page = context.pages.get(pageId);
  return {
    kind: 'anchor',
    page: pageId,
    anchor,
    pageExists: page !== undefined,
    exists: page?.anchors.has(anchor) ?? false,
  };
}

/**
 * A URL with a scheme (or `//host`) is external, or in-app; anything else is a path to a page
 * of the revision, as markdown writes them (`../install.md`, `guide/README.md#setup`, `#top`):
 * resolved against the page's folder, then against the page itself, then from the top. A path
 * that matches no page stays a page reference, broken.
 */
function resolveUrl(url: string, from: LinkedPage, context: Resolver): LinkTarget {
  if (SCHEME.test(url) || url.startsWith('//')) return { kind: 'url', url };
  const [beforeHash, ...hashParts] = url.split('#');
  const anchor = safeDecode(hashParts.join('#'));
  const written = safeDecode(beforeHash.split('?')[0]);
  if (written === '') {
    return anchor === '' ? { kind: 'url', url } : anchorTarget(from.id, anchor, context);
  }
  const pageId = findByPath(written, from.path, context.byPath);
  if (pageId === undefined) return { kind: 'page', page: written, exists: false, url };
  return anchor === ''
    ? { kind: 'page', page: pageId, exists: true }
    : anchorTarget(pageId, anchor, context);
}

function findByPath(
  written: string,
  fromPath: string | null,
  byPath: Map<string, string>,
): string | undefined {
  const bases: string[][] = [];
  if (written.startsWith('/')) {
    bases.push([]);
  } else {
    const own = fromPath === null ? [] : fromPath.split('/');
    bases.push(own.slice(0, -1), own, []);
  }
  for (const base of bases) {
    const path = normalize(base, written);
    if (path !== undefined) {
      const id = byPath.get(path);
      if (id !== undefined) return id;
    }
  }
  return undefined;
}

/** `base` + relative `written`, without `.`/`..`, `README.md`, a `.md` suffix or slashes. */
function normalize(base: string[], written: string): string | undefined {
  const segments = [...base];
  for (const segment of written.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) return undefined;
      segments.pop();
    } else {
      segments.push(segment);
    }
  }
  const last = segments[segments.length - 1];
  if (last !== undefined && /^readme\.md$/i.test(last)) segments.pop();
  else if (last !== undefined && last.toLowerCase().endsWith('.md')) {
    segments[segments.length - 1] = last.slice(0, -3);
  }
  return segments.length === 0 ? undefined : segments.join('/');
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
