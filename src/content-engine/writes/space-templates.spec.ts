import type { JSONDocument } from '../documents/document';
import type { OpenAPISpecContents } from '../api-reference/openapi-spec-contents';
import { commit } from '../tree/commit';
import { MemoryObjectStore } from '../tree/object-store';
import { findPageById, flatten, pagePaths } from '../tree/read';
import { emptyRoot, storeDocuments } from './content-writer';
import {
  insertTemplatePages,
  SPACE_TEMPLATE_IDS,
  SpaceTemplates,
  templateSource,
  type TemplatePage,
} from './space-templates';

/** A converter that does not need remark: the markdown as one paragraph. */
const asParagraph = (markdown: string): Promise<JSONDocument> =>
  Promise.resolve({
    object: 'document',
    data: {},
    nodes: [
      {
        object: 'block',
        type: 'paragraph',
        data: {},
        nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: markdown, marks: [] }] }],
      },
    ],
  });

async function build(pages: TemplatePage[]) {
  const store = new MemoryObjectStore();
  let counter = 0;
  const changes = insertTemplatePages(pages, null, () => `p${++counter}`);
  const tree = await commit(
    store,
    await store.put('tree', emptyRoot()),
    await storeDocuments(store, changes, asParagraph),
  );
  return { store, tree };
}

function fixedPages(id: string): TemplatePage[] {
  const source = templateSource(id, undefined);
  if (source.kind !== 'pages') throw new Error(`${id} is not made of fixed pages`);
  return source.pages;
}

describe('templates', () => {
  it('blank is one empty page', async () => {
    const { store, tree } = await build(fixedPages('blank'));
    const pages = [...(await flatten(store, tree)).values()];
    expect(pages).toEqual([
      expect.objectContaining({ id: 'p1', parentId: null, documentHash: null }),
    ]);
    expect(pages[0].meta).toEqual({ type: 'document', title: 'Untitled', slug: 'untitled' });
  });

  it('product-docs is a starter tree with a body on every page', async () => {
    const { store, tree } = await build(fixedPages('product-docs'));
    const snapshot = await flatten(store, tree);
    expect([...pagePaths(snapshot).values()]).toEqual([
      'getting-started',
      'guides',
      'guides/writing-content',
      'guides/publishing',
      'reference',
      'faq',
    ]);
    for (const page of snapshot.values()) {
      expect(page.documentHash).toEqual(expect.any(String));
    }
    expect(await findPageById(store, tree, 'p3')).toEqual(
      expect.objectContaining({ parentId: 'p2', path: 'guides/writing-content' }),
    );
  });

  it('api-reference takes an openapi content ref in params.contentRefs.spec', () => {
    const spec = { kind: 'openapi', spec: 'pets' };
    expect(templateSource('api-reference', { contentRefs: { spec } })).toEqual({
      kind: 'openapi',
      spec,
    });
    for (const bad of [undefined, 'pets', { kind: 'url', url: 'x' }, { kind: 'openapi' }]) {
      expect(() => templateSource('api-reference', { contentRefs: { spec: bad } })).toThrow(
        expect.objectContaining({
          kind: 'bad_request',
          message: expect.stringMatching(/^params\.contentRefs\.spec: /),
        }),
      );
    }
    expect(() => templateSource('api-reference', undefined, 'template.')).toThrow(
      'template.params.contentRefs.spec',
    );
  });

  it('an unknown template is a 400 naming the field and the templates', () => {
    expect(() => templateSource('nope', undefined, 'template.')).toThrow(
      expect.objectContaining({
        kind: 'bad_request',
        message: `template.id: no template nope; the templates are ${SPACE_TEMPLATE_IDS.join(', ')}.`,
      }),
    );
  });

  it('inserts pages given as documents, with their description, icon and subpages', async () => {
    const document: JSONDocument = { object: 'document', data: {}, nodes: [] };
    const { store, tree } = await build([
      {
        title: 'Pets',
        description: 'All about pets',
        icon: 'dog',
        document,
        pages: [{ title: 'Cats', document }],
      },
    ]);
    const [pets, cats] = [...(await flatten(store, tree)).values()];
    expect(pets.meta).toEqual({
      type: 'document',
      title: 'Pets',
      slug: 'pets',
      description: 'All about pets',
      icon: 'dog',
    });
    expect(await store.get(pets.documentHash!)).toEqual(document);
    expect(cats).toEqual(
      expect.objectContaining({ parentId: pets.id, documentHash: expect.any(String) }),
    );
  });
});

describe('SpaceTemplates with an api-reference template', () => {
  const template = {
    id: 'api-reference',
    params: { contentRefs: { spec: { kind: 'openapi', spec: 'pets' } } },
  };

  /** Templates over `specs`; failures happen before any write, so no database is needed. */
  function templates(content: Awaited<ReturnType<OpenAPISpecContents['latestContent']>>) {
    const latestContent = jest.fn().mockResolvedValue(content);
    const unused = new Proxy(
      {},
      {
        get: () => {
          throw new Error('unexpected write');
        },
      },
    );
    return {
      latestContent,
      service: new SpaceTemplates(unused as never, { latestContent, linkSpace: jest.fn() }),
    };
  }

  it('answers 400 for a specification the organization does not have', async () => {
    const { service, latestContent } = templates(null);
    await expect(service.replacement('o1', template)).rejects.toMatchObject({
      kind: 'bad_request',
      message: 'params.contentRefs.spec: no OpenAPI specification pets in this organization.',
    });
    expect(latestContent).toHaveBeenCalledWith('o1', 'pets');
    await expect(service.prepare('o1', template)).rejects.toMatchObject({
      kind: 'bad_request',
      message:
        'template.params.contentRefs.spec: no OpenAPI specification pets in this organization.',
    });
  });

  it('answers 400 for a specification without a processed version', async () => {
    const { service } = templates({ specId: 'sp1', versionId: null, document: null });
    await expect(service.replacement('o1', template)).rejects.toMatchObject({
      kind: 'bad_request',
      code: 'OpenAPISpecNotProcessed',
      message: expect.stringContaining('has no processed version yet'),
    });
  });

  it('answers 400 for a specification with nothing to make pages of', async () => {
    const { service } = templates({
      specId: 'sp1',
      versionId: 'v1',
      document: { openapi: '3.1.0', info: { title: 'Empty', version: '1' }, paths: {} },
    });
    await expect(service.replacement('o1', template)).rejects.toMatchObject({
      kind: 'bad_request',
      message: expect.stringContaining('has no operations, webhooks or schemas'),
    });
  });
});
