import { documentProblem } from './document-validation';

const text = (value: string, marks: object[] = []) => ({
  object: 'text',
  leaves: [{ object: 'leaf', text: value, marks }],
});
const paragraph = (...nodes: object[]) => ({
  object: 'block',
  type: 'paragraph',
  key: 'k1',
  nodes,
});
const document = (...nodes: object[]) => ({ object: 'document', data: {}, nodes });

/** A block nested `depth` levels deep (the outermost counts as 1). */
function nested(depth: number): object {
  let node: object = paragraph(text('deep'));
  for (let i = 1; i < depth; i++) node = { object: 'block', type: 'blockquote', nodes: [node] };
  return node;
}

const problem = (value: unknown, limits?: { maxBytes: number; maxDepth: number }) =>
  documentProblem(value, 'instructions', limits);

describe('documentProblem', () => {
  it.each([
    ['an empty document', document()],
    ['a schema version', { object: 'document', data: { schemaVersion: 1 }, nodes: [] }],
    [
      'a paragraph with marked text',
      document(paragraph(text('Be brief.', [{ object: 'mark', type: 'bold' }]))),
    ],
    [
      'a list of list items holding paragraphs',
      document({
        object: 'block',
        type: 'list-unordered',
        nodes: [{ object: 'block', type: 'list-item', nodes: [paragraph(text('one'))] }],
      }),
    ],
    [
      'an inline link holding text',
      document(
        paragraph({
          object: 'inline',
          type: 'link',
          data: { ref: { kind: 'url', url: 'https://example.com' } },
          nodes: [text('here')],
        }),
      ),
    ],
    [
      'a void block without nodes',
      document({ object: 'block', type: 'divider', isVoid: true, data: {} }),
    ],
    ['unknown extra properties', document({ ...paragraph(text('x')), meta: { id: 1 } })],
  ])('accepts %s', (_label, value) => {
    expect(problem(value)).toBeNull();
  });

  it.each([
    ['a non-object', 'hello', 'instructions must be an object'],
    ['an array', [], 'instructions must be an object'],
    [
      'another object type',
      { object: 'page', data: {}, nodes: [] },
      'instructions.object must be "document"',
    ],
    ['no data', { object: 'document', nodes: [] }, 'instructions.data must be an object'],
    [
      'a fractional schema version',
      { object: 'document', data: { schemaVersion: 1.5 }, nodes: [] },
      'instructions.data.schemaVersion must be an integer',
    ],
    ['no nodes', { object: 'document', data: {} }, 'instructions.nodes must be an array'],
    [
      'text at the top level',
      document(text('loose')),
      'instructions.nodes[0].object must be "block"',
    ],
    [
      'a numeric block type',
      document(paragraph(), paragraph(), { object: 'block', type: 7, nodes: [] }),
      'instructions.nodes[2].type must be a string',
    ],
    [
      'an empty block type',
      document({ object: 'block', type: '', nodes: [] }),
      'instructions.nodes[0].type must not be empty',
    ],
    [
      'a block without nodes',
      document({ object: 'block', type: 'paragraph' }),
      'instructions.nodes[0].nodes must be an array',
    ],
    [
      'a non-boolean isVoid',
      document({ ...paragraph(), isVoid: 'no' }),
      'instructions.nodes[0].isVoid must be a boolean',
    ],
    [
      'array data',
      document({ ...paragraph(), data: [] }),
      'instructions.nodes[0].data must be an object',
    ],
    [
      'a numeric key',
      document({ ...paragraph(), key: 1 }),
      'instructions.nodes[0].key must be a string',
    ],
    [
      'a block inside an inline',
      document(paragraph({ object: 'inline', type: 'link', nodes: [paragraph()] })),
      'instructions.nodes[0].nodes[0].nodes[0].object must be "inline" or "text"',
    ],
    [
      'a child of an unknown kind',
      document(paragraph({ object: 'leaf', text: 'x' })),
      'instructions.nodes[0].nodes[0].object must be "block" or "inline" or "text"',
    ],
    [
      'text without leaves',
      document(paragraph({ object: 'text' })),
      'instructions.nodes[0].nodes[0].leaves must be an array',
    ],
    [
      'a leaf without text',
      document(paragraph({ object: 'text', leaves: [{ object: 'leaf', marks: [] }] })),
      'instructions.nodes[0].nodes[0].leaves[0].text must be a string',
    ],
    [
      'a leaf of another object type',
      document(paragraph({ object: 'text', leaves: [{ text: 'x', marks: [] }] })),
      'instructions.nodes[0].nodes[0].leaves[0].object must be "leaf"',
    ],
    [
      'a leaf without marks',
      document(paragraph({ object: 'text', leaves: [{ object: 'leaf', text: 'x' }] })),
      'instructions.nodes[0].nodes[0].leaves[0].marks must be an array',
    ],
    [
      'a mark without a type',
      document(paragraph(text('x', [{ object: 'mark' }]))),
      'instructions.nodes[0].nodes[0].leaves[0].marks[0].type must be a non-empty string',
    ],
    [
      'a mark of another object type',
      document(paragraph(text('x', [{ type: 'bold' }]))),
      'instructions.nodes[0].nodes[0].leaves[0].marks[0].object must be "mark"',
    ],
  ])('refuses %s', (_label, value, message) => {
    expect(problem(value)).toBe(message);
  });

  it('names the first problem only', () => {
    const value = document(paragraph(text('fine')), { object: 'block' }, { object: 'inline' });
    expect(problem(value)).toBe('instructions.nodes[1].type must be a string');
  });

  it('accepts nesting up to maxDepth levels and refuses one more', () => {
    const limits = { maxBytes: 1_000_000, maxDepth: 5 };
    // nested(4) plus its paragraph's text is 5 levels of nodes.
    expect(problem(document(nested(4)), limits)).toBeNull();
    expect(problem(document(nested(5)), limits)).toMatch(
      /^instructions(\.nodes\[0\]){5}\.nodes is nested too deeply \(at most 5 levels of nodes\)$/,
    );
  });

  it('refuses a document larger than maxBytes, counting UTF-8 bytes', () => {
    const limits = { maxBytes: 200, maxDepth: 64 };
    const small = document(paragraph(text('é'.repeat(10))));
    const size = Buffer.byteLength(JSON.stringify(small));
    expect(problem(small, { ...limits, maxBytes: size })).toBeNull();
    expect(problem(small, { ...limits, maxBytes: size - 1 })).toBe(
      `instructions must be at most ${size - 1} bytes of JSON (it has ${size})`,
    );
  });
});
