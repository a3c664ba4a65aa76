import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DomainError, invalidInput } from '../../platform/errors/domain-error';
import { newId } from '../../platform/ids/ids';
import { INITIAL_PAGE_TITLE } from '../content-engine';
import type { JSONDocument } from '../documents/document';
import type { Revision } from '../entities/revision.entity';
import {
  apiReferencePages,
  type ApiReferencePage,
  type OpenAPIContentRef,
} from '../api-reference/api-reference-pages';
import { apiReferencePageMeta } from '../api-reference/api-reference-sources';
import {
  OPENAPI_SPEC_CONTENTS,
  type OpenAPISpecContents,
} from '../api-reference/openapi-spec-contents';
import { childRefs, readRoot } from '../tree/format';
import type { ObjectStore } from '../tree/object-store';
import { ContentWriter, type ChangesInput, type ContentChange } from './content-writer';

/** A page a template starts with. */
export interface TemplatePage {
  title: string;
  description?: string;
  icon?: string;
  /** The page's body, as markdown or as a document; neither = an empty page. */
  markdown?: string;
  document?: JSONDocument;
  pages?: TemplatePage[];
  /** Pages computed from a source (api-reference): GitBook's `computed` and `computedSeed`. */
  computed?: Record<string, unknown>;
  computedSeed?: string;
  /** The OpenAPI specification (its id) a computed page comes from; not page metadata. */
  specId?: string;
}

/** What applying a template writes, and what records its computed pages once it is written. */
export interface TemplateReplacement {
  changes: ChangesInput;
  /** In the transaction of the write: links the space to the specs its pages are computed from. */
  link(manager: EntityManager, spaceId: string): Promise<void>;
}

/** GitBook's `SpaceTemplateParams`. */
export interface SpaceTemplateParams {
  contentRefs?: Record<string, unknown>;
}

export const SPACE_TEMPLATE_IDS = ['blank', 'product-docs', 'api-reference'] as const;

/** What the operation description says about each template. */
export const SPACE_TEMPLATES_DESCRIPTION =
  'Templates: `blank` (one empty page); `product-docs` (a starter tree: "Getting started", ' +
  '"Guides" with two sub-pages, "Reference" and "FAQ", each with a short body); ' +
  '`api-reference` (pages generated from the latest version of the OpenAPI specification given ' +
  'as the content ref `params.contentRefs.spec`, `{kind: "openapi", spec}` with the ' +
  "specification's slug or id: one page per tag, in the order of the document's `tags` (nested " +
  'by `x-parent`; titled by `x-page-title` or the tag, described by `x-page-description` or ' +
  "the tag's description), with a heading and an `openapi-operation` block per operation; " +
  '"Other" for untagged operations, "Webhooks" for OpenAPI 3.1 webhooks and "Models" with an ' +
  '`openapi-schemas` block of the component schemas. The pages are computed pages: each ' +
  'carries `computed` (`{type: "builtin:openapi", dependencies: {spec: {ref}}, props: {doc: ' +
  '"operations", page: <tag>}}`, or `{doc: "models"}`) and `computedSeed`, and every new ' +
  'processed version of the specification regenerates them in the primary content: pages of ' +
  'new tags are added, those of removed tags deleted, the others follow the spec; a version ' +
  'that changes no page writes no revision. 400 when the specification is unknown, has no ' +
  'processed version yet or nothing to make pages of).';

const PRODUCT_DOCS: TemplatePage[] = [
  {
    title: 'Getting started',
    markdown:
      '# Getting started\n\nWelcome! This page tells a newcomer what the product does and ' +
      'how to try it in a few minutes.\n\n1. Create an account.\n2. Follow the quick start.\n',
  },
  {
    title: 'Guides',
    markdown: 'Step-by-step guides for the most common tasks.\n',
    pages: [
      {
        title: 'Writing content',
        markdown: 'How to add pages, write with **markdown** and organize the table of contents.\n',
      },
      {
        title: 'Publishing',
        markdown: 'How to review changes and publish them for your readers.\n',
      },
    ],
  },
  {
    title: 'Reference',
    markdown: 'Settings, limits and the other details a reader looks up.\n',
  },
  {
    title: 'FAQ',
    markdown:
      '## Where do I start?\n\nRead *Getting started* first.\n\n' +
      '## How do I get help?\n\nContact the team that maintains this documentation.\n',
  },
];

/** What a template is made of: fixed pages, or the pages of an OpenAPI specification. */
export type TemplateSource =
  { kind: 'pages'; pages: TemplatePage[] } | { kind: 'openapi'; spec: OpenAPIContentRef };

/**
 * Template `id` with its parameters checked, or a 400 for an unknown template or a missing or
 * malformed parameter. `prefix` is where the template sits in the request body: '' for
 * applyTemplateToSpace, `template.` for createSpace.
 */
export function templateSource(
  id: string,
  params: SpaceTemplateParams | undefined,
  prefix = '',
): TemplateSource {
  switch (id) {
    case 'blank':
      return { kind: 'pages', pages: [{ title: INITIAL_PAGE_TITLE }] };
    case 'product-docs':
      return { kind: 'pages', pages: PRODUCT_DOCS };
    case 'api-reference':
      return { kind: 'openapi', spec: openapiRef(params?.contentRefs?.spec, prefix) };
    default:
      throw invalidInput(
        `${prefix}id: no template ${id}; the templates are ${SPACE_TEMPLATE_IDS.join(', ')}.`,
      );
  }
}

function openapiRef(ref: unknown, prefix: string): OpenAPIContentRef {
  const spec = typeof ref === 'object' && ref !== null ? (ref as Record<string, unknown>) : {};
  if (spec.kind !== 'openapi' || typeof spec.spec !== 'string' || spec.spec === '') {
    throw invalidInput(
      `${prefix}params.contentRefs.spec: the api-reference template needs a content ref to an ` +
        'OpenAPI specification, {"kind": "openapi", "spec": "<slug or id>"}.',
    );
  }
  return { kind: 'openapi', spec: spec.spec };
}

/** Insert changes that add `pages` (and their subpages) after the current top-level pages. */
export function insertTemplatePages(
  pages: readonly TemplatePage[],
  into: string | null = null,
  newPageId: () => string = newId,
): ContentChange[] {
  const changes: ContentChange[] = [];
  for (const page of pages) {
    const id = newPageId();
    const { title, description, icon, computed, computedSeed } = page;
    changes.push({
      operation: 'insert_page',
      id,
      meta: {
        title,
        ...(description !== undefined ? { description } : {}),
        ...(icon !== undefined ? { icon } : {}),
        ...(computed !== undefined ? { computed, computedSeed } : {}),
      },
      document: page.document ?? (page.markdown === undefined ? null : { markdown: page.markdown }),
      into,
    });
    changes.push(...insertTemplatePages(page.pages ?? [], id, newPageId));
  }
  return changes;
}

/** A generated API-reference page as a template page, computed from `ref`. */
function templatePageOf(
  ref: OpenAPIContentRef,
  specId: string,
  page: ApiReferencePage,
): TemplatePage {
  const meta = apiReferencePageMeta(ref, page);
  return {
    specId,
    title: page.title,
    ...(page.description !== undefined ? { description: page.description } : {}),
    ...(page.icon !== undefined ? { icon: page.icon } : {}),
    document: page.document,
    computed: meta.computed,
    computedSeed: meta.computedSeed,
    pages: page.pages.map((child) => templatePageOf(ref, specId, child)),
  };
}

/** The top-level pages of the tree `tree` (their subpages go with them). */
async function topLevelPageIds(store: ObjectStore, tree: string): Promise<string[]> {
  const root = await readRoot(store, tree);
  return (await childRefs(store, root.pages)).map((ref) => ref.id);
}

/**
 * Space templates (issue #5): a template is a set of pages; applying it replaces the pages of
 * a revision (change-requests/templates commits the replacement), and createSpace may start a
 * space from one. The
 * api-reference template's pages are generated from an OpenAPI specification (issue #9).
 */
@Injectable()
export class SpaceTemplates {
  constructor(
    private readonly writer: ContentWriter,
    @Inject(OPENAPI_SPEC_CONTENTS) private readonly specs: OpenAPISpecContents,
  ) {}

  /**
   * The changes that replace a revision's top-level pages (their subpages go with them) by
   * template `input.id`'s pages: what applyTemplateToSpace commits, on the primary or on a
   * change request. 400 for an unknown template or bad parameters.
   */
  async replacement(
    organizationId: string,
    input: { id: string; params?: SpaceTemplateParams },
  ): Promise<TemplateReplacement> {
    const pages = await this.pages(organizationId, templateSource(input.id, input.params));
    return {
      changes: async ({ tree, store }) => [
        ...(await topLevelPageIds(store, tree)).map((page): ContentChange => ({
          operation: 'delete_page',
          page,
        })),
        ...insertTemplatePages(pages),
      ],
      link: (manager, spaceId) => this.link(manager, spaceId, pages),
    };
  }

  /** Links the space to the specifications `pages` are computed from. */
  private async link(manager: EntityManager, spaceId: string, pages: TemplatePage[]) {
    const specIds = new Set<string>();
    const collect = (list: TemplatePage[]) => {
      for (const page of list) {
        if (page.specId !== undefined) specIds.add(page.specId);
        collect(page.pages ?? []);
      }
    };
    collect(pages);
    for (const specId of specIds) await this.specs.linkSpace(manager, specId, spaceId);
  }

  /**
   * Checks a createSpace `template` (400 naming `template.…`) and makes its pages. Call it before
   * opening the transaction that creates the space: an api-reference template reads its
   * specification on another connection, which a transaction must not wait for (the embedded
   * database serves one session at a time), and dereferencing a large specification is better
   * done with no transaction held open.
   */
  prepare(
    organizationId: string,
    template: { id: string; params?: SpaceTemplateParams },
  ): Promise<TemplatePage[]> {
    const source = templateSource(template.id, template.params, 'template.');
    return this.pages(organizationId, source, 'template.');
  }

  /** The first revision of a new space, made of a template's pages (from `prepare`). */
  async createFirstRevision(
    manager: EntityManager,
    input: { id: string; spaceId: string; authorId: string | null; pages: TemplatePage[] },
  ): Promise<Revision> {
    const revision = await this.writer.createFirstRevision(manager, {
      id: input.id,
      spaceId: input.spaceId,
      authorId: input.authorId,
      changes: insertTemplatePages(input.pages),
    });
    await this.link(manager, input.spaceId, input.pages);
    return revision;
  }

  private async pages(
    organizationId: string,
    source: TemplateSource,
    prefix = '',
  ): Promise<TemplatePage[]> {
    if (source.kind === 'pages') return source.pages;
    const field = `${prefix}params.contentRefs.spec`;
    const { spec } = source.spec;
    const content = await this.specs.latestContent(organizationId, spec);
    if (!content) {
      throw invalidInput(`${field}: no OpenAPI specification ${spec} in this organization.`);
    }
    if (content.versionId === null || content.document === null) {
      throw new DomainError(
        'bad_request',
        'OpenAPISpecNotProcessed',
        `${field}: the OpenAPI specification ${spec} has no processed version yet; apply the ` +
          'template once its processing is complete.',
      );
    }
    const pages = apiReferencePages(source.spec, content.document).map((page) =>
      templatePageOf(source.spec, content.specId, page),
    );
    if (pages.length === 0) {
      throw invalidInput(
        `${field}: the OpenAPI specification ${spec} has no operations, webhooks or schemas to ` +
          'make pages of.',
      );
    }
    return pages;
  }
}
