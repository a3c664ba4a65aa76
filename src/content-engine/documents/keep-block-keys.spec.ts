import { mergeDocuments } from '../merge/document-merge';
import type { JSONDocument } from './document';
import { keepBlockKeys } from './keep-block-keys';

let fresh = 0;
const block = (type: string, text: string, key = `new${++fresh}`) => ({
  object: 'block' as const,
  type,
  key,
  data: {},
  nodes: [
    {
      object: 'text' as const,
      key: `t${++fresh}`,
      leaves: [{ object: 'leaf' as const, text, marks: [] }],
    },
  ],
});
const doc = (...nodes: ReturnType<typeof block>[]): JSONDocument =>
  ({ object: 'document', data: {}, nodes }) as unknown as JSONDocument;
const keys = (document: JSONDocument) => document.nodes.map((node) => node.key);

describe('keepBlockKeys', () => {
  const previous = doc(
    block('heading-1', 'Title', 'h'),
    block('paragraph', 'One', 'p1'),
    block('paragraph', 'Two', 'p2'),
    block('code', 'x = 1', 'c'),
  );

  it('reuses unchanged blocks whole, inner keys included', () => {
    const next = keepBlockKeys(
      previous,
      doc(
        block('heading-1', 'Title'),
        block('paragraph', 'One'),
        block('paragraph', 'Two'),
        block('code', 'x = 1'),
      ),
    );
    expect(next.nodes).toEqual(previous.nodes);
  });

  it('keeps the key of a block edited in place, and gives added blocks their own', () => {
    const next = keepBlockKeys(
      previous,
      doc(
        block('heading-1', 'Title'),
        block('paragraph', 'One, edited'),
        block('paragraph', 'Added', 'added'),
        block('paragraph', 'Two'),
        block('code', 'x = 1'),
      ),
    );
    expect(keys(next)).toEqual(['h', 'p1', 'added', 'p2', 'c']);
    expect(next.nodes[1]).toMatchObject({
      key: 'p1',
      nodes: [{ leaves: [{ text: 'One, edited' }] }],
    });
  });

  it('drops the keys of deleted blocks and does not pair blocks of another type', () => {
    const next = keepBlockKeys(
      previous,
      doc(block('heading-1', 'Title'), block('hint', 'Note', 'hint'), block('code', 'x = 1')),
    );
    expect(keys(next)).toEqual(['h', 'hint', 'c']);
  });

  it('lets a three-way merge tell edits of one paragraph from edits of two', () => {
    const texts = ['Title', 'One', 'Two', 'x = 1'];
    const edit = (index: number, text: string) =>
      keepBlockKeys(
        previous,
        doc(...previous.nodes.map((node, i) => block(node.type, i === index ? text : texts[i]))),
      );
    const separate = mergeDocuments(previous, edit(1, 'Mine'), edit(2, 'Yours'));
    expect(separate.ok).toBe(true);
    const same = mergeDocuments(previous, edit(1, 'Mine'), edit(1, 'Yours'));
    expect(same).toEqual({ ok: false, conflicts: [{ kind: 'block-edit', blockKeys: ['p1'] }] });
  });
});
