import type {
  DocumentBlock,
  DocumentInline,
  DocumentMark,
  DocumentNode,
  JSONDocument,
} from './document';
import { referencedPageIds, withoutPageRefs } from './page-refs';
import { contentRef, doc, link, mention, paragraph, text } from '../../../test/fixtures/documents';

const SPACE = 'spHere';
const HIDDEN = new Set(['pgHidden', 'pgHiddenChild']);

const toHidden = { kind: 'page', page: 'pgHidden' };
const toHiddenAnchor = { kind: 'anchor', page: 'pgHiddenChild', anchor: 'setup' };
const toOpen = { kind: 'page', page: 'pgOpen' };

/** The document's text, paragraph by paragraph. */
function texts(document: JSONDocument): string[] {
  const of = (node: DocumentNode): string =>
    node.object === 'text'
      ? node.leaves.map((leaf) => leaf.text).join('')
      : (node.nodes ?? []).map(of).join('');
  return document.nodes.map(of);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
}

describe('withoutPageRefs', () => {
  it('unwraps links to the pages and their anchors, keeping their text and the text around', () => {
    const document = deepFreeze(
      doc(
        paragraph(
          'p',
          text('Read '),
          link(toHidden, 'the plan'),
          text(', '),
          link(toHiddenAnchor, 'its setup'),
          text(' and '),
          link(toOpen, 'the guide'),
          text('.'),
        ),
      ),
    );
    const result = withoutPageRefs(document, HIDDEN, SPACE);
    expect(texts(result)).toEqual(['Read the plan, its setup and the guide.']);
    expect(referencedPageIds(result)).toEqual(new Set(['pgOpen']));
    expect(result.nodes[0].nodes?.filter((node) => node.object === 'inline')).toEqual([
      link(toOpen, 'the guide'),
    ]);
  });

  it('removes mentions, buttons and content-ref blocks of the pages, and keeps the others', () => {
    const button: DocumentInline = {
      object: 'inline',
      type: 'button',
      isVoid: true,
      data: { label: 'Go', kind: 'primary', ref: toHidden },
    };
    const result = withoutPageRefs(
      doc(
        paragraph('p', text('See '), mention(toHidden), text(' or '), mention(toOpen), button),
        contentRef('card', toHiddenAnchor),
        contentRef('kept', toOpen),
      ),
      HIDDEN,
      SPACE,
    );
    expect(result.nodes.map((node) => node.key)).toEqual(['p', 'kept']);
    expect(result.nodes[0].nodes).toEqual([text('See '), text(' or '), mention(toOpen)]);
  });

  it('removes an unknown node holding such a ref anywhere in its data', () => {
    const widget: DocumentBlock = {
      object: 'block',
      type: 'future-widget',
      key: 'w',
      isVoid: true,
      data: { targets: [{ to: toOpen }, { to: toHidden }] },
    };
    expect(withoutPageRefs(doc(paragraph('a'), widget), HIDDEN, SPACE).nodes).toEqual([
      paragraph('a'),
    ]);
  });

  it('drops a mark that links to one of the pages, and keeps the text and its other marks', () => {
    const bold: DocumentMark = { object: 'mark', type: 'bold' };
    const linkMark: DocumentMark = { object: 'mark', type: 'link', data: { ref: toHidden } };
    const result = withoutPageRefs(
      doc(paragraph('p', text('plan', [bold, linkMark]))),
      HIDDEN,
      SPACE,
    );
    expect(result.nodes[0].nodes).toEqual([text('plan', [bold])]);
  });

  it("drops table records' values that refer to the pages (a card's target)", () => {
    const table: DocumentBlock = {
      object: 'block',
      type: 'table',
      key: 'cards',
      isVoid: true,
      data: {
        view: { type: 'cards', columns: ['title'], cardSize: 'medium', targetDefinition: 'to' },
        definition: {
          title: { id: 'title', title: 'Title', type: 'text', textAlignment: 'left' },
          to: { id: 'to', title: 'Target', type: 'content-ref' },
        },
        records: {
          a: { orderIndex: 'a', values: { title: 'Plan', to: toHidden } },
          b: { orderIndex: 'b', values: { title: 'Guide', to: toOpen } },
        },
      },
      fragments: [],
    };
    const result = withoutPageRefs(deepFreeze(doc(table)), HIDDEN, SPACE);
    expect(result.nodes[0].data?.records).toEqual({
      a: { orderIndex: 'a', values: { title: 'Plan' } },
      b: { orderIndex: 'b', values: { title: 'Guide', to: toOpen } },
    });
    expect(result.nodes[0].data?.view).toBe(table.data?.view);
  });

  it('leaves an empty paragraph or text where nothing else is left, in fragments too', () => {
    const expandable: DocumentBlock = {
      object: 'block',
      type: 'expandable',
      key: 'x',
      isVoid: true,
      data: {},
      fragments: [
        {
          object: 'fragment',
          fragment: 'expandable-title',
          type: 'expandable-title',
          nodes: [paragraph('title', text('More'))],
        },
        {
          object: 'fragment',
          fragment: 'expandable-body',
          type: 'expandable-body',
          nodes: [contentRef('only', toHidden)],
        },
      ],
    };
    const result = withoutPageRefs(
      doc(paragraph('p', mention(toHidden)), expandable),
      HIDDEN,
      SPACE,
    );
    expect(result.nodes[0]).toEqual(paragraph('p', text('')));
    expect(result.nodes[1].fragments?.[0]).toBe(expandable.fragments?.[0]);
    expect(result.nodes[1].fragments?.[1].nodes).toEqual([
      { object: 'block', type: 'paragraph', key: 'only', data: {}, nodes: [text('')] },
    ]);
    expect(withoutPageRefs(doc(contentRef('c', toHidden)), HIDDEN, SPACE).nodes).toHaveLength(1);
  });

  it('keeps refs that name another space, and anchors of the page itself', () => {
    const document = doc(
      paragraph(
        'p',
        link({ kind: 'page', page: 'pgHidden', space: 'spOther' }, 'there'),
        link({ kind: 'anchor', anchor: 'top' }, 'top'),
      ),
    );
    expect(withoutPageRefs(document, HIDDEN, SPACE)).toBe(document);
    const here = doc(paragraph('p', link({ ...toHidden, space: SPACE }, 'here')));
    expect(texts(withoutPageRefs(here, HIDDEN, SPACE))).toEqual(['here']);
    expect(referencedPageIds(withoutPageRefs(here, HIDDEN, SPACE))).toEqual(new Set());
  });

  it('returns the document itself, unchanged, when it refers to none of the pages', () => {
    const document = deepFreeze(
      doc(paragraph('p', link(toOpen, 'guide')), contentRef('c', toOpen)),
    );
    expect(withoutPageRefs(document, HIDDEN, SPACE)).toBe(document);
  });
});

describe('referencedPageIds', () => {
  it('finds page and anchor refs in node data, marks and table records', () => {
    const document = doc(
      paragraph(
        'p',
        link(toHidden, 'a'),
        text('b', [{ object: 'mark', type: 'link', data: { ref: { kind: 'page', page: 'pgM' } } }]),
        link({ kind: 'anchor', anchor: 'x' }, 'c'),
        link({ kind: 'url', url: 'https://example.com' }, 'd'),
      ),
      contentRef('c', toHiddenAnchor),
      {
        object: 'block',
        type: 'table',
        isVoid: true,
        data: { records: { r: { orderIndex: 'a', values: { to: toOpen } } } },
      },
    );
    expect(referencedPageIds(document)).toEqual(
      new Set(['pgHidden', 'pgM', 'pgHiddenChild', 'pgOpen']),
    );
  });
});
