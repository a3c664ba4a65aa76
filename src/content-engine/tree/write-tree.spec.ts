import { commit } from './commit';
import { emptyRoot, type PageNode } from './format';
import { MemoryObjectStore } from './object-store';
import { buildIndex, lookupParent } from './page-index';
import { assignSlugs, readTreeBase, writeTree, type TreePage } from './write-tree';

const page = (id: string, title: string, pages: TreePage[] = [], slug?: string): TreePage => ({
  id,
  type: 'document',
  meta: slug ? { title, slug } : { title },
  document: null,
  pages,
});

/** Three sections of ten pages, each page with a document. */
async function tree(store: MemoryObjectStore, edit?: (pages: TreePage[]) => void) {
  const pages: TreePage[] = [];
  for (let s = 0; s < 3; s++) {
    const children: TreePage[] = [];
    for (let p = 0; p < 10; p++) {
      const document = await store.put('document', {
        object: 'document',
        nodes: [{ object: 'block', type: 'paragraph', nodes: [`${s}.${p}`] }],
      });
      children.push({ ...page(`p${s}x${p}`, `Page ${s}.${p}`), document });
    }
    pages.push(page(`s${s}`, `Section ${s}`, children));
  }
  edit?.(pages);
  return pages;
}

describe('writeTree', () => {
  it('writes the same tree as commit would, index included', async () => {
    const store = new MemoryObjectStore();
    const empty = await store.put('tree', emptyRoot());
    const written = await writeTree(store, await readTreeBase(store, empty), await tree(store), []);
    const committed = await commit(
      store,
      empty,
      (await tree(store)).flatMap((section) => [
        { operation: 'insert_page' as const, id: section.id, meta: section.meta },
        ...section.pages.map((child) => ({
          operation: 'insert_page' as const,
          id: child.id,
          meta: child.meta,
          document: child.document,
          into: section.id,
        })),
      ]),
    );
    expect(written).toBe(committed);
  });

  it('answers the base itself when nothing differs, writing nothing', async () => {
    const store = new MemoryObjectStore();
    const empty = await store.put('tree', emptyRoot());
    const first = await writeTree(store, await readTreeBase(store, empty), await tree(store), []);
    const base = await readTreeBase(store, first);
    store.resetCounters();
    expect(await writeTree(store, base, await tree(store), [])).toBe(first);
    expect(store.writes).toEqual([]);
  });

  it('writes one edited page, its parent and the root: nothing else', async () => {
    const store = new MemoryObjectStore();
    const empty = await store.put('tree', emptyRoot());
    const first = await writeTree(store, await readTreeBase(store, empty), await tree(store), []);
    const base = await readTreeBase(store, first);
    const edited = await tree(store, (pages) => {
      pages[1].pages[4].meta = { title: 'Edited' };
    });
    store.resetCounters();
    await writeTree(store, base, edited, []);
    expect(store.writes.map((write) => write.kind)).toEqual(['page', 'page', 'tree']);
  });

  it('moves a page: its old and new parents, the index entry, the root', async () => {
    const store = new MemoryObjectStore();
    const empty = await store.put('tree', emptyRoot());
    const first = await writeTree(store, await readTreeBase(store, empty), await tree(store), []);
    const base = await readTreeBase(store, first);
    const moved = await tree(store, (pages) => {
      const [page] = pages[0].pages.splice(2, 1);
      pages[2].pages.push(page);
    });
    const root = await writeTree(store, base, moved, []);
    const index = (await store.get(root)) as { index: string };
    expect(await lookupParent(store, index.index, 'p0x2')).toBe('s2');
    const rebuilt = await buildIndex(
      store,
      moved.flatMap((section) => [
        [section.id, null] as [string, null],
        ...section.pages.map((child) => [child.id, section.id] as [string, string]),
      ]),
    );
    expect(index.index).toBe(rebuilt);
  });

  it('makes slugs unique among siblings as commit does, and drops them from links', () => {
    const pages: TreePage[] = [
      page('a', 'Install', [], 'install'),
      page('b', 'Install'),
      page('c', 'Bad slug', [], 'Not A Slug'),
      {
        id: 'l',
        type: 'link',
        meta: { title: 'Site', slug: 'site', href: 'https://x' },
        document: null,
        pages: [],
      },
    ];
    assignSlugs(pages);
    expect(pages.map((p) => p.meta.slug)).toEqual(['install', 'install-2', 'bad-slug', undefined]);
  });

  it('reads the base level by level: every node with its parent', async () => {
    const store = new MemoryObjectStore();
    const empty = await store.put('tree', emptyRoot());
    const first = await writeTree(store, await readTreeBase(store, empty), await tree(store), []);
    const base = await readTreeBase(store, first);
    expect(base.nodes.size).toBe(33);
    expect(base.nodes.get('p1x3')).toMatchObject({ parentId: 's1' });
    expect((base.nodes.get('s2')!.node as PageNode).meta.title).toBe('Section 2');
  });
});
