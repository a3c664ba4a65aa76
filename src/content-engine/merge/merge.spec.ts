import { sha256Hex } from '../../platform/ids/ids';
import type { PageSnapshot, SnapshotPage } from '../tree/snapshot';
import { canonical } from './document-merge';
import { mergeSnapshots } from './merge';
import { reordered } from './sequence';
import type { DocumentBlock, JSONDocument, MergeResult } from './types';

interface PageSpec {
  id: string;
  parent?: string | null;
  meta?: Record<string, unknown>;
  doc?: string | null;
}

/** A snapshot from pages listed in sibling order (index = order of appearance under the parent). */
function snapshot(...specs: PageSpec[]): PageSnapshot {
  const counts = new Map<string | null, number>();
  const pages: PageSnapshot = new Map();
  for (const spec of specs) {
    const parentId = spec.parent ?? null;
    const index = counts.get(parentId) ?? 0;
    counts.set(parentId, index + 1);
    pages.set(spec.id, {
      id: spec.id,
      parentId,
      index,
      meta: spec.meta ?? { title: spec.id },
      documentHash: spec.doc ?? null,
    });
  }
  return pages;
}

const paragraph = (key: string, text: string): DocumentBlock => ({
  object: 'block',
  type: 'paragraph',
  key,
  data: {},
  nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
});

/** A fresh document store per test: `doc` registers a body and returns its hash. */
function store() {
  const bodies = new Map<string, JSONDocument>();
  const documents = jest.fn(async (hash: string) => {
    const body = bodies.get(hash);
    if (!body) throw new Error(`no document ${hash}`);
    return body;
  });
  const doc = (...blocks: Array<[string, string]>) => {
    const body: JSONDocument = {
      object: 'document',
      data: {},
      nodes: blocks.map(([key, text]) => paragraph(key, text)),
    };
    const hash = sha256Hex(canonical(body));
    bodies.set(hash, body);
    return hash;
  };
  return { documents, doc };
}

/** Parent and sibling order of a merged snapshot, as `parent: [children]`. */
function shape(pages: PageSnapshot): Record<string, string[]> {
  const byParent: Record<string, SnapshotPage[]> = {};
  for (const page of pages.values()) (byParent[page.parentId ?? 'root'] ??= []).push(page);
  return Object.fromEntries(
    Object.entries(byParent).map(([parent, group]) => [
      parent,
      group.sort((a, b) => a.index - b.index).map((page) => page.id),
    ]),
  );
}

const texts = (body: JSONDocument | undefined) =>
  body?.nodes.map((node) => {
    const leaves = (node.nodes?.[0] as unknown as { leaves: Array<{ text: string }> }).leaves;
    return `${node.key}:${leaves[0].text}`;
  });

function merged(result: MergeResult) {
  if (result.result !== 'merge') throw new Error(`conflicts: ${JSON.stringify(result.conflicts)}`);
  return result;
}

describe('mergeSnapshots', () => {
  describe('page level', () => {
    it('returns the base when neither side changed anything', async () => {
      const { documents, doc } = store();
      const h = doc(['a', 'one']);
      const base = snapshot({ id: 'p', doc: h }, { id: 'q' }, { id: 'c', parent: 'p' });
      const result = merged(
        await mergeSnapshots({ base, ours: new Map(base), theirs: new Map(base), documents }),
      );
      expect(result.pages).toEqual(base);
      expect(result.documents.size).toBe(0);
      expect(documents).not.toHaveBeenCalled();
    });

    it('takes the side that changed a page: metadata, document, deletion, insertion and move', async () => {
      const { documents, doc } = store();
      const [h1, h2] = [doc(['a', 'one']), doc(['a', 'two'])];
      const base = snapshot(
        { id: 'p', doc: h1 },
        { id: 'q' },
        { id: 'r' },
        { id: 'c', parent: 'p' },
      );
      const ours = new Map(base);
      const theirs = snapshot(
        { id: 'p', doc: h2, meta: { title: 'P', emoji: '1f600' } },
        { id: 'q' },
        { id: 'c' },
        { id: 'new', parent: 'q' },
      );
      const result = merged(await mergeSnapshots({ base, ours, theirs, documents }));
      expect(result.pages).toEqual(theirs);
      expect(documents).not.toHaveBeenCalled();

      // The same changes made on our side, with theirs unchanged, give the same pages.
      const mirrored = merged(
        await mergeSnapshots({ base, ours: theirs, theirs: ours, documents }),
      );
      expect(mirrored.pages).toEqual(theirs);
    });

    it('merges changes to different pages and different metadata fields of one page', async () => {
      const { documents } = store();
      const base = snapshot({ id: 'p', meta: { title: 'P', emoji: 'x' } }, { id: 'q' });
      const ours = snapshot({ id: 'p', meta: { title: 'Renamed', emoji: 'x' } }, { id: 'q' });
      const theirs = snapshot(
        { id: 'p', meta: { title: 'P', description: 'new' } },
        { id: 'q', meta: { title: 'Q' } },
      );
      const result = merged(await mergeSnapshots({ base, ours, theirs, documents }));
      expect(result.pages.get('p')!.meta).toEqual({ title: 'Renamed', description: 'new' });
      expect(result.pages.get('q')!.meta).toEqual({ title: 'Q' });
    });

    it('accepts identical changes made on both sides', async () => {
      const { documents, doc } = store();
      const [h1, h2] = [doc(['a', 'one']), doc(['a', 'two'])];
      const base = snapshot({ id: 'p', doc: h1 }, { id: 'q' }, { id: 'gone' });
      const changed = () =>
        snapshot({ id: 'q' }, { id: 'p', parent: 'q', doc: h2, meta: { title: 'Same' } });
      const result = merged(
        await mergeSnapshots({ base, ours: changed(), theirs: changed(), documents }),
      );
      expect(result.pages).toEqual(changed());
      expect(documents).not.toHaveBeenCalled();
    });

    it('reports a metadata field changed differently on both sides', async () => {
      const { documents } = store();
      const base = snapshot({ id: 'p', meta: { title: 'P', emoji: 'x', description: 'd' } });
      const ours = snapshot({ id: 'p', meta: { title: 'Ours', emoji: 'y', description: 'd' } });
      const theirs = snapshot({ id: 'p', meta: { title: 'Theirs', emoji: 'y' } });
      expect(await mergeSnapshots({ base, ours, theirs, documents })).toEqual({
        result: 'conflicts',
        conflicts: [{ pageId: 'p', kind: 'metadata', blockKeys: [], fields: ['title'] }],
      });
    });

    it('reports a page deleted on one side and edited on the other, whichever side deletes', async () => {
      const { documents, doc } = store();
      const base = snapshot({ id: 'p', doc: doc(['a', 'one']) }, { id: 'q' });
      const deleted = snapshot({ id: 'q' });
      const edited = [
        snapshot({ id: 'p', doc: doc(['a', 'two']) }, { id: 'q' }),
        snapshot({ id: 'p', meta: { title: 'Renamed' } }, { id: 'q' }),
        snapshot({ id: 'q' }, { id: 'p', parent: 'q', doc: base.get('p')!.documentHash }),
      ];
      for (const other of edited) {
        const conflict = {
          result: 'conflicts',
          conflicts: [{ pageId: 'p', kind: 'delete-edit', blockKeys: [] }],
        };
        expect(await mergeSnapshots({ base, ours: deleted, theirs: other, documents })).toEqual(
          conflict,
        );
        expect(await mergeSnapshots({ base, ours: other, theirs: deleted, documents })).toEqual(
          conflict,
        );
      }
    });

    it('lets a deletion win over a mere reorder among the same siblings', async () => {
      const { documents } = store();
      const base = snapshot({ id: 'a' }, { id: 'b' }, { id: 'c' });
      const ours = snapshot({ id: 'b' }, { id: 'c' });
      const theirs = snapshot({ id: 'b' }, { id: 'c' }, { id: 'a' });
      const result = merged(await mergeSnapshots({ base, ours, theirs, documents }));
      expect(shape(result.pages)).toEqual({ root: ['b', 'c'] });
    });

    it('merges a move on one side with a content edit on the other', async () => {
      const { documents, doc } = store();
      const [h1, h2] = [doc(['a', 'one']), doc(['a', 'two'])];
      const base = snapshot({ id: 'p', doc: h1 }, { id: 'q' }, { id: 'r' });
      const ours = snapshot({ id: 'q' }, { id: 'r' }, { id: 'p', parent: 'q', doc: h1 });
      const theirs = snapshot(
        { id: 'p', doc: h2, meta: { title: 'Edited' } },
        { id: 'q' },
        { id: 'r' },
      );
      const result = merged(await mergeSnapshots({ base, ours, theirs, documents }));
      expect(result.pages.get('p')).toEqual({
        id: 'p',
        parentId: 'q',
        index: 0,
        meta: { title: 'Edited' },
        documentHash: h2,
      });
      expect(shape(result.pages)).toEqual({ root: ['q', 'r'], q: ['p'] });
    });

    it('reports moves of one page to different places, not to the same place', async () => {
      const { documents } = store();
      const base = snapshot({ id: 'p' }, { id: 'q' }, { id: 'r' });
      const underQ = snapshot({ id: 'q' }, { id: 'r' }, { id: 'p', parent: 'q' });
      const underR = snapshot({ id: 'q' }, { id: 'r' }, { id: 'p', parent: 'r' });
      expect(await mergeSnapshots({ base, ours: underQ, theirs: underR, documents })).toEqual({
        result: 'conflicts',
        conflicts: [{ pageId: 'p', kind: 'move-move', blockKeys: [] }],
      });
      const result = merged(
        await mergeSnapshots({ base, ours: underQ, theirs: new Map(underQ), documents }),
      );
      expect(shape(result.pages)).toEqual({ root: ['q', 'r'], q: ['p'] });
    });

    it('reports a page moved or added under a page the other side deleted', async () => {
      const { documents } = store();
      const base = snapshot({ id: 'p' }, { id: 'q' });
      const ours = snapshot({ id: 'p' });
      const theirs = snapshot({ id: 'q' }, { id: 'p', parent: 'q' }, { id: 'n', parent: 'q' });
      expect(await mergeSnapshots({ base, ours, theirs, documents })).toEqual({
        result: 'conflicts',
        conflicts: [
          { pageId: 'n', kind: 'parent-deleted', blockKeys: [] },
          { pageId: 'p', kind: 'parent-deleted', blockKeys: [] },
        ],
      });
    });

    it('reports moves that together would put a page inside itself', async () => {
      const { documents } = store();
      const base = snapshot({ id: 'a' }, { id: 'b' });
      const ours = snapshot({ id: 'b' }, { id: 'a', parent: 'b' });
      const theirs = snapshot({ id: 'a' }, { id: 'b', parent: 'a' });
      expect(await mergeSnapshots({ base, ours, theirs, documents })).toEqual({
        result: 'conflicts',
        conflicts: [
          { pageId: 'a', kind: 'cycle', blockKeys: [] },
          { pageId: 'b', kind: 'cycle', blockKeys: [] },
        ],
      });
    });

    it('orders pages inserted on both sides under the same parent deterministically', async () => {
      const { documents } = store();
      const base = snapshot({ id: 'a' }, { id: 'b' }, { id: 'c' });
      // Ours: x, y after b and o at the end; theirs: w first, z after b, and c moved first.
      const ours = snapshot(
        { id: 'a' },
        { id: 'b' },
        { id: 'x' },
        { id: 'y' },
        { id: 'c' },
        { id: 'o' },
      );
      const theirs = snapshot({ id: 'w' }, { id: 'c' }, { id: 'a' }, { id: 'b' }, { id: 'z' });
      const result = merged(await mergeSnapshots({ base, ours, theirs, documents }));
      // c no longer follows b (theirs moved it), so o lands after b with ours' run.
      expect(shape(result.pages)).toEqual({ root: ['w', 'c', 'a', 'b', 'x', 'y', 'o', 'z'] });
      expect([...result.pages.values()].map((p) => [p.id, p.index])).toEqual([
        ['w', 0],
        ['c', 1],
        ['a', 2],
        ['b', 3],
        ['x', 4],
        ['y', 5],
        ['o', 6],
        ['z', 7],
      ]);
      const again = merged(await mergeSnapshots({ base, ours, theirs, documents }));
      expect([...again.pages]).toEqual([...result.pages]);
      // In a shared gap ours come first: swapping sides swaps the runs, nothing else.
      const swapped = merged(await mergeSnapshots({ base, ours: theirs, theirs: ours, documents }));
      expect(shape(swapped.pages)).toEqual({ root: ['w', 'c', 'a', 'b', 'z', 'x', 'y', 'o'] });
    });
  });

  describe('documents changed on both sides', () => {
    it('merges changes to different blocks, keeping insertions in order', async () => {
      const { documents, doc } = store();
      const base = snapshot({ id: 'p', doc: doc(['a', 'A'], ['b', 'B'], ['c', 'C'], ['d', 'D']) });
      const ours = snapshot({
        id: 'p',
        doc: doc(['a', 'A ours'], ['b', 'B'], ['n1', 'N1'], ['n2', 'N2'], ['c', 'C'], ['d', 'D']),
      });
      const theirs = snapshot({
        id: 'p',
        doc: doc(['a', 'A'], ['b', 'B'], ['t1', 'T1'], ['c', 'C theirs']),
      });
      const result = merged(await mergeSnapshots({ base, ours, theirs, documents }));
      const body = result.documents.get('p');
      expect(texts(body)).toEqual(['a:A ours', 'b:B', 'n1:N1', 'n2:N2', 't1:T1', 'c:C theirs']);
      expect(body).toMatchObject({ object: 'document', data: {} });
      expect(result.pages.get('p')!.documentHash).toBe(sha256Hex(canonical(body)));
      expect(documents).toHaveBeenCalledTimes(3);
    });

    it('takes a block moved on one side and edited on the other', async () => {
      const { documents, doc } = store();
      const base = snapshot({ id: 'p', doc: doc(['a', 'A'], ['b', 'B'], ['c', 'C']) });
      const ours = snapshot({ id: 'p', doc: doc(['c', 'C'], ['a', 'A'], ['b', 'B']) });
      const theirs = snapshot({ id: 'p', doc: doc(['a', 'A'], ['b', 'B'], ['c', 'C!']) });
      const result = merged(await mergeSnapshots({ base, ours, theirs, documents }));
      expect(texts(result.documents.get('p'))).toEqual(['c:C!', 'a:A', 'b:B']);
    });

    it('reports a block changed differently on both sides, and nothing else is applied', async () => {
      const { documents, doc } = store();
      const base = snapshot({ id: 'p', doc: doc(['a', 'A'], ['b', 'B']) }, { id: 'q' });
      const ours = snapshot({ id: 'p', doc: doc(['a', 'A ours'], ['b', 'B ours']) }, { id: 'q' });
      const theirs = snapshot(
        { id: 'p', doc: doc(['a', 'A'], ['b', 'B theirs']) },
        { id: 'q', meta: { title: 'Q' } },
      );
      expect(await mergeSnapshots({ base, ours, theirs, documents })).toEqual({
        result: 'conflicts',
        conflicts: [{ pageId: 'p', kind: 'block-edit', blockKeys: ['b'] }],
      });
    });

    it('deletes a block deleted on one side and unchanged on the other, and reports one changed', async () => {
      const { documents, doc } = store();
      const base = snapshot({ id: 'p', doc: doc(['a', 'A'], ['b', 'B'], ['c', 'C']) });
      const ours = snapshot({ id: 'p', doc: doc(['b', 'B'], ['c', 'C ours']) });
      const theirs = snapshot({
        id: 'p',
        doc: doc(['a', 'A'], ['b', 'B theirs'], ['c', 'C ours']),
      });
      const result = merged(await mergeSnapshots({ base, ours, theirs, documents }));
      expect(texts(result.documents.get('p'))).toEqual(['b:B theirs', 'c:C ours']);

      const editsA = snapshot({ id: 'p', doc: doc(['a', 'A!'], ['b', 'B'], ['c', 'C']) });
      expect(await mergeSnapshots({ base, ours, theirs: editsA, documents })).toEqual({
        result: 'conflicts',
        conflicts: [{ pageId: 'p', kind: 'block-delete-edit', blockKeys: ['a'] }],
      });
    });

    it('reports documents whose blocks carry no keys to merge by', async () => {
      const { documents, doc } = store();
      const base = snapshot({ id: 'p', doc: doc(['', 'A']) });
      const ours = snapshot({ id: 'p', doc: doc(['', 'A ours']) });
      const theirs = snapshot({ id: 'p', doc: doc(['', 'A theirs']) });
      expect(await mergeSnapshots({ base, ours, theirs, documents })).toEqual({
        result: 'conflicts',
        conflicts: [{ pageId: 'p', kind: 'document', blockKeys: [] }],
      });
    });

    it('merges into an empty page bodies added on both sides', async () => {
      const { documents, doc } = store();
      const base = snapshot({ id: 'p' });
      const ours = snapshot({ id: 'p', doc: doc(['a', 'A']) });
      const theirs = snapshot({ id: 'p', doc: doc(['b', 'B']) });
      const result = merged(await mergeSnapshots({ base, ours, theirs, documents }));
      expect(texts(result.documents.get('p'))).toEqual(['a:A', 'b:B']);
    });

    it('accepts a synchronous document loader', async () => {
      const { documents: loader, doc } = store();
      const base = snapshot({ id: 'p', doc: doc(['a', 'A'], ['b', 'B']) });
      const ours = snapshot({ id: 'p', doc: doc(['a', 'A!'], ['b', 'B']) });
      const theirs = snapshot({ id: 'p', doc: doc(['a', 'A'], ['b', 'B!']) });
      const bodies = new Map<string, JSONDocument>();
      for (const s of [base, ours, theirs]) {
        const hash = s.get('p')!.documentHash!;
        bodies.set(hash, await loader(hash));
      }
      const result = merged(
        await mergeSnapshots({ base, ours, theirs, documents: (hash) => bodies.get(hash)! }),
      );
      expect(texts(result.documents.get('p'))).toEqual(['a:A!', 'b:B!']);
    });
  });
});

describe('reordered', () => {
  it('finds the items whose relative order changed, not those shifted by insertions or deletions', () => {
    expect(reordered(['a', 'b', 'c'], ['x', 'a', 'c'])).toEqual(new Set());
    expect(reordered(['a', 'b', 'c', 'd'], ['d', 'a', 'b', 'c'])).toEqual(new Set(['d']));
    expect(reordered(['a', 'b', 'c', 'd'], ['a', 'c', 'd', 'b'])).toEqual(new Set(['b']));
  });
});
