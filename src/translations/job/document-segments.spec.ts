import type { JSONDocument } from '../../content-engine/documents/document';
import { countWords, documentSegments, isTranslatable } from './document-segments';

const leaf = (text: string, marks: string[] = []) => ({
  object: 'leaf' as const,
  text,
  marks: marks.map((type) => ({ object: 'mark' as const, type })),
});
const textNode = (...leaves: ReturnType<typeof leaf>[]) => ({ object: 'text' as const, leaves });

const DOCUMENT: JSONDocument = {
  object: 'document',
  data: {},
  nodes: [
    {
      object: 'block',
      type: 'paragraph',
      nodes: [
        textNode(
          leaf('  Hello '),
          leaf('world', ['bold']),
          leaf(' run '),
          leaf('ls -la', ['code']),
        ),
        {
          object: 'inline',
          type: 'link',
          data: { ref: { kind: 'url', url: 'https://example.com' } },
          nodes: [textNode(leaf('the site'))],
        },
        { object: 'inline', type: 'expression', isVoid: true, data: { expression: 'x' } },
        textNode(leaf('https://example.com/raw'), leaf(' 42 ')),
      ],
    },
    {
      object: 'block',
      type: 'code',
      nodes: [{ object: 'block', type: 'code-line', nodes: [textNode(leaf('echo "hi there"'))] }],
    },
    {
      object: 'block',
      type: 'images',
      nodes: [
        {
          object: 'block',
          type: 'image',
          isVoid: true,
          data: { ref: { kind: 'url', url: 'https://example.com/a.png' } },
          fragments: [
            {
              object: 'fragment',
              fragment: 'caption',
              type: 'image-caption',
              nodes: [{ object: 'block', type: 'paragraph', nodes: [textNode(leaf('A cat'))] }],
            },
          ],
        },
      ],
    },
  ],
};

describe('documentSegments', () => {
  it('lists only text leaves: no code, URLs, numbers, variables or node data', () => {
    expect(documentSegments(DOCUMENT).texts).toEqual([
      'Hello',
      'world',
      'run',
      'the site',
      'A cat',
    ]);
  });

  it('puts translations back with the white space around them, in a copy', () => {
    const segments = documentSegments(DOCUMENT);
    const before = JSON.stringify(DOCUMENT);
    const translated = segments.apply(['Bonjour', 'monde', 'lancez', 'le site', 'Un chat']);
    expect(JSON.stringify(DOCUMENT)).toBe(before);
    const json = JSON.stringify(translated);
    expect(json).toContain('"text":"  Bonjour "');
    expect(json).toContain('"text":" lancez "');
    expect(json).toContain('"text":"ls -la"');
    expect(json).toContain('"text":"echo \\"hi there\\""');
    expect(json).toContain('"text":"Un chat"');
    expect(json).toContain('https://example.com/a.png');
    // Only leaf texts differ.
    const blank = (doc: unknown) =>
      JSON.stringify(doc, (key, value: unknown) => (key === 'text' ? '' : value));
    expect(blank(translated)).toBe(blank(DOCUMENT));
  });

  it('refuses a wrong number of translations', () => {
    expect(() => documentSegments(DOCUMENT).apply(['one'])).toThrow('Expected 5 translations');
  });
});

describe('isTranslatable and countWords', () => {
  it.each([
    ['Hello', true],
    ['42', false],
    ['—', false],
    ['https://example.com', false],
    ['www.example.com', false],
    ['Go to https://example.com', true],
    ['日本語', true],
  ])('%s → %s', (text, expected) => {
    expect(isTranslatable(text)).toBe(expected);
  });

  it('counts runs of non-space characters', () => {
    expect(countWords('  one two\tthree\n')).toBe(3);
    expect(countWords('')).toBe(0);
  });
});
