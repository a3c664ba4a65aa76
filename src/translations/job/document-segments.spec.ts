import type { JSONDocument } from '../../content-engine/documents/document';
import { countWords, documentSegments, isTranslatable, valueAt } from './document-segments';
import {
  parseTranslation,
  PlaceholderError,
  protectTerms,
  render,
  restore,
  segmentHash,
  segmentText,
} from './segment';

const leaf = (text: string, marks: string[] = []) => ({
  object: 'leaf' as const,
  text,
  marks: marks.map((type) => ({ object: 'mark' as const, type })),
});
const textNode = (...leaves: ReturnType<typeof leaf>[]) => ({ object: 'text' as const, leaves });
const paragraph = (...nodes: unknown[]) => ({ object: 'block', type: 'paragraph', nodes });

const LINK = {
  object: 'inline',
  type: 'link',
  data: { ref: { kind: 'url', url: 'https://example.com/docs' } },
  nodes: [textNode(leaf('visit the docs'))],
};

const DOCUMENT = {
  object: 'document',
  data: {},
  nodes: [
    paragraph(
      textNode(
        leaf('  Install the '),
        leaf('CLI', ['bold']),
        leaf(' with '),
        leaf('npm i', ['code']),
      ),
      textNode(leaf(' and ')),
      LINK,
      { object: 'inline', type: 'expression', isVoid: true, data: { expression: 'x' } },
      textNode(leaf(' now. ')),
    ),
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
          data: { ref: { kind: 'url', url: 'https://example.com/a.png' }, alt: 'A black cat' },
          fragments: [
            {
              object: 'fragment',
              fragment: 'caption',
              nodes: [paragraph(textNode(leaf('A cat')))],
            },
          ],
        },
      ],
    },
    {
      object: 'block',
      type: 'tabs',
      nodes: [
        {
          object: 'block',
          type: 'tabs-item',
          data: { title: 'Windows setup' },
          nodes: [paragraph(textNode(leaf('Open a terminal')))],
        },
      ],
    },
    {
      object: 'block',
      type: 'table',
      isVoid: true,
      data: {
        view: { type: 'grid', columns: ['c1', 'c2'], hideHeader: false },
        definition: {
          c1: { id: 'c1', title: 'Name', type: 'text', textAlignment: 'left' },
          c2: { id: 'c2', title: 'Notes', type: 'text', textAlignment: 'left' },
        },
        records: { r1: { orderIndex: 'a0', values: { c1: 'f1', c2: 'plain cell' } } },
      },
      fragments: [
        {
          object: 'fragment',
          fragment: 'f1',
          nodes: [paragraph(textNode(leaf('Rich cell', ['italic'])))],
        },
      ],
    },
  ],
} as unknown as JSONDocument;

describe('documentSegments', () => {
  const { slots } = documentSegments(DOCUMENT);

  it('cuts whole blocks and the plain strings that are text; skips code', () => {
    expect(slots.map((slot) => [slot.path.join('.'), segmentText(slot.segment)])).toEqual([
      ['nodes.0', 'Install the CLI with  and visit the docs now.'],
      ['nodes.2.nodes.0.data.alt', 'A black cat'],
      ['nodes.2.nodes.0.fragments.0.nodes.0', 'A cat'],
      ['nodes.3.nodes.0.data.title', 'Windows setup'],
      ['nodes.3.nodes.0.nodes.0', 'Open a terminal'],
      ['nodes.4.fragments.0.nodes.0', 'Rich cell'],
      ['nodes.4.data.definition.c1.title', 'Name'],
      ['nodes.4.data.definition.c2.title', 'Notes'],
      ['nodes.4.data.records.r1.values.c2', 'plain cell'],
    ]);
  });

  it('carries marks and links as pairs, code and variables as atoms, in each markup', () => {
    const [first] = slots;
    expect(render(first.segment, 'tags')).toBe(
      'Install the <g1>CLI</g1> with <x2/> and <g3>visit the docs</g3><x4/> now.',
    );
    expect(render(first.segment, 'xml')).toBe(
      'Install the <g id="1">CLI</g> with <x id="2"/> and <g id="3">visit the docs</g><x id="4"/> now.',
    );
    expect(render(first.segment, 'html')).toContain('<x id="2"></x>');
  });

  it('rebuilds a reordered translation with every mark, link and atom in place', () => {
    const [first] = slots;
    const answer =
      'Jetzt <x4/> die <g1>CLI</g1> mit <x2/> installieren &amp; <g3>die Doku besuchen</g3>.';
    const value = restore(first.segment, parseTranslation(first.segment, answer, 'tags'));
    const translated = documentSegments(DOCUMENT).apply(
      slots.map((_, i) => (i === 0 ? value : null)),
    );
    const [block] = translated.nodes as unknown as { nodes: Record<string, unknown>[] }[];
    expect(block.nodes).toEqual([
      { object: 'text', leaves: [leaf('  Jetzt ')] },
      { object: 'inline', type: 'expression', isVoid: true, data: { expression: 'x' } },
      {
        object: 'text',
        leaves: [
          leaf(' die '),
          leaf('CLI', ['bold']),
          leaf(' mit '),
          leaf('npm i', ['code']),
          leaf(' installieren &amp; '),
        ],
      },
      { ...LINK, nodes: [{ object: 'text', leaves: [leaf('die Doku besuchen')] }] },
      { object: 'text', leaves: [leaf('. ')] },
    ]);
    // The source document is untouched; the other slots keep their source.
    expect(JSON.stringify(DOCUMENT)).toContain('Install the ');
    expect(valueAt(translated, ['nodes', 2, 'nodes', 0, 'data', 'alt'])).toBe('A black cat');
  });

  it('writes plain strings: alt text, tab titles, column titles, plain cells', () => {
    const values = slots.map((slot) =>
      slot.segment.kind === 'text' ? `<${segmentText(slot.segment)}>` : null,
    );
    const translated = documentSegments(DOCUMENT).apply(values);
    expect(valueAt(translated, ['nodes', 2, 'nodes', 0, 'data', 'alt'])).toBe('<A black cat>');
    expect(valueAt(translated, ['nodes', 3, 'nodes', 0, 'data', 'title'])).toBe('<Windows setup>');
    expect(valueAt(translated, ['nodes', 4, 'data', 'definition', 'c2', 'title'])).toBe('<Notes>');
    expect(valueAt(translated, ['nodes', 4, 'data', 'records', 'r1', 'values', 'c2'])).toBe(
      '<plain cell>',
    );
    expect(valueAt(translated, ['nodes', 4, 'data', 'records', 'r1', 'values', 'c1'])).toBe('f1');
  });

  it('refuses answers that drop, repeat, invent or misplace placeholders', () => {
    const [first] = slots;
    const bad = [
      'Installieren <g1>CLI</g1> mit und <g3>Doku</g3><x4/>.',
      'Installieren <g1>CLI</g1> <x2/><x2/> <g3>Doku</g3><x4/>.',
      'Installieren <g1>CLI</g1> <x2/> <g3>Doku</g3><x4/><x9/>.',
      'Installieren <g3>CLI <g3>Doku</g3></g3> <x2/><x4/>.',
      'Installieren <g1>CLI</g1> <x2/> <g3>Doku <x4/></g3>.',
      'Installieren <g1>CLI <x2/> <g3>Doku</g3><x4/>.',
    ];
    for (const answer of bad) {
      expect(() => parseTranslation(first.segment, answer, 'tags')).toThrow(PlaceholderError);
    }
    // Marks may move around other marks and text: only links hold their contents.
    expect(() =>
      parseTranslation(first.segment, '<x2/> <g3>Doku</g3> <g1>CLI</g1> <x4/>', 'tags'),
    ).not.toThrow();
  });

  it('glossary terms become atoms that restore as the target term', () => {
    const [first] = slots;
    const protectedSegment = protectTerms(first.segment, [
      { source: 'the docs', target: 'die Doku' },
    ]);
    expect(render(protectedSegment, 'tags')).toBe(
      'Install the <g1>CLI</g1> with <x2/> and <g3>visit <x5/></g3><x4/> now.',
    );
    const value = restore(
      protectedSegment,
      parseTranslation(
        protectedSegment,
        'Installer <g1>CLI</g1> <x2/> <g3>voir <x5/></g3><x4/>.',
        'tags',
      ),
    );
    expect(JSON.stringify(value)).toContain('"text":"voir die Doku"');
  });

  it('hashes the source content, not node keys', () => {
    const keyed = structuredClone(DOCUMENT) as unknown as { nodes: { key?: string }[] };
    keyed.nodes[0].key = 'k1';
    const again = documentSegments(keyed as unknown as JSONDocument).slots[0].segment;
    expect(segmentHash(again, 'en')).toBe(segmentHash(slots[0].segment, 'en'));
    expect(segmentHash(again, 'fr')).not.toBe(segmentHash(slots[0].segment, 'en'));
  });
});

describe('isTranslatable / countWords', () => {
  it('needs a letter and is not a bare URL', () => {
    expect(isTranslatable('Hello')).toBe(true);
    expect(isTranslatable('42 %')).toBe(false);
    expect(isTranslatable('https://example.com/a')).toBe(false);
    expect(countWords(' one  two\nthree ')).toBe(3);
  });
});
