import type { JSONDocument } from './types';
import { mergeDocuments } from './document-merge';

function doc(source: string | undefined, ...texts: string[]): JSONDocument {
  return {
    object: 'document',
    data:
      source === undefined ? {} : { markdownSource: { markdown: source, blocks: [], lines: [] } },
    nodes: texts.map((text, i) => ({
      object: 'block',
      key: `k${i}`,
      type: 'paragraph',
      data: {},
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
    })),
  } as JSONDocument;
}

describe('mergeDocuments and the markdown a document was read from', () => {
  it('merges edits of different blocks whose sources changed on both sides', () => {
    const base = doc('base', 'a', 'b');
    const result = mergeDocuments(base, doc('ours', 'a ours', 'b'), doc('theirs', 'a', 'b theirs'));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.document.nodes.map((node) => node.nodes)).toEqual([
      doc(undefined, 'a ours').nodes[0].nodes,
      doc(undefined, 'b theirs').nodes[0].nodes,
    ]);
    expect(result.document.data).toEqual(doc('theirs').data);
  });

  it("keeps the side's source that changed, or none", () => {
    const merged = (base: JSONDocument, ours: JSONDocument, theirs: JSONDocument) => {
      const result = mergeDocuments(base, ours, theirs);
      return result.ok ? result.document.data : undefined;
    };
    expect(merged(doc('base', 'a'), doc('ours', 'a'), doc('base', 'a'))).toEqual(doc('ours').data);
    expect(merged(doc('base', 'a'), doc(undefined, 'a'), doc('base', 'a'))).toEqual({});
  });
});
