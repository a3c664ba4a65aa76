import { sha256Hex } from '../../platform/ids/ids';
import type { DocumentBlock, JSONDocument } from '../documents/document';

/*
 * The pages of an API reference generated from an OpenAPI document (3.0, 3.1 or Swagger 2.0,
 * `$ref`s already resolved): one page per tag listing its operations as `openapi-operation`
 * blocks, an "Other" page for untagged operations, a "Webhooks" page (3.1) and a "Models" page
 * with an `openapi-schemas` block. Pure: the blocks only point into the specification (by the
 * content ref), they copy nothing of it, so readers render the spec's current version. Each page
 * names what it is computed from (GitBook's `ComputedContentSourceDocumentOpenAPI` props), and
 * its block keys derive from that and the operation, so the same document always gives the
 * same pages: regenerating from a version that changes nothing changes nothing.
 */

/** GitBook's `ContentRefOpenAPI`: `spec` is the specification's slug (or id). */
export interface OpenAPIContentRef {
  kind: 'openapi';
  spec: string;
}

/**
 * What a page is computed from (GitBook's `ComputedContentSourceDocumentOpenAPI.props`): a tag's
 * operations (`page`: the tag's name, or UNTAGGED_PAGE_KEY / WEBHOOKS_PAGE_KEY), or the models.
 */
export type ApiReferencePageProps = { doc: 'operations'; page: string } | { doc: 'models' };

export interface ApiReferencePage {
  props: ApiReferencePageProps;
  title: string;
  description?: string;
  icon?: string;
  document: JSONDocument;
  /** Subpages: tags whose `x-parent` names this page's tag. */
  pages: ApiReferencePage[];
}

/** Operation keys of a path item, in the order OpenAPI lists them (Swagger 2.0 has no trace). */
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export const UNTAGGED_PAGE_TITLE = 'Other';
export const WEBHOOKS_PAGE_TITLE = 'Webhooks';
export const MODELS_PAGE_TITLE = 'Models';
/** `props.page` of the pages of untagged operations and of webhooks (not tag names). */
export const UNTAGGED_PAGE_KEY = 'x-gitbook-untagged';
export const WEBHOOKS_PAGE_KEY = 'x-gitbook-webhooks';

/** A page's identity among the pages of one specification: `operations:<page>` or `models`. */
export function apiReferencePageKey(props: ApiReferencePageProps): string {
  return props.doc === 'models' ? 'models' : `operations:${props.page}`;
}

/** The seed of a page's block keys (its `computedSeed`). */
export function apiReferenceSeed(props: ApiReferencePageProps): string {
  return apiReferencePageKey(props);
}

/** Block keys derived from the seed and what the block stands for: stable across versions. */
function seededKeys(seed: string): (part: string) => string {
  return (part) =>
    Buffer.from(sha256Hex(`${seed}\n${part}`), 'hex')
      .toString('base64url')
      .slice(0, 12);
}

interface Operation {
  /** The path (operations) or the webhook's name (webhooks). */
  path: string;
  method: string;
  summary?: string;
  tags: string[];
}

/** What a tag page shows, from the document's `tags` entry and GitBook's `x-page-*` extensions. */
interface TagInfo {
  name: string;
  title: string;
  description?: string;
  icon?: string;
  parent?: string;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/**
 * The operations of `paths` (or of 3.1 `webhooks`), path by path in the document's order and,
 * within a path, in OpenAPI's method order. Operations marked `x-internal: true` are left out,
 * as GitBook does.
 */
function operationsOf(paths: unknown): Operation[] {
  if (!isObject(paths)) return [];
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isObject(operation) || operation['x-internal'] === true) continue;
      const tags = Array.isArray(operation.tags)
        ? operation.tags.map(nonEmptyString).filter((tag) => tag !== undefined)
        : [];
      operations.push({
        path,
        method,
        // One line: a heading cannot hold a line break.
        summary: nonEmptyString(operation.summary)?.replace(/\s+/g, ' '),
        tags: [...new Set(tags)],
      });
    }
  }
  return operations;
}

/** The document's `tags` entries by name, in their order. */
function declaredTags(document: Json): Map<string, TagInfo> {
  const tags = new Map<string, TagInfo>();
  for (const tag of Array.isArray(document.tags) ? (document.tags as unknown[]) : []) {
    const name = isObject(tag) ? nonEmptyString(tag.name) : undefined;
    if (!isObject(tag) || name === undefined || tags.has(name)) continue;
    tags.set(name, {
      name,
      title: nonEmptyString(tag['x-page-title']) ?? name,
      description: nonEmptyString(tag['x-page-description']) ?? nonEmptyString(tag.description),
      icon: nonEmptyString(tag['x-page-icon']),
      parent: nonEmptyString(tag['x-parent']) ?? nonEmptyString(tag.parent),
    });
  }
  return tags;
}

/** Component schema names: `components.schemas` (3.x) or `definitions` (2.0), in order. */
function schemaNames(document: Json): string[] {
  const components = isObject(document.components) ? document.components.schemas : undefined;
  const schemas = isObject(components) ? components : document.definitions;
  return isObject(schemas) ? Object.keys(schemas) : [];
}

/** Makes a block key from what the block stands for (a seeded hash, or a test's counter). */
type KeyMaker = (part: string) => string;

class DocumentBuilder {
  constructor(private readonly ref: OpenAPIContentRef) {}

  heading(text: string, key: KeyMaker, part: string): DocumentBlock {
    return {
      object: 'block',
      key: key(`heading ${part}`),
      type: 'heading-2',
      data: {},
      nodes: [
        {
          object: 'text',
          key: key(`text ${part}`),
          leaves: [{ object: 'leaf', text, marks: [] }],
        },
      ],
    };
  }

  pointer(type: string, data: Record<string, unknown>, key: KeyMaker, part: string): DocumentBlock {
    return {
      object: 'block',
      key: key(`${type} ${part}`),
      type,
      data: { ref: { kind: 'openapi', spec: this.ref.spec }, ...data },
      isVoid: true,
    };
  }

  /** Each operation under a heading: its summary, or `METHOD path`. */
  operations(
    operations: Operation[],
    type: 'openapi-operation' | 'openapi-webhook',
    key: KeyMaker,
  ) {
    const field = type === 'openapi-operation' ? 'path' : 'name';
    return this.document(
      operations.flatMap((operation) => {
        const part = `${operation.method} ${operation.path}`;
        return [
          this.heading(
            operation.summary ?? `${operation.method.toUpperCase()} ${operation.path}`,
            key,
            part,
          ),
          this.pointer(type, { [field]: operation.path, method: operation.method }, key, part),
        ];
      }),
    );
  }

  document(nodes: DocumentBlock[]): JSONDocument {
    return { object: 'document', data: {}, nodes };
  }
}

/** The parent chain of `name` (itself first), cut before a name comes back. */
function ancestry(name: string, tags: Map<string, TagInfo>): string[] {
  const chain: string[] = [];
  for (let at: string | undefined = name; at !== undefined && !chain.includes(at);) {
    chain.push(at);
    at = tags.get(at)?.parent;
  }
  return chain;
}

/**
 * Tags that get a page: those with operations, and the declared tags they name (transitively)
 * in `x-parent`, GitBook's extension for nesting tag pages.
 */
function tagsWithPages(byTag: Map<string, Operation[]>, tags: Map<string, TagInfo>): Set<string> {
  const withPages = new Set<string>();
  for (const [name, operations] of byTag) {
    if (operations.length === 0) continue;
    for (const at of ancestry(name, tags)) {
      if (byTag.has(at)) withPages.add(at);
    }
  }
  return withPages;
}

/**
 * Nests each tag page under the page of its `x-parent` tag; an unknown parent or a parent chain
 * that comes back to the tag leaves the page at the top level.
 */
function nest(pages: { info: TagInfo; page: ApiReferencePage }[]): ApiReferencePage[] {
  const byName = new Map(pages.map((entry) => [entry.info.name, entry]));
  const infos = new Map(pages.map((entry) => [entry.info.name, entry.info]));
  const roots: ApiReferencePage[] = [];
  for (const { info, page } of pages) {
    const parent = info.parent !== undefined ? byName.get(info.parent) : undefined;
    const chain = ancestry(info.name, infos);
    const cycle = infos.get(chain[chain.length - 1])?.parent === info.name;
    if (parent && !cycle) parent.page.pages.push(page);
    else roots.push(page);
  }
  return roots;
}

/**
 * The API reference pages of `document`: tag pages (the document's `tags` order, then tags
 * first seen on operations), "Other" for untagged operations, "Webhooks", then "Models" when
 * there are component schemas. An operation with several tags is on each of their pages; a
 * declared tag without operations gets a page only as the `x-parent` of one that has some. An
 * empty document gives no pages. Block keys derive from each page's seed (`apiReferenceSeed`)
 * unless `newKey` makes them (tests).
 */
export function apiReferencePages(
  ref: OpenAPIContentRef,
  document: unknown,
  newKey?: () => string,
): ApiReferencePage[] {
  if (!isObject(document)) return [];
  const build = new DocumentBuilder(ref);
  const keysOf = (props: ApiReferencePageProps): KeyMaker =>
    newKey ? () => newKey() : seededKeys(apiReferenceSeed(props));
  const operations = operationsOf(document.paths);
  const tags = declaredTags(document);
  const byTag = new Map<string, Operation[]>([...tags.keys()].map((name) => [name, []]));
  for (const operation of operations) {
    for (const tag of operation.tags) {
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)!.push(operation);
    }
  }
  const withPages = tagsWithPages(byTag, tags);
  const tagPages = [...byTag]
    .filter(([name]) => withPages.has(name))
    .map(([name, tagged]) => {
      const info = tags.get(name) ?? { name, title: name };
      const props = { doc: 'operations', page: name } as const;
      const page: ApiReferencePage = {
        props,
        title: info.title,
        ...(info.description !== undefined ? { description: info.description } : {}),
        ...(info.icon !== undefined ? { icon: info.icon } : {}),
        document: build.operations(tagged, 'openapi-operation', keysOf(props)),
        pages: [],
      };
      return { info, page };
    });
  const pages = nest(tagPages);

  const untagged = operations.filter((operation) => operation.tags.length === 0);
  if (untagged.length > 0) {
    const props = { doc: 'operations', page: UNTAGGED_PAGE_KEY } as const;
    pages.push({
      props,
      title: UNTAGGED_PAGE_TITLE,
      document: build.operations(untagged, 'openapi-operation', keysOf(props)),
      pages: [],
    });
  }
  const webhooks = operationsOf(document.webhooks);
  if (webhooks.length > 0) {
    const props = { doc: 'operations', page: WEBHOOKS_PAGE_KEY } as const;
    pages.push({
      props,
      title: WEBHOOKS_PAGE_TITLE,
      document: build.operations(webhooks, 'openapi-webhook', keysOf(props)),
      pages: [],
    });
  }
  const schemas = schemaNames(document);
  if (schemas.length > 0) {
    const props = { doc: 'models' } as const;
    const key = keysOf(props);
    pages.push({
      props,
      title: MODELS_PAGE_TITLE,
      document: build.document([build.pointer('openapi-schemas', { schemas }, key, 'models')]),
      pages: [],
    });
  }
  return pages;
}
