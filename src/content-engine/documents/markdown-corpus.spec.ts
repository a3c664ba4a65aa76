/*
 * The markdown corpus (test/fixtures/markdown/*.md): one construct per file plus a few whole
 * pages (real-*.md), each in its canonical form, the one documentToMarkdown writes. For every
 * fixture, markdown → document → markdown gives the same bytes, and document → markdown →
 * document the same document (up to keys).
 *
 * Link targets are kept to a small set, so that the same corpus can be written to a space (a
 * page at `guide/intro` next to a page `install` with a subpage `step-2` and a page `other`)
 * and read back through the API and Git:
 *   other.md, install/README.md, install/README.md#step-2, #local-anchor,
 *   .gitbook/assets/logo.png, .gitbook/assets/guide.pdf, and absolute https URLs;
 * reusable-content.md includes .gitbook/includes/shared.md (a reusable content of the space).
 * Here refs stay `{kind: 'url'}` and the default refToUrl writes them back as they are.
 */
import stableStringify from 'json-stable-stringify';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { normalizeKeys } from '../../../test/fixtures/markdown/normalize-document';
import {
  DocumentBlock,
  DocumentFragment,
  DocumentInline,
  DocumentLeaf,
  DocumentMark,
  DocumentNode,
  DocumentText,
  JSONDocument,
  newKey,
} from './document';
import { documentToMarkdown, markdownToDocument } from './markdown';
import { withoutMarkdownSource } from './markdown-source';

const CORPUS = join(__dirname, '../../../test/fixtures/markdown');
const fixtures = readdirSync(CORPUS)
  .filter((name) => name.endsWith('.md') && name !== 'README.md')
  .sort();

/** The link targets fixtures may use besides absolute https URLs. */
const RELATIVE_TARGETS = new Set([
  'other.md',
  'install/README.md',
  'install/README.md#step-2',
  '#local-anchor',
  '.gitbook/assets/logo.png',
  '.gitbook/assets/guide.pdf',
  // Reusable content (reusable-content.md) needs one in the space.
  '.gitbook/includes/shared.md',
]);

function urlsOf(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((item) => urlsOf(item, out));
  else if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (record.kind === 'url' && typeof record.url === 'string') out.push(record.url);
    Object.values(record).forEach((child) => urlsOf(child, out));
  }
  return out;
}

describe('markdown corpus', () => {
  it('has at least 55 constructs and a few whole pages', () => {
    expect(fixtures.filter((name) => !name.startsWith('real-')).length).toBeGreaterThanOrEqual(55);
    expect(fixtures.filter((name) => name.startsWith('real-')).length).toBeGreaterThanOrEqual(4);
  });

  describe.each(fixtures)('%s', (name) => {
    const markdown = readFileSync(join(CORPUS, name), 'utf8');

    it('markdown → document → markdown gives the same bytes, written anew', async () => {
      // Fixtures are in Bindery's own form: written without the markdown read (kept for Git
      // files, markdown-source.ts), the document gives them back.
      const document = withoutMarkdownSource(
        await markdownToDocument(markdown, { keepSource: true }),
      );
      expect(await documentToMarkdown(document)).toBe(markdown);
    });

    it('a stored document (its object keys sorted) gives the same bytes', async () => {
      const document = await markdownToDocument(markdown);
      const stored = JSON.parse(stableStringify(document)!) as JSONDocument;
      expect(await documentToMarkdown(stored)).toBe(markdown);
    });

    it('document → markdown → document gives the same document', async () => {
      const document = await markdownToDocument(markdown);
      const again = await markdownToDocument(await documentToMarkdown(document));
      expect(normalizeKeys(again)).toEqual(normalizeKeys(document));
    });

    it('links only to the agreed targets', async () => {
      const urls = urlsOf(await markdownToDocument(markdown));
      for (const url of urls) {
        if (!url.startsWith('https://')) expect(RELATIVE_TARGETS).toContain(url);
      }
    });
  });
});

// Documents as GitBook's editor makes them (keys are random, as in GitBook).
const mark = (type: string, data?: Record<string, unknown>): DocumentMark => ({
  object: 'mark',
  type,
  ...(data ? { data } : {}),
});
const leaf = (text: string, ...marks: (string | DocumentMark)[]): DocumentLeaf => ({
  object: 'leaf',
  text,
  marks: marks.map((m) => (typeof m === 'string' ? mark(m) : m)),
});
const text = (...leaves: (DocumentLeaf | string)[]): DocumentText => ({
  object: 'text',
  key: newKey(),
  leaves: leaves.map((l) => (typeof l === 'string' ? leaf(l) : l)),
});
const block = (
  type: string,
  nodes: DocumentNode[] | undefined,
  data: Record<string, unknown> = {},
): DocumentBlock => ({ object: 'block', key: newKey(), type, data, ...(nodes ? { nodes } : {}) });
const paragraph = (...nodes: (DocumentNode | string)[]) =>
  block(
    'paragraph',
    nodes.map((n) => (typeof n === 'string' ? text(n) : n)),
  );
const inline = (
  type: string,
  data: Record<string, unknown>,
  nodes?: DocumentInline['nodes'],
): DocumentInline => ({
  object: 'inline',
  key: newKey(),
  type,
  data,
  ...(nodes ? { nodes } : { isVoid: true }),
});
const fragment = (name: string, nodes: DocumentBlock[], type?: string): DocumentFragment => ({
  object: 'fragment',
  key: newKey(),
  fragment: name,
  ...(type ? { type } : {}),
  nodes,
});
const doc = (...nodes: DocumentBlock[]): JSONDocument => ({ object: 'document', data: {}, nodes });
const url = (target: string) => ({ kind: 'url', url: target });

/**
 * GitBook's editor puts a text node, empty if need be, before, between and after inlines;
 * markdown has nothing to keep an empty one by, so they are left out of the comparison.
 */
function withoutEmptyTexts<T>(value: T): T {
  if (Array.isArray(value)) {
    const hasInline = value.some((node: DocumentNode) => node?.object === 'inline');
    return value
      .filter(
        (node: DocumentNode) =>
          !hasInline || node?.object !== 'text' || node.leaves.some((l) => l.text !== ''),
      )
      .map(withoutEmptyTexts) as T;
  }
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([field, child]) => [field, withoutEmptyTexts(child)]),
  ) as T;
}

async function expectDocumentRoundTrip(document: JSONDocument): Promise<string> {
  const markdown = await documentToMarkdown(document);
  const again = await markdownToDocument(markdown);
  expect(normalizeKeys(again)).toEqual(normalizeKeys(withoutEmptyTexts(document)));
  expect(await documentToMarkdown(again)).toBe(markdown);
  return markdown;
}

describe('documents as GitBook makes them', () => {
  it('annotations become footnotes and come back', async () => {
    const annotation: DocumentInline = {
      object: 'inline',
      key: newKey(),
      type: 'annotation',
      isVoid: false,
      nodes: [text('annotated ', leaf('words', 'bold'))],
      fragments: [
        fragment(
          'annotation-body',
          [paragraph(text('The ', leaf('note', 'italic'), '.')), paragraph('Second paragraph.')],
          'annotation-body',
        ),
      ],
    };
    const markdown = await expectDocumentRoundTrip(
      doc(paragraph(text('Some '), annotation, text(''))),
    );
    expect(markdown).toBe(
      'Some <span>annotated **words**</span>[^1]\n\n[^1]: The _note_.\n\n    Second paragraph.\n',
    );
  });

  it('tables with rich cells in fragments', async () => {
    const cell = (...nodes: (DocumentNode | string)[]) => {
      const name = newKey();
      return { name, fragment: fragment(name, [paragraph(...nodes)]) };
    };
    const a = cell(text(leaf('bold', 'bold'), ' and ', leaf('x', 'code')));
    const b = cell(text(''), inline('link', { ref: url('other.md') }, [text('Other')]), text(''));
    const c = cell(
      text(''),
      inline('inline-image', { ref: url('.gitbook/assets/logo.png'), alt: 'Logo' }),
      text(''),
    );
    const table: DocumentBlock = {
      object: 'block',
      key: newKey(),
      type: 'table',
      isVoid: true,
      data: {
        view: { type: 'grid', columns: ['c1', 'c2', 'c3'], hideHeader: false },
        definition: {
          c1: { id: 'c1', title: 'Text', type: 'text', textAlignment: 'left' },
          c2: { id: 'c2', title: 'Link', type: 'text', textAlignment: 'center' },
          c3: { id: 'c3', title: 'Image', type: 'text', textAlignment: 'right' },
        },
        records: { r1: { orderIndex: 'a0', values: { c1: a.name, c2: b.name, c3: c.name } } },
      },
      fragments: [a.fragment, b.fragment, c.fragment],
    };
    const markdown = await expectDocumentRoundTrip(doc(table));
    expect(markdown).toContain('| **bold** and `x` | [Other](other.md) |');
    expect(markdown).toContain('![Logo](.gitbook/assets/logo.png)');
  });

  it('image captions and sizes', async () => {
    const image: DocumentBlock = {
      object: 'block',
      key: newKey(),
      type: 'image',
      isVoid: true,
      data: { ref: url('.gitbook/assets/logo.png'), alt: 'Logo', width: 300 },
      fragments: [
        fragment('caption', [paragraph(text('The ', leaf('logo', 'italic')))], 'caption'),
      ],
    };
    const markdown = await expectDocumentRoundTrip(
      doc({ ...block('images', [image]), isVoid: false }),
    );
    expect(markdown).toBe(
      '<figure><img src=".gitbook/assets/logo.png" alt="Logo" width="300">' +
        '<figcaption><p>The <em>logo</em></p></figcaption></figure>\n',
    );
  });

  it('every mark, alone and combined', async () => {
    const red = mark('color', { text: 'red', background: 'default' });
    await expectDocumentRoundTrip(
      doc(
        paragraph(
          text(
            leaf('b', 'bold'),
            ' ',
            leaf('i', 'italic'),
            ' ',
            leaf('s', 'strikethrough'),
            ' ',
            leaf('c', 'code'),
            ' ',
            leaf('Ctrl', 'keyboard'),
            ' x',
            leaf('2', 'superscript'),
            ' H',
            leaf('2', 'subscript'),
            'O ',
            leaf('red', red),
            ' ',
            leaf('all', 'bold', 'italic', 'strikethrough', 'code', 'keyboard', red),
          ),
        ),
      ),
    );
  });

  it('emoji, inline math, expressions and mentions', async () => {
    await expectDocumentRoundTrip(
      doc(
        paragraph(
          text('Party '),
          inline('emoji', { code: '1f389' }),
          text(' and '),
          inline('emoji', { code: '1f9ed' }),
          text(', math '),
          inline('inline-math', { formula: 'e^{i\\pi} + 1 = 0' }),
          text(', '),
          inline('expression', { expression: 'space.vars.name' }),
          text(' by '),
          inline('mention', { ref: url('https://app.example.com/u/ada') }),
          text('.'),
        ),
        paragraph(text(''), inline('inline-math', { formula: 'x^2' }), text('')),
      ),
    );
  });

  it('headings 1 to 3 with anchors', async () => {
    const markdown = await expectDocumentRoundTrip(
      doc(
        block('heading-1', [text('One')], { id: 'one' }),
        block('heading-2', [text('Two')]),
        block('heading-3', [text('Three')], { id: 'local-anchor' }),
      ),
    );
    expect(markdown).toBe(
      '# One <a href="#one" id="one"></a>\n\n## Two\n\n### Three <a href="#local-anchor" id="local-anchor"></a>\n',
    );
  });

  it.each([
    '*stars* _underscores_ **double** __double__',
    '[brackets] [link](x) ![image](y) [^1] [^note]',
    '<b>html</b> <span>span</span> <!-- comment --> <kbd>k</kbd> <br>',
    '{% hint style="info" %}',
    '{% endhint %}',
    '$$x$$ and $$ alone and $',
    '# not a heading',
    '1. not a list',
    '- not a bullet',
    '+ not a bullet',
    '> not a quote',
    ':tada: :1f9ed: 10:30:00',
    'back\\slash \\* and `ticks` and ~~tildes~~ ~one~',
    '| not | a | table |',
    '&amp; &lt; &#x41; & < >',
    '<details>',
    '</details>',
    '<summary>x</summary>',
    '---',
    '***',
    '```js',
    '    indented',
    'https://example.com/autolink and www.example.com',
    'user@example.com',
    ' leading and trailing spaces ',
    'line\n{% hint style="info" %}\n$$\n$$x$$\n# h',
    'CJK 日本語 한국어 中文, RTL עברית العربية, Кириллица, emoji 🎉👩‍💻',
    'ends with a break\n',
    '\nstarts with a break',
    'two\n\nbreaks',
    '\ttab and   spaces',
    '<p></p>',
    '<figure><img src="x.png" alt=""></figure>',
    '<!-- bindery:block {"object":"block","type":"divider"} -->',
    '<span data-bindery-inline="{}"></span> <i class="fa-check"></i>',
    '<a href="x" class="button primary">b</a> <code class="expression">x</code>',
    '<span>x</span>[^1] <mark style="color:red;">m</mark>',
    '⸨\uE0000\uE001⸩ placeholders-like text',
  ])('text stays text: %j', async (value) => {
    await expectDocumentRoundTrip(doc(paragraph(value)));
  });

  it('empty paragraphs and paragraphs of inline images alone', async () => {
    const image = (data: Record<string, unknown>) => inline('inline-image', data);
    const markdown = await expectDocumentRoundTrip(
      doc(
        paragraph('Before'),
        paragraph(''),
        paragraph(
          text(''),
          image({ ref: url('.gitbook/assets/logo.png'), alt: 'A' }),
          text(''),
          image({ ref: url('https://example.com/b.png') }),
          text(''),
        ),
        block('list-unordered', [block('list-item', [paragraph('')])]),
      ),
    );
    expect(markdown).toBe(
      'Before\n\n\n\n' +
        '<img src=".gitbook/assets/logo.png" alt="A"><img src="https://example.com/b.png" alt="">' +
        '\n\n*\n',
    );
  });

  it('list items holding blocks written as tags', async () => {
    const markdown = await expectDocumentRoundTrip(
      doc(
        block(
          'list-ordered',
          [
            block('list-item', [
              paragraph('Step'),
              block('hint', [paragraph('Careful.')], { style: 'warning' }),
              { ...block('math', undefined, { formula: 'x^2' }), isVoid: true },
            ]),
          ],
          { start: 1 },
        ),
      ),
    );
    expect(markdown).toBe(
      '1.  Step\n\n    {% hint style="warning" %}\n    Careful.\n    {% endhint %}\n\n    $$\n    x^2\n    $$\n',
    );
  });

  it('a quote holding a hint goes through the escape hatch', async () => {
    const markdown = await expectDocumentRoundTrip(
      doc(block('blockquote', [block('hint', [paragraph('In a quote.')], { style: 'info' })])),
    );
    expect(markdown).toMatch(/^<!-- bindery:block /);
  });

  it('blocks whose ref the caller cannot name keep it through the escape hatch', async () => {
    const markdown = await expectDocumentRoundTrip(
      doc(
        {
          ...block('reusable-content', undefined, {
            ref: { kind: 'reusable-content', reusableContent: 'rc1' },
          }),
          isVoid: true,
        },
        { ...block('file', undefined, { ref: { kind: 'file', file: 'f1' } }), isVoid: true },
      ),
    );
    expect(markdown.match(/<!-- bindery:block /g)).toHaveLength(2);
  });

  it('blocks markdown has no form for go through the escape hatch', async () => {
    await expectDocumentRoundTrip(
      doc(
        block('paragraph', [text('Centered')], { align: 'center' }),
        {
          ...block('integration', undefined, { integration: 'x', block: 'y', props: {} }),
          isVoid: true,
        },
        block('heading-2', [text('Two')], { align: 'right' }),
      ),
    );
  });
});
