import {
  DocumentBlock,
  DocumentInline,
  DocumentLeaf,
  DocumentNode,
  DocumentText,
  JSONDocument,
  MarkType,
  newKey,
} from './document';
import { splitBlockTags } from './block-tags';
import { documentToMarkdown, markdownToDocument } from './markdown';
import { withoutMarkdownSource } from './markdown-source';
import { orderIndex } from './order-index';
import { normalizeKeys } from '../../../test/fixtures/markdown/normalize-document';

// Builders for documents in the shape the converter produces (keys are random, as in GitBook).
const leaf = (text: string, ...marks: MarkType[]): DocumentLeaf => ({
  object: 'leaf',
  text,
  marks: marks.map((type) => ({ object: 'mark', type })),
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
const link = (url: string, label: string): DocumentInline => ({
  object: 'inline',
  key: newKey(),
  type: 'link',
  data: { ref: { kind: 'url', url } },
  nodes: [text(label)],
});
const item = (...nodes: DocumentBlock[]) => block('list-item', nodes);
const taskItem = (checked: boolean, label: string) =>
  block('list-item', [paragraph(label)], { checked });
const codeBlock = (syntax: string | undefined, ...lines: string[]) =>
  block(
    'code',
    lines.map((line) => block('code-line', [text(line)])),
    syntax ? { syntax } : {},
  );
const voidBlock = (type: string, data: Record<string, unknown>): DocumentBlock => ({
  object: 'block',
  key: newKey(),
  type,
  data,
  isVoid: true,
});
const doc = (...nodes: DocumentBlock[]): JSONDocument => ({ object: 'document', data: {}, nodes });

/**
 * markdown → document → markdown gives the markdown back, written anew (not from the markdown
 * kept with the document), and the document is as expected.
 */
async function expectMarkdownRoundTrip(markdown: string, expected?: JSONDocument) {
  const document = await markdownToDocument(markdown);
  if (expected) expect(normalizeKeys(document)).toEqual(normalizeKeys(expected));
  expect(await documentToMarkdown(withoutMarkdownSource(document))).toBe(markdown);
  return document;
}

/** document → markdown → document gives the document back, up to keys. */
async function expectDocumentRoundTrip(document: JSONDocument) {
  const markdown = await documentToMarkdown(document);
  const again = await markdownToDocument(markdown);
  expect(normalizeKeys(again)).toEqual(normalizeKeys(document));
  return markdown;
}

async function expectBothRoundTrips(markdown: string, document: JSONDocument) {
  await expectMarkdownRoundTrip(markdown, document);
  expect(await expectDocumentRoundTrip(document)).toBe(markdown);
}

describe('markdown ⇄ document', () => {
  it('paragraphs', async () => {
    await expectBothRoundTrips(
      'First paragraph.\n\nSecond one.\n',
      doc(paragraph('First paragraph.'), paragraph('Second one.')),
    );
  });

  it('headings 1 to 3', async () => {
    await expectBothRoundTrips(
      '# One\n\n## Two\n\n### Three\n',
      doc(
        block('heading-1', [text('One')]),
        block('heading-2', [text('Two')]),
        block('heading-3', [text('Three')]),
      ),
    );
  });

  it('headings deeper than 3 become heading-3, keeping their depth in data.level', async () => {
    await expectBothRoundTrips(
      '#### Four\n\n###### Six\n',
      doc(
        block('heading-3', [text('Four')], { level: 4 }),
        block('heading-3', [text('Six')], { level: 6 }),
      ),
    );
  });

  it('bold, italic, strikethrough and code marks, nested', async () => {
    await expectBothRoundTrips(
      '**bold** _italic_ ~~struck~~ `code` _**both**_ **a&#x20;**_**b**_ **~~`x`~~**\n',
      doc(
        paragraph(
          text(
            leaf('bold', 'bold'),
            ' ',
            leaf('italic', 'italic'),
            ' ',
            leaf('struck', 'strikethrough'),
            ' ',
            leaf('code', 'code'),
            ' ',
            leaf('both', 'bold', 'italic'),
            ' ',
            leaf('a ', 'bold'),
            leaf('b', 'bold', 'italic'),
            ' ',
            leaf('x', 'bold', 'strikethrough', 'code'),
          ),
        ),
      ),
    );
  });

  it('keeps whitespace at the edges of formatting, encoded as GitBook writes it', async () => {
    await expectBothRoundTrips(
      '&#x61;**&#x20;bold&#x20;**&#x62;\n',
      doc(paragraph(text('a', leaf(' bold ', 'bold'), 'b'))),
    );
  });

  it('hard line breaks are newlines in text; soft breaks are spaces', async () => {
    await expectBothRoundTrips('one\\\ntwo\n', doc(paragraph('one\ntwo')));
    const document = await markdownToDocument('one\ntwo\n');
    expect(normalizeKeys(document)).toEqual(normalizeKeys(doc(paragraph('one two'))));
  });

  it('line ends of any kind (\\r\\n, \\r) are line ends; a code span across lines is on one', async () => {
    const lf = await markdownToDocument('one\\\ntwo and `a\n  b`\n');
    for (const markdown of ['one\\\r\ntwo and `a\r\n  b`\r\n', 'one\\\rtwo and `a\r  b`\r']) {
      expect(normalizeKeys(await markdownToDocument(markdown))).toEqual(normalizeKeys(lf));
    }
    expect(lf.nodes[0].nodes).toEqual([
      expect.objectContaining({
        leaves: [
          expect.objectContaining({ text: 'one\ntwo and ' }),
          expect.objectContaining({ text: 'a b' }),
        ],
      }),
    ]);
  });

  it('hard breaks before inline HTML are <br>, which reads back as breaks', async () => {
    const document = await markdownToDocument(
      'a\\\n\\\n<img src="x.png" alt="" data-size="original">\n',
    );
    expect(await expectDocumentRoundTrip(document)).toBe(
      'a<br><br><img src="x.png" alt="" data-size="original">\n',
    );
  });

  it('links, absolute and relative, as url refs', async () => {
    await expectBothRoundTrips(
      'See [GitBook](https://www.gitbook.com) and [setup](../guide/setup.md).\n',
      doc(
        paragraph(
          text('See '),
          link('https://www.gitbook.com', 'GitBook'),
          text(' and '),
          link('../guide/setup.md', 'setup'),
          text('.'),
        ),
      ),
    );
  });

  it('resolves reference-style links', async () => {
    const document = await markdownToDocument('[ref][1]\n\n[1]: https://example.com\n');
    expect(normalizeKeys(document)).toEqual(
      normalizeKeys(doc(paragraph(link('https://example.com', 'ref')))),
    );
  });

  it('writes page refs with a caller-supplied target', async () => {
    const document = doc(
      paragraph({
        object: 'inline',
        key: newKey(),
        type: 'link',
        data: { ref: { kind: 'page', page: 'p1' } },
        nodes: [text('Intro')],
      }),
    );
    expect(await documentToMarkdown(document)).toBe('[Intro]()\n');
    const markdown = await documentToMarkdown(document, {
      refToUrl: (ref) => (ref.kind === 'page' ? `${ref.page}.md` : undefined),
    });
    expect(markdown).toBe('[Intro](p1.md)\n');
  });

  it('unordered lists, nested', async () => {
    await expectBothRoundTrips(
      '* a\n  * b\n    1. c\n* d\n',
      doc(
        block('list-unordered', [
          item(
            paragraph('a'),
            block('list-unordered', [
              item(paragraph('b'), block('list-ordered', [item(paragraph('c'))], { start: 1 })),
            ]),
          ),
          item(paragraph('d')),
        ]),
      ),
    );
  });

  it('ordered lists keep their start', async () => {
    await expectBothRoundTrips(
      '3. three\n4. four\n',
      doc(block('list-ordered', [item(paragraph('three')), item(paragraph('four'))], { start: 3 })),
    );
  });

  it('task lists', async () => {
    await expectBothRoundTrips(
      '* [ ] todo\n* [x] done\n',
      doc(block('list-tasks', [taskItem(false, 'todo'), taskItem(true, 'done')])),
    );
  });

  it('fenced code with a language, one code-line per line', async () => {
    await expectBothRoundTrips(
      '```ts\nconst a = 1;\n\nconsole.log(a);\n```\n',
      doc(codeBlock('ts', 'const a = 1;', '', 'console.log(a);')),
    );
    await expectBothRoundTrips('```\nplain\n```\n', doc(codeBlock(undefined, 'plain')));
  });

  it('blockquotes', async () => {
    await expectBothRoundTrips(
      '> Quoted\n>\n> * item\n',
      doc(
        block('blockquote', [
          paragraph('Quoted'),
          block('list-unordered', [item(paragraph('item'))]),
        ]),
      ),
    );
  });

  it('GFM tables as grid tables of text columns, each cell a fragment as GitBook keeps them', async () => {
    const markdown = '| Name | Age |\n| ---- | :-: |\n| Ada  |  36 |\n| Bob  |     |\n';
    const document = await expectMarkdownRoundTrip(markdown);
    const [table] = document.nodes;
    expect(table).toMatchObject({ type: 'table', isVoid: true });
    const data = table.data as {
      view: { type: string; columns: string[]; hideHeader: boolean };
      definition: Record<
        string,
        { id: string; title: string; type: string; textAlignment: string }
      >;
      records: Record<string, { orderIndex: string; values: Record<string, string> }>;
    };
    const [name, age] = data.view.columns;
    expect(data.view).toEqual({ type: 'grid', columns: [name, age], hideHeader: false });
    expect(data.definition).toEqual({
      [name]: { id: name, title: 'Name', type: 'text', textAlignment: 'left' },
      [age]: { id: age, title: 'Age', type: 'text', textAlignment: 'center' },
    });
    const [ada, bob] = Object.values(data.records);
    expect(ada.orderIndex).toBe('a0');
    expect(bob).toEqual({ orderIndex: 'a1', values: { [name]: bob.values[name], [age]: '' } });
    const cell = (value: string) => {
      const fragment = table.fragments?.find((f) => f.fragment === value);
      return fragment?.nodes.map((node) => node.nodes?.map((n) => (n as DocumentText).leaves));
    };
    expect(cell(ada.values[name])).toEqual([[[leaf('Ada')]]]);
    expect(cell(ada.values[age])).toEqual([[[leaf('36')]]]);
    expect(cell(bob.values[name])).toEqual([[[leaf('Bob')]]]);
    expect(await expectDocumentRoundTrip(document)).toBe(markdown);
  });

  it('writes plain string values that name no fragment as text', async () => {
    const table = block('table', undefined, {
      view: { type: 'grid', columns: ['c'], hideHeader: false },
      definition: { c: { id: 'c', title: 'N', type: 'text', textAlignment: 'left' } },
      records: { r1: { orderIndex: 'a0', values: { c: 'plain *text*' } } },
    });
    expect(await documentToMarkdown(doc({ ...table, isVoid: true, fragments: [] }))).toBe(
      '| N              |\n| -------------- |\n| plain \\*text\\* |\n',
    );
  });

  it('writes table records in orderIndex order, whatever the object order', async () => {
    const table = block('table', undefined, {
      view: { type: 'grid', columns: ['c'], hideHeader: false },
      definition: { c: { id: 'c', title: 'N', type: 'text', textAlignment: 'right' } },
      records: {
        r2: { orderIndex: 'a2', values: { c: 2 } },
        r1: { orderIndex: 'a1', values: { c: 'one' } },
      },
    });
    expect(await documentToMarkdown(doc({ ...table, isVoid: true }))).toBe(
      '|   N |\n| --: |\n| one |\n|   2 |\n',
    );
  });

  it('images as an images block of url images', async () => {
    const image = (url: string, alt?: string): DocumentBlock => ({
      object: 'block',
      key: newKey(),
      type: 'image',
      data: { ref: { kind: 'url', url }, ...(alt ? { alt } : {}) },
      isVoid: true,
      fragments: [],
    });
    await expectBothRoundTrips(
      '![A cat](https://example.com/cat.png)![](dog.png)\n',
      doc({
        ...block('images', [image('https://example.com/cat.png', 'A cat'), image('dog.png')]),
        isVoid: false,
      }),
    );
  });

  it('an image among text is an inline-image', async () => {
    const document = await expectMarkdownRoundTrip('Look: ![icon](i.png) here\n');
    expect(document.nodes[0].nodes?.[1]).toMatchObject({
      object: 'inline',
      type: 'inline-image',
      isVoid: true,
      data: { ref: { kind: 'url', url: 'i.png' }, alt: 'icon' },
    });
  });

  it('thematic breaks as dividers', async () => {
    await expectBothRoundTrips(
      'Above\n\n***\n\nBelow\n',
      doc(
        paragraph('Above'),
        { object: 'block', key: newKey(), type: 'divider', data: {}, isVoid: true },
        paragraph('Below'),
      ),
    );
  });

  it('GitBook hints', async () => {
    await expectBothRoundTrips(
      '{% hint style="warning" %}\nCareful.\n\n* one\n{% endhint %}\n\nAfter.\n',
      doc(
        block('hint', [paragraph('Careful.'), block('list-unordered', [item(paragraph('one'))])], {
          style: 'warning',
        }),
        paragraph('After.'),
      ),
    );
    for (const style of ['info', 'danger', 'success']) {
      const [hint] = (await markdownToDocument(`{% hint style="${style}" %}\nx\n{% endhint %}\n`))
        .nodes;
      expect(hint).toMatchObject({ type: 'hint', data: { style } });
    }
  });

  it('leaves hint tags inside fenced code, unclosed or of unknown style as text', async () => {
    const markdown =
      '```liquid\n{% hint style="info" %}\n{% endhint %}\n```\n\n{% hint style="info" %}\nnever closed\n';
    const document = await markdownToDocument(markdown);
    expect(document.nodes.map((node) => node.type)).toEqual(['code', 'paragraph']);
    expect(splitBlockTags('{% hint style="tip" %}\nx\n{% endhint %}')).toEqual([
      { kind: 'markdown', text: '{% hint style="tip" %}\nx\n{% endhint %}', start: 0, end: 3 },
    ]);
  });

  it('tabs, with a title per tab', async () => {
    await expectBothRoundTrips(
      [
        '{% tabs %}',
        '{% tab title="First" %}',
        'One.',
        '{% endtab %}',
        '',
        '{% tab title="Say "hi"" %}',
        '{% hint style="info" %}',
        'Nested.',
        '{% endhint %}',
        '{% endtab %}',
        '{% endtabs %}',
        '',
        'After.',
        '',
      ].join('\n'),
      doc(
        block('tabs', [
          block('tabs-item', [paragraph('One.')], { title: 'First' }),
          block('tabs-item', [block('hint', [paragraph('Nested.')], { style: 'info' })], {
            title: 'Say "hi"',
          }),
        ]),
        paragraph('After.'),
      ),
    );
  });

  it('steppers', async () => {
    await expectBothRoundTrips(
      [
        '{% stepper %}',
        '{% step %}',
        '### Install',
        '',
        '```bash',
        'npm i',
        '```',
        '{% endstep %}',
        '',
        '{% step %}',
        'Done.',
        '{% endstep %}',
        '{% endstepper %}',
        '',
      ].join('\n'),
      doc(
        block('stepper', [
          block('stepper-step', [
            block('heading-3', [text('Install')]),
            codeBlock('bash', 'npm i'),
          ]),
          block('stepper-step', [paragraph('Done.')]),
        ]),
      ),
    );
  });

  it('embeds', async () => {
    await expectBothRoundTrips(
      'Watch:\n\n{% embed url="https://www.youtube.com/watch?v=x&t=1" %}\n',
      doc(
        paragraph('Watch:'),
        voidBlock('embed', { url: 'https://www.youtube.com/watch?v=x&t=1' }),
      ),
    );
  });

  it('files, as url refs', async () => {
    await expectBothRoundTrips(
      '{% file src=".gitbook/assets/report.pdf" %}\n',
      doc(voidBlock('file', { ref: { kind: 'url', url: '.gitbook/assets/report.pdf' } })),
    );
    const markdown = await documentToMarkdown(
      doc(voidBlock('file', { ref: { kind: 'file', file: 'f1' } })),
      { refToUrl: (ref) => (ref.kind === 'file' ? `assets/${ref.file}.pdf` : undefined) },
    );
    expect(markdown).toBe('{% file src="assets/f1.pdf" %}\n');
  });

  it('file captions, whole across lines and formatting, as GitBook writes them', async () => {
    await expectBothRoundTrips(
      '{% file src=".gitbook/assets/report.pdf" %}\nThe **yearly** report, 2026\n{% endfile %}\n',
      doc(
        voidBlock('file', {
          ref: { kind: 'url', url: '.gitbook/assets/report.pdf' },
          caption: 'The **yearly** report, 2026',
        }),
      ),
    );
  });

  it('content refs', async () => {
    await expectBothRoundTrips(
      '{% content-ref url="guide/setup.md" %}\n[setup.md](guide/setup.md)\n{% endcontent-ref %}\n',
      doc(voidBlock('content-ref', { ref: { kind: 'url', url: 'guide/setup.md' } })),
    );
  });

  it("reads the forms of GitBook's earlier Git Sync and writes today's", async () => {
    const document = await markdownToDocument(
      '{% page-ref page="guide/setup.md" %}\n\n{% file src="a.pdf" caption="The guide" %}\n',
      { keepSource: true },
    );
    expect(normalizeKeys(document)).toEqual(
      normalizeKeys(
        doc(
          voidBlock('content-ref', { ref: { kind: 'url', url: 'guide/setup.md' } }),
          voidBlock('file', { ref: { kind: 'url', url: 'a.pdf' }, caption: 'The guide' }),
        ),
      ),
    );
    // Unchanged, a file read from Git is written back as it was read; written anew, in today's form.
    expect(await documentToMarkdown(document)).toBe(
      '{% page-ref page="guide/setup.md" %}\n\n{% file src="a.pdf" caption="The guide" %}\n',
    );
    expect(await documentToMarkdown(withoutMarkdownSource(document))).toBe(
      '{% content-ref url="guide/setup.md" %}\n[setup.md](guide/setup.md)\n{% endcontent-ref %}\n\n' +
        '{% file src="a.pdf" %}\nThe guide\n{% endfile %}\n',
    );
  });

  it('reads aligned figures in the earlier form, a <div> on lines of its own', async () => {
    const earlier = await markdownToDocument(
      '<div align="center">\n\n<figure><img src="a.png" alt=""><figcaption></figcaption></figure>\n\n</div>\n',
    );
    const today = await markdownToDocument(
      '<div align="center"><figure><img src="a.png" alt=""><figcaption></figcaption></figure></div>\n',
    );
    expect(normalizeKeys(earlier)).toEqual(normalizeKeys(today));
    expect(earlier.nodes[0].type).toBe('images');
  });

  it('reads a <picture> alone, and the drawing tag, as GitBook writes them today', async () => {
    const picture = await markdownToDocument(
      '<picture><source srcset="d.png" media="(prefers-color-scheme: dark)"><img src="l.png" alt=""></picture>\n',
    );
    expect(picture.nodes[0].type).toBe('images');
    expect(picture.nodes[0].nodes?.[0]).toMatchObject({
      type: 'image',
      data: { ref: { kind: 'url', url: 'l.png' }, refDark: { kind: 'url', url: 'd.png' } },
    });
    const drawing = await markdownToDocument('{% drawing src="a.drawing.svg" %}\n');
    expect(await documentToMarkdown(withoutMarkdownSource(drawing))).toBe(
      '<img src="a.drawing.svg" alt="" class="gitbook-drawing">\n',
    );
  });

  describe('OpenAPI blocks', () => {
    const pets = { kind: 'openapi', spec: 'petstore' };

    it('operations, schemas and webhooks, written closed as GitBook does', async () => {
      await expectBothRoundTrips(
        '{% openapi-operation spec="petstore" path="/pets/{petId}" method="get" %}\n' +
          '{% endopenapi-operation %}\n\n' +
          '{% openapi-schemas spec="petstore" schemas="Pet,Error" grouped="false" %}\n' +
          '{% endopenapi-schemas %}\n\n' +
          '{% openapi-schemas spec="petstore" schemas="Pet" %}\n{% endopenapi-schemas %}\n\n' +
          '{% openapi-webhook spec="petstore" name="newPet" method="post" %}\n' +
          '{% endopenapi-webhook %}\n',
        doc(
          voidBlock('openapi-operation', { ref: pets, path: '/pets/{petId}', method: 'get' }),
          voidBlock('openapi-schemas', { ref: pets, schemas: ['Pet', 'Error'], grouped: false }),
          voidBlock('openapi-schemas', { ref: pets, schemas: ['Pet'] }),
          voidBlock('openapi-webhook', { ref: pets, name: 'newPet', method: 'post' }),
        ),
      );
    });

    it('reads the tags alone or closed around content, which is not kept', async () => {
      const markdown = [
        'Intro.',
        '',
        '{% openapi-operation spec="petstore" path="/pets" method="post" %}',
        'Text after an unclosed tag.',
        '',
        '{% openapi-operation spec="petstore" path="/pets" method="get" %}',
        '[OpenAPI petstore](https://example.com/petstore.json)',
        '{% endopenapi-operation %}',
        // Verbatim from the descriptions of GitBook's own specification.
        '{% openapi-schemas spec="gitbook" schemas="Organization" grouped="false" %}',
        '    The Organization object',
        '{% endopenapi-schemas %}',
        '{% openapi-schemas spec="gitbook" schemas=" Space , ,Site" grouped="yes" %}',
        '{% openapi-webhook spec="petstore" name="newPet" method="post" %}',
      ].join('\n');
      const document = await markdownToDocument(markdown);
      const gitbook = { kind: 'openapi', spec: 'gitbook' };
      expect(normalizeKeys(document)).toEqual(
        normalizeKeys(
          doc(
            paragraph('Intro.'),
            voidBlock('openapi-operation', { ref: pets, path: '/pets', method: 'post' }),
            paragraph('Text after an unclosed tag.'),
            voidBlock('openapi-operation', { ref: pets, path: '/pets', method: 'get' }),
            voidBlock('openapi-schemas', {
              ref: gitbook,
              schemas: ['Organization'],
              grouped: false,
            }),
            voidBlock('openapi-schemas', { ref: gitbook, schemas: ['Space', 'Site'] }),
            voidBlock('openapi-webhook', { ref: pets, name: 'newPet', method: 'post' }),
          ),
        ),
      );
    });

    it('leaves tags missing an attribute, or inside fenced code, as text', async () => {
      const markdown =
        '{% openapi-operation spec="petstore" path="/pets" %}\n\n' +
        '{% openapi-schemas spec="petstore" %}\n\n' +
        '```md\n{% openapi-webhook spec="p" name="n" method="post" %}\n```\n';
      const document = await markdownToDocument(markdown);
      expect(document.nodes.map((node) => node.type)).toEqual(['paragraph', 'paragraph', 'code']);
    });

    it('writes a link to the specification when the caller knows its URL', async () => {
      const document = doc(
        voidBlock('openapi-operation', { ref: pets, path: '/pets', method: 'get' }),
      );
      const markdown = await documentToMarkdown(document, {
        refToUrl: (ref) =>
          ref.kind === 'openapi' ? `https://api.example.com/${ref.spec}.json` : undefined,
      });
      expect(markdown).toBe(
        '{% openapi-operation spec="petstore" path="/pets" method="get" %}\n' +
          '[OpenAPI petstore](https://api.example.com/petstore.json)\n' +
          '{% endopenapi-operation %}\n',
      );
      expect(normalizeKeys(await markdownToDocument(markdown))).toEqual(normalizeKeys(document));
    });

    it('writes blocks without their openapi ref or fields through the escape hatch', async () => {
      const document = doc(
        voidBlock('openapi-operation', {
          ref: { kind: 'url', url: 'x' },
          path: '/',
          method: 'get',
        }),
        voidBlock('openapi-webhook', { ref: pets, name: 'newPet' }),
        voidBlock('openapi-schemas', { ref: pets, schemas: ['A'], grouped: true }),
      );
      const markdown = await documentToMarkdown(document);
      expect(markdown).toBe(
        '<!-- bindery:block {"data":{"method":"get","path":"/","ref":{"kind":"url","url":"x"}},' +
          '"isVoid":true,"object":"block","type":"openapi-operation"} -->\n\n' +
          '<!-- bindery:block {"data":{"name":"newPet","ref":{"kind":"openapi","spec":"petstore"}},' +
          '"isVoid":true,"object":"block","type":"openapi-webhook"} -->\n\n' +
          '{% openapi-schemas spec="petstore" schemas="A" grouped="true" %}\n' +
          '{% endopenapi-schemas %}\n',
      );
      expect(normalizeKeys(await markdownToDocument(markdown))).toEqual(normalizeKeys(document));
    });
  });

  it('code options as a code tag around the fence', async () => {
    await expectBothRoundTrips(
      '{% code title="index.js" overflow="wrap" lineNumbers="true" %}\n```js\nrun();\n```\n{% endcode %}\n',
      doc({
        ...codeBlock('js', 'run();'),
        data: { syntax: 'js', title: 'index.js', overflow: 'wrap', lineNumbers: true },
      }),
    );
    const [code] = (await markdownToDocument('{% code %}\nnot code\n{% endcode %}\n')).nodes;
    expect(code).toMatchObject({ type: 'paragraph' });
  });

  it('expandables from details and summary', async () => {
    const fragment = (name: string, nodes: DocumentBlock[]) => ({
      object: 'fragment' as const,
      key: newKey(),
      fragment: name,
      type: name,
      nodes,
    });
    await expectBothRoundTrips(
      '<details>\n\n<summary>More <strong>about</strong> it</summary>\n\nHidden **text**.\n\n* a\n\n</details>\n',
      doc({
        ...voidBlock('expandable', {}),
        fragments: [
          fragment('expandable-title', [paragraph(text('More ', leaf('about', 'bold'), ' it'))]),
          fragment('expandable-body', [
            paragraph(text('Hidden ', leaf('text', 'bold'), '.')),
            block('list-unordered', [item(paragraph('a'))]),
          ]),
        ],
      }),
    );
  });

  it('math blocks', async () => {
    await expectBothRoundTrips(
      '$$\nf(x) = x^2\n$$\n\nText.\n',
      doc(voidBlock('math', { formula: 'f(x) = x^2' }), paragraph('Text.')),
    );
    const [math] = (await markdownToDocument('$$E = mc^2$$\n')).nodes;
    expect(math).toMatchObject({ type: 'math', data: { formula: 'E = mc^2' }, isVoid: true });
  });

  it('columns', async () => {
    await expectBothRoundTrips(
      [
        '{% columns %}',
        '{% column %}',
        'Left.',
        '{% endcolumn %}',
        '',
        '{% column %}',
        'Right.',
        '{% endcolumn %}',
        '{% endcolumns %}',
        '',
      ].join('\n'),
      doc(
        block('columns', [
          block('column', [paragraph('Left.')]),
          block('column', [paragraph('Right.')]),
        ]),
      ),
    );
  });

  it('nests tags of the same name', async () => {
    await expectBothRoundTrips(
      [
        '{% tabs %}',
        '{% tab title="Outer" %}',
        '{% tabs %}',
        '{% tab title="Inner" %}',
        'Deep.',
        '{% endtab %}',
        '{% endtabs %}',
        '{% endtab %}',
        '{% endtabs %}',
        '',
      ].join('\n'),
      doc(
        block('tabs', [
          block(
            'tabs-item',
            [block('tabs', [block('tabs-item', [paragraph('Deep.')], { title: 'Inner' })])],
            { title: 'Outer' },
          ),
        ]),
      ),
    );
  });

  it('ignores block tags in fenced code and unclosed ones', async () => {
    const markdown = '````md\n{% tabs %}\n{% endtabs %}\n````\n\n{% stepper %}\n{% step %}\n';
    const document = await markdownToDocument(markdown);
    expect(document.nodes.map((node) => node.type)).toEqual(['code', 'paragraph']);
  });

  it('a mixed document', async () => {
    const markdown = [
      '# Guide',
      '',
      'Intro with **bold** and a [link](https://example.com).',
      '',
      '{% hint style="info" %}',
      'Read _this_ first.',
      '{% endhint %}',
      '',
      '1. step',
      '2. step',
      '',
      '```bash',
      'npm start',
      '```',
      '',
      '| A | B |',
      '| - | - |',
      '| 1 | 2 |',
      '',
      '> quote',
      '',
      '***',
      '',
      '![diagram](d.png)',
      '',
    ].join('\n');
    const document = await expectMarkdownRoundTrip(markdown);
    expect(document.nodes.map((node) => node.type)).toEqual([
      'heading-1',
      'paragraph',
      'hint',
      'list-ordered',
      'code',
      'table',
      'blockquote',
      'divider',
      'images',
    ]);
    await expectDocumentRoundTrip(document);
  });

  it('empty input and empty documents', async () => {
    expect(await markdownToDocument('')).toEqual({ object: 'document', data: {}, nodes: [] });
    expect(await markdownToDocument('  \n\n')).toEqual({ object: 'document', data: {}, nodes: [] });
    expect(await documentToMarkdown(doc())).toBe('');
  });

  it('writes blocks markdown cannot express through the escape hatch, and never throws', async () => {
    const document = doc(
      paragraph('Before'),
      voidBlock('integration', { integration: 'x', block: 'y', props: { a: '-->' } }),
      voidBlock('openapi-operation', { ref: { kind: 'openapi', spec: 's' } }),
      { object: 'block', key: newKey(), type: 'made-up' },
      paragraph('After'),
    );
    const markdown = await documentToMarkdown(document);
    expect(markdown).toBe(
      'Before\n\n' +
        '<!-- bindery:block {"data":{"block":"y","integration":"x","props":{"a":"--\\u003e"}},' +
        '"isVoid":true,"object":"block","type":"integration"} -->\n\n' +
        '<!-- bindery:block {"data":{"ref":{"kind":"openapi","spec":"s"}},"isVoid":true,' +
        '"object":"block","type":"openapi-operation"} -->\n\n' +
        '<!-- bindery:block {"object":"block","type":"made-up"} -->\n\nAfter\n',
    );
    const again = await markdownToDocument(markdown);
    expect(normalizeKeys(again)).toEqual(normalizeKeys(document));
    expect(await documentToMarkdown(again)).toBe(markdown);
  });

  it('keeps unknown inlines through the escape hatch and drops unknown marks', async () => {
    const unknown: DocumentInline = {
      object: 'inline',
      key: newKey(),
      type: 'made-up',
      data: { label: 'Go', ref: { kind: 'url', url: 'https://x.y' } },
      isVoid: true,
    };
    const document = doc(paragraph(text(leaf('key', 'made-up' as MarkType), ' '), unknown));
    const markdown = await documentToMarkdown(document);
    expect(markdown).toBe(
      'key <span data-bindery-inline="{&quot;data&quot;:{&quot;label&quot;:&quot;Go&quot;,' +
        '&quot;ref&quot;:{&quot;kind&quot;:&quot;url&quot;,&quot;url&quot;:&quot;https://x.y&quot;}},' +
        '&quot;isVoid&quot;:true,&quot;object&quot;:&quot;inline&quot;,&quot;type&quot;:' +
        '&quot;made-up&quot;}"></span>\n',
    );
    expect(normalizeKeys(await markdownToDocument(markdown))).toEqual(
      normalizeKeys(doc(paragraph(text('key '), unknown))),
    );
  });

  it('gives every node a fresh key', async () => {
    const document = await markdownToDocument('# a\n\n- b\n');
    const keys: string[] = [];
    const collect = (nodes: DocumentNode[] = []) =>
      nodes.forEach((node) => {
        keys.push(node.key!);
        if (node.object !== 'text') collect(node.nodes);
      });
    collect(document.nodes);
    expect(keys).toHaveLength(6);
    expect(new Set(keys).size).toBe(6);
    keys.forEach((key) => expect(key).toMatch(/^[A-Za-z0-9_-]{8}$/));
  });
});

describe('orderIndex', () => {
  it('sorts as strings in record order', () => {
    const indexes = Array.from({ length: 5000 }, (_, i) => orderIndex(i));
    expect(indexes.slice(0, 3)).toEqual(['a0', 'a1', 'a2']);
    expect(orderIndex(61)).toBe('az');
    expect(orderIndex(62)).toBe('b00');
    expect([...indexes].sort()).toEqual(indexes);
    expect(new Set(indexes).size).toBe(indexes.length);
  });
});
