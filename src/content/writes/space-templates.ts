import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { DomainError, invalidInput } from '../../platform/errors/domain-error';
import { newId } from '../../platform/ids/ids';
import type { Space } from '../../spaces/entities/space.entity';
import { INITIAL_PAGE_TITLE } from '../content-engine';
import type { Revision } from '../entities/revision.entity';
import { childRefs, readRoot } from '../tree/format';
import type { ObjectStore } from '../tree/object-store';
import { ContentWriter, type ContentChange } from './content-writer';

/** A page a template starts with. */
export interface TemplatePage {
  title: string;
  /** The page's body; none = an empty page. */
  markdown?: string;
  pages?: TemplatePage[];
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
  '`api-reference` (pages generated from an OpenAPI specification given as the content ref ' +
  '`params.contentRefs.spec`; not available yet: answered 400).';

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

/**
 * The pages of template `id`, or a 400 for an unknown or not yet available template. `field`
 * names the template id in messages (`id` for applyTemplateToSpace, `template.id` for
 * createSpace).
 */
export function templatePages(
  id: string,
  params: SpaceTemplateParams | undefined,
  field = 'id',
): TemplatePage[] {
  switch (id) {
    case 'blank':
      return [{ title: INITIAL_PAGE_TITLE }];
    case 'product-docs':
      return PRODUCT_DOCS;
    case 'api-reference': {
      const spec = params?.contentRefs?.spec;
      if (typeof spec !== 'object' || spec === null) {
        throw invalidInput(
          'params.contentRefs.spec: the api-reference template needs a content ref to an OpenAPI specification.',
        );
      }
      throw new DomainError(
        'bad_request',
        'OpenAPISpecsUnavailable',
        'OpenAPI specifications are not available yet: the api-reference template cannot be applied.',
      );
    }
    default:
      throw invalidInput(
        `${field}: no template ${id}; the templates are ${SPACE_TEMPLATE_IDS.join(', ')}.`,
      );
  }
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
    changes.push({
      operation: 'insert_page',
      id,
      meta: { title: page.title },
      document: page.markdown === undefined ? null : { markdown: page.markdown },
      into,
    });
    changes.push(...insertTemplatePages(page.pages ?? [], id, newPageId));
  }
  return changes;
}

/** The top-level pages of the tree `tree` (their subpages go with them). */
async function topLevelPageIds(store: ObjectStore, tree: string): Promise<string[]> {
  const root = await readRoot(store, tree);
  return (await childRefs(store, root.pages)).map((ref) => ref.id);
}

/**
 * Space templates (issue #5): a template is a set of pages; applying it replaces the pages of
 * the space's primary revision in one commit, and createSpace may start a space from one.
 */
@Injectable()
export class SpaceTemplates {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly writer: ContentWriter,
  ) {}

  /** applyTemplateToSpace: the template's pages replace the primary's, as one `edits` commit. */
  async applyToSpace(
    space: Space,
    authorId: string,
    input: { id: string; params?: SpaceTemplateParams; changeRequestId?: string },
  ): Promise<void> {
    if (input.changeRequestId !== undefined) {
      throw invalidInput(
        'changeRequestId: change requests are not available yet; apply the template to the primary content.',
      );
    }
    const pages = templatePages(input.id, input.params);
    await this.dataSource.transaction((manager) =>
      this.writer.commitOnPrimary(manager, {
        spaceId: space.id,
        expectedRevisionId: space.revisionId,
        authorId,
        type: 'edits',
        changes: async ({ tree, store }) => [
          ...(await topLevelPageIds(store, tree)).map((page): ContentChange => ({
            operation: 'delete_page',
            page,
          })),
          ...insertTemplatePages(pages),
        ],
      }),
    );
  }

  /** Checks a createSpace `template` before anything is written (400 naming `template.id`). */
  validate(template: { id: string; params?: SpaceTemplateParams }): void {
    templatePages(template.id, template.params, 'template.id');
  }

  /** The first revision of a new space, made of the template's pages. */
  createFirstRevision(
    manager: EntityManager,
    input: {
      id: string;
      spaceId: string;
      authorId: string | null;
      template: { id: string; params?: SpaceTemplateParams };
    },
  ): Promise<Revision> {
    const pages = templatePages(input.template.id, input.template.params, 'template.id');
    return this.writer.createFirstRevision(manager, {
      id: input.id,
      spaceId: input.spaceId,
      authorId: input.authorId,
      changes: insertTemplatePages(pages),
    });
  }
}
