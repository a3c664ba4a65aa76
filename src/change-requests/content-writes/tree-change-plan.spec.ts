import type { JSONDocument } from '../../content-engine/documents/document';
import { commit } from '../../content-engine/tree/commit';
import { MemoryObjectStore } from '../../content-engine/tree/object-store';
import { flatten } from '../../content-engine/tree/read';
import { emptyRoot } from '../../content-engine/writes/content-writer';
import { planTreeChanges, type TreeChangeContext } from './tree-change-plan';
import type { Change } from './dto/update-change-request-content.dto';

/** Markdown as paragraphs, one per line; `# x` lines as heading-1 (no remark needed). */
function toDocument(markdown: string): Promise<JSONDocument> {
  const nodes = markdown
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, i) => {
      const heading = line.startsWith('# ');
      const link = /\[(.*)\]\((.*)\)/.exec(line);
      const content = link
        ? [
            {
              object: 'inline' as const,
              type: 'link',
              data: { ref: { kind: 'url', url: link[2] } },
              nodes: [
                {
                  object: 'text' as const,
                  leaves: [{ object: 'leaf' as const, text: link[1], marks: [] }],
                },
              ],
            },
          ]
        : [
            {
              object: 'text' as const,
              leaves: [
                { object: 'leaf' as const, text: heading ? line.slice(2) : line, marks: [] },
              ],
            },
          ];
      return {
        object: 'block' as const,
        key: `k${i}`,
        type: heading ? 'heading-1' : 'paragraph',
        data: {},
        nodes: content,
      };
    });
  return Promise.resolve({ object: 'document', data: {}, nodes });
}

async function setup() {
  const store = new MemoryObjectStore();
  const tree = await commit(store, await store.put('tree', emptyRoot()), [
    { operation: 'insert_page', id: 'pA', meta: { title: 'A' } },
    { operation: 'insert_page', id: 'pB', meta: { title: 'B' } },
    { operation: 'insert_page', id: 'pC', meta: { title: 'C', icon: 'gear' } },
  ]);
  let ids = 0;
  const context: TreeChangeContext = {
    store,
    tree,
    baseRevisionId: 'base',
    revisionTree: (id) => Promise.resolve(id === 'base' ? tree : undefined),
    fileBytes: () => ({ name: 'a.txt', contentType: 'text/plain', data: Buffer.from('a') }),
    storeFile: async (file) => {
      const node = {
        id: `f${++ids}`,
        name: file.name,
        contentType: 'text/plain',
        size: 1,
        blob: 'b',
      };
      return { hash: await store.put('file', node), file: node };
    },
    markdownToDocument: toDocument,
    newId: () => `new${++ids}`,
  };
  const run = async (changes: unknown[]) => {
    const plan = await planTreeChanges(context, changes as Change[]);
    const after = await commit(store, context.tree, plan.changes);
    return { plan, pages: await flatten(store, after) };
  };
  return { store, context, run };
}

describe('planTreeChanges', () => {
  it('renames without changing the slug, reorders with `at` alone, clears with ""', async () => {
    const { run } = await setup();
    const { pages } = await run([
      { operation: 'update_page', page: 'pA', title: 'Alpha', icon: '' },
      { operation: 'update_page', page: 'pC', at: 0, icon: '' },
      { operation: 'update_page', page: 'pB', slug: 'bee' },
    ]);
    expect(
      [...pages.values()].map((p) => [p.id, p.index, p.meta.title, p.meta.slug, p.meta.icon]),
    ).toEqual([
      ['pC', 0, 'C', 'c', undefined],
      ['pA', 1, 'Alpha', 'a', undefined],
      ['pB', 2, 'B', 'bee', undefined],
    ]);
  });

  it('moves before renaming: slugs are checked against the new siblings', async () => {
    const { run } = await setup();
    const { pages } = await run([
      { operation: 'insert_page', title: 'C', document: {}, into: 'pA' },
      { operation: 'insert_page', title: 'Z', slug: 'z', document: {}, into: 'pA' },
      // pC moves under pA, where "c" is taken: it becomes c-2 and keeps it through the rename.
      { operation: 'update_page', page: 'pC', into: 'pA', title: 'Sea' },
      // "a" is taken at the top level (by pA), not under pA, where pB goes.
      { operation: 'update_page', page: 'pB', into: 'pA', slug: 'a' },
    ]);
    const under = [...pages.values()].filter((p) => p.parentId === 'pA');
    expect(under.map((p) => [p.meta.title, p.meta.slug])).toEqual([
      ['C', 'c'],
      ['Z', 'z'],
      ['Sea', 'c-2'],
      ['B', 'a'],
    ]);
  });

  it('titles new pages from frontmatter, a leading heading (removed), `title`, or "Untitled"', async () => {
    const { run, store } = await setup();
    const { plan, pages } = await run([
      {
        operation: 'insert_page',
        title: 'T',
        document: { markdown: '---\ntitle: Front\nhidden: true\n---\n# Head\nBody' },
      },
      { operation: 'insert_page', title: 'T', document: { markdown: '# Head\nBody' } },
      { operation: 'insert_page', title: 'T', document: { markdown: 'Body' } },
      { operation: 'insert_page', document: {} },
    ]);
    const created = plan.pages.map((p) => pages.get(p.id)!);
    expect(created.map((p) => [p.meta.title, p.meta.hidden])).toEqual([
      ['Front', true],
      ['Head', undefined],
      ['T', undefined],
      ['Untitled', undefined],
    ]);
    const body = async (i: number) =>
      ((await store.get(created[i].documentHash!)) as JSONDocument).nodes.map((n) => n.type);
    expect(await body(0)).toEqual(['heading-1', 'paragraph']);
    expect(await body(1)).toEqual(['paragraph']);
    expect(created[3].documentHash).toBeNull();
  });

  it('names a refused change by its index in the request, whatever tree changes it made', async () => {
    const { context } = await setup();
    await expect(
      planTreeChanges(context, [
        { operation: 'insert_page', document: {} },
        { operation: 'update_page', page: 'pA', title: 'X', into: 'pA' },
      ] as Change[]),
    ).rejects.toThrow(
      expect.objectContaining({
        kind: 'bad_request',
        message: 'Change 1 (update_page): page pA cannot move into itself or its own subpages',
      }),
    );
    await expect(
      planTreeChanges(context, [
        {
          operation: 'insert_page',
          document: { markdown: '---\ntitle: 5\nnoIndex: "yes"\n---\n' },
        },
      ] as Change[]),
    ).rejects.toThrow('Change 0 (insert_page): frontmatter noIndex must be true or false');
  });

  it('reports touched pages in first-touch order; one added and removed again is left out', async () => {
    const { run } = await setup();
    const { plan } = await run([
      { operation: 'update_page', page: 'pB', hidden: true },
      { operation: 'insert_page', ref: 'gone', document: {} },
      { operation: 'insert_page', ref: 'kept', document: {} },
      { operation: 'delete_page', page: 'new1' },
      { operation: 'delete_page', page: 'pA' },
      { operation: 'update_page', page: 'pB', hidden: false },
      { operation: 'revert_page', page: 'pC' },
    ]);
    expect(plan.pages).toEqual([
      { id: 'pB', outcome: 'updated' },
      { id: 'new2', ref: 'kept', outcome: 'created' },
      { id: 'pA', outcome: 'deleted' },
      { id: 'pC', outcome: 'updated' },
    ]);
  });

  it('keeps the block keys of the body a markdown update replaces', async () => {
    const { run, store, context } = await setup();
    const paragraph = (key: string, text: string) => ({
      object: 'block' as const,
      key,
      type: 'paragraph',
      data: {},
      nodes: [{ object: 'text' as const, leaves: [{ object: 'leaf' as const, text, marks: [] }] }],
    });
    const body = await store.put('document', {
      object: 'document',
      data: {},
      nodes: [paragraph('ka', 'One'), paragraph('kb', 'Two')],
    });
    context.tree = await commit(store, context.tree, [
      { operation: 'set_document', page: 'pA', document: body },
    ]);
    const { pages } = await run([
      { operation: 'update_page', page: 'pA', document: { markdown: 'One\nTwo, edited' } },
      { operation: 'update_page', page: 'pA', document: { markdown: 'Zero\nOne\nTwo, again' } },
    ]);
    const document = (await store.get(pages.get('pA')!.documentHash!)) as JSONDocument;
    expect(document.nodes.map((node) => node.key)).toEqual(['k0', 'ka', 'kb']);
    expect(document.nodes[1]).toEqual(paragraph('ka', 'One'));
  });

  it('stores bodies once their links are resolved against the whole batch', async () => {
    const { run, store } = await setup();
    const { plan, pages } = await run([
      { operation: 'insert_page', ref: 'one', document: { markdown: '[two](./two.md)' } },
      { operation: 'insert_page', ref: 'two', document: { markdown: '[file](./notes)' } },
      { operation: 'insert_files', files: [{ name: 'a.txt', ref: 'notes' }] },
    ]);
    const [one, two] = plan.pages.map((p) => pages.get(p.id)!);
    const refOf = async (hash: string) =>
      ((await store.get(hash)) as JSONDocument).nodes[0].nodes![0] as unknown as {
        data: { ref: unknown };
      };
    expect((await refOf(one.documentHash!)).data.ref).toEqual({ kind: 'page', page: two.id });
    expect((await refOf(two.documentHash!)).data.ref).toEqual({ kind: 'file', file: 'f3' });
    expect(plan.insertedFiles.map((file) => file.id)).toEqual(['f3']);
  });
});
