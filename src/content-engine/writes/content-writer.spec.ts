import type { JSONDocument } from '../documents/document';
import { MemoryObjectStore } from '../tree/object-store';
import {
  assertChangeRequestWritable,
  assertSpaceEditable,
  storeDocuments,
  type ContentChange,
} from './content-writer';

const paragraph = (text: string): JSONDocument => ({
  object: 'document',
  data: {},
  nodes: [
    {
      object: 'block',
      key: 'p1',
      type: 'paragraph',
      data: {},
      nodes: [{ object: 'text', key: 't1', leaves: [{ object: 'leaf', text, marks: [] }] }],
    },
  ],
});

/** A converter that does not need remark: the markdown as one paragraph. */
const asParagraph = (markdown: string) => Promise.resolve(paragraph(markdown));

describe('storeDocuments', () => {
  it('stores JSON and markdown bodies as document objects and keeps hashes and nulls', async () => {
    const store = new MemoryObjectStore();
    const existing = await store.put('document', paragraph('kept'));
    store.resetCounters();
    const changes: ContentChange[] = [
      { operation: 'insert_page', id: 'a', meta: { title: 'A' }, document: paragraph('json') },
      { operation: 'insert_page', id: 'b', meta: { title: 'B' }, document: { markdown: 'md' } },
      { operation: 'insert_page', id: 'c', meta: { title: 'C' } },
      { operation: 'set_document', page: 'a', document: existing },
      { operation: 'set_document', page: 'b', document: null },
      { operation: 'delete_page', page: 'c' },
    ];
    const resolved = await storeDocuments(store, changes, asParagraph);
    expect(store.writes.map((write) => write.kind)).toEqual(['document', 'document']);
    const [json, markdown] = store.writes.map((write) => write.hash);
    expect(resolved).toEqual([
      { operation: 'insert_page', id: 'a', meta: { title: 'A' }, document: json },
      { operation: 'insert_page', id: 'b', meta: { title: 'B' }, document: markdown },
      { operation: 'insert_page', id: 'c', meta: { title: 'C' }, document: null },
      { operation: 'set_document', page: 'a', document: existing },
      { operation: 'set_document', page: 'b', document: null },
      { operation: 'delete_page', page: 'c' },
    ]);
    expect(await store.get(markdown)).toEqual(paragraph('md'));
  });

  it('converts markdown with remark by default', async () => {
    const store = new MemoryObjectStore();
    const [change] = await storeDocuments(store, [
      { operation: 'set_document', page: 'a', document: { markdown: '# Title\n\nSome *text*.' } },
    ]);
    const hash = (change as { document: string }).document;
    const document = (await store.get(hash)) as JSONDocument;
    expect(document.object).toBe('document');
    expect(document.nodes.map((node) => (node as { type: string }).type)).toEqual([
      'heading-1',
      'paragraph',
    ]);
  });

  it.each([[{ object: 'block' }], [{ markdown: 42 }], [42]])(
    'rejects %j as a document with a 400 naming the change',
    async (document) => {
      const changes = [
        { operation: 'delete_page', page: 'x' },
        { operation: 'set_document', page: 'a', document },
      ] as unknown as ContentChange[];
      await expect(storeDocuments(new MemoryObjectStore(), changes, asParagraph)).rejects.toThrow(
        expect.objectContaining({
          kind: 'bad_request',
          message: expect.stringContaining('Change 1'),
        }),
      );
    },
  );
});

describe('change request writes', () => {
  it.each([
    ['merged', 'ChangeRequestAlreadyMerged'],
    ['archived', 'ChangeRequestArchived'],
  ])('refuses a %s change request with a 409', (status, code) => {
    expect(() => assertChangeRequestWritable({ status, revision: 'r1' }, undefined)).toThrow(
      expect.objectContaining({ kind: 'conflict', code }),
    );
  });

  it('takes an open or draft change request at any head, or at the expected one', () => {
    for (const status of ['open', 'draft']) {
      expect(() =>
        assertChangeRequestWritable({ status, revision: 'r1' }, undefined),
      ).not.toThrow();
      expect(() => assertChangeRequestWritable({ status, revision: 'r1' }, 'r1')).not.toThrow();
    }
  });

  it('answers 412 naming both revisions when the head is not the expected one', () => {
    expect(() => assertChangeRequestWritable({ status: 'open', revision: 'r2' }, 'r1')).toThrow(
      expect.objectContaining({
        kind: 'precondition_failed',
        message: expect.stringMatching(/revision r2, not r1/),
      }),
    );
  });

  it('refuses a locked space with a 409', () => {
    expect(() => assertSpaceEditable({ editMode: 'locked' })).toThrow(
      expect.objectContaining({ kind: 'conflict', code: 'SpaceLocked' }),
    );
    expect(() => assertSpaceEditable({ editMode: 'live' })).not.toThrow();
  });
});
