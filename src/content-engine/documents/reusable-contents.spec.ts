import type { DocumentBlock, JSONDocument } from './document';
import {
  dereferenceReusableContents,
  MAX_REUSABLE_CONTENT_DEPTH,
  type ReusableContentDocuments,
} from './reusable-contents';

const SPACE = 'space1';

const paragraph = (text: string, key = text): DocumentBlock => ({
  object: 'block',
  key,
  type: 'paragraph',
  nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
});
const include = (reusableContent: string, space?: string): DocumentBlock => ({
  object: 'block',
  key: `rc-${reusableContent}`,
  type: 'reusable-content',
  isVoid: true,
  data: { ref: { kind: 'reusable-content', reusableContent, ...(space ? { space } : {}) } },
});
const doc = (...nodes: DocumentBlock[]): JSONDocument => ({ object: 'document', data: {}, nodes });

function library(contents: Record<string, JSONDocument>): ReusableContentDocuments & {
  reads: string[];
} {
  const reads: string[] = [];
  const read = (id: string) => {
    reads.push(id);
    return Promise.resolve(contents[id] ?? null);
  };
  return Object.assign(read, { reads });
}

describe('dereferenceReusableContents', () => {
  it('replaces a reusable-content block with the nodes of its document, in place', async () => {
    const documents = library({ note: doc(paragraph('Shared A'), paragraph('Shared B')) });
    const result = await dereferenceReusableContents(
      doc(paragraph('Before'), include('note'), paragraph('After')),
      SPACE,
      documents,
    );
    expect(result.nodes.map((node) => node.key)).toEqual([
      'Before',
      'Shared A',
      'Shared B',
      'After',
    ]);
  });

  it('returns the document itself when there is nothing to replace', async () => {
    const document = doc(paragraph('Only text'));
    const documents = library({});
    await expect(dereferenceReusableContents(document, SPACE, documents)).resolves.toBe(document);
    expect(documents.reads).toEqual([]);
  });

  it('finds blocks inside other blocks and in fragments', async () => {
    const documents = library({ note: doc(paragraph('Shared')) });
    const expandable: DocumentBlock = {
      object: 'block',
      key: 'exp',
      type: 'expandable',
      fragments: [{ object: 'fragment', fragment: 'body', nodes: [include('note')] }],
    };
    const conditional: DocumentBlock = {
      object: 'block',
      key: 'if',
      type: 'if',
      data: { expression: 'true' },
      nodes: [include('note')],
    };
    const result = await dereferenceReusableContents(
      doc(expandable, conditional),
      SPACE,
      documents,
    );
    expect(result.nodes[0].fragments?.[0].nodes.map((node) => node.key)).toEqual(['Shared']);
    expect(result.nodes[1].nodes?.map((node) => (node as DocumentBlock).key)).toEqual(['Shared']);
  });

  it('keeps blocks of another space and of unknown reusable contents as stored', async () => {
    const documents = library({ note: doc(paragraph('Shared')) });
    const other = include('note', 'space2');
    const unknown = include('missing');
    const same = include('note', SPACE);
    const result = await dereferenceReusableContents(doc(other, unknown, same), SPACE, documents);
    expect(result.nodes).toEqual([other, unknown, paragraph('Shared')]);
  });

  it('dereferences nested reusable contents and leaves out cycles', async () => {
    const documents = library({
      outer: doc(paragraph('Outer'), include('inner')),
      inner: doc(paragraph('Inner'), include('outer')),
    });
    const result = await dereferenceReusableContents(doc(include('outer')), SPACE, documents);
    expect(result.nodes.map((node) => node.key)).toEqual(['Outer', 'Inner']);
  });

  it('leaves out a reusable content the document is part of', async () => {
    const documents = library({ self: doc(paragraph('Self')) });
    const result = await dereferenceReusableContents(
      doc(paragraph('Mine'), include('self')),
      SPACE,
      documents,
      ['self'],
    );
    expect(result.nodes.map((node) => node.key)).toEqual(['Mine']);
  });

  it(`stops after ${MAX_REUSABLE_CONTENT_DEPTH} levels`, async () => {
    const contents: Record<string, JSONDocument> = {};
    for (let level = 0; level < 10; level += 1) {
      contents[`l${level}`] = doc(paragraph(`Level ${level}`), include(`l${level + 1}`));
    }
    const result = await dereferenceReusableContents(doc(include('l0')), SPACE, library(contents));
    expect(result.nodes).toHaveLength(MAX_REUSABLE_CONTENT_DEPTH);
    expect(result.nodes.every((node) => node.type === 'paragraph')).toBe(true);
  });
});
