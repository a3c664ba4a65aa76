import type { DocumentBlock, JSONDocument } from '../../content-engine/documents/document';
import { markdownToDocument } from '../../content-engine/documents/markdown';
import {
  imageFiles,
  layoutDocument,
  type LayoutBlock,
  type LayoutContext,
} from './document-layout';

const ctx: LayoutContext = {
  pageTitle: (id) => ({ pgInstall: 'Install' })[id],
};

async function layoutOf(markdown: string): Promise<LayoutBlock[]> {
  return layoutDocument(await markdownToDocument(markdown), ctx);
}

const doc = (...nodes: DocumentBlock[]): JSONDocument => ({ object: 'document', data: {}, nodes });
const text = (value: string) => ({
  object: 'text' as const,
  leaves: [{ object: 'leaf' as const, text: value, marks: [] }],
});
const paragraph = (value: string): DocumentBlock => ({
  object: 'block',
  type: 'paragraph',
  nodes: [text(value)],
});

describe('layoutDocument', () => {
  it('lays out headings and paragraphs with their bold, italic, code and struck text', async () => {
    expect(
      await layoutOf(
        '# Title\n\n## Sub\n\n### Deep\n\nPlain **bold** *it* `code` ~~gone~~ ***both***',
      ),
    ).toEqual([
      { kind: 'heading', level: 1, runs: [{ text: 'Title' }] },
      { kind: 'heading', level: 2, runs: [{ text: 'Sub' }] },
      { kind: 'heading', level: 3, runs: [{ text: 'Deep' }] },
      {
        kind: 'paragraph',
        runs: [
          { text: 'Plain ' },
          { text: 'bold', bold: true },
          { text: ' ' },
          { text: 'it', italic: true },
          { text: ' ' },
          { text: 'code', code: true },
          { text: ' ' },
          { text: 'gone', strike: true },
          { text: ' ' },
          { text: 'both', bold: true, italic: true },
        ],
      },
    ]);
  });

  it('links text to absolute URLs only', async () => {
    expect(await layoutOf('[site](https://example.com/a) and [rel](../other.md)')).toEqual([
      {
        kind: 'paragraph',
        runs: [{ text: 'site', link: 'https://example.com/a' }, { text: ' and rel' }],
      },
    ]);
  });

  it('lays out bulleted, numbered (from their start) and task lists, nested', async () => {
    expect(
      await layoutOf('- one\n  - inner\n- two\n\n3. three\n4. four\n\n- [x] done\n- [ ] todo'),
    ).toEqual([
      {
        kind: 'list',
        style: 'bullet',
        start: 1,
        items: [
          {
            blocks: [
              { kind: 'paragraph', runs: [{ text: 'one' }] },
              {
                kind: 'list',
                style: 'bullet',
                start: 1,
                items: [{ blocks: [{ kind: 'paragraph', runs: [{ text: 'inner' }] }] }],
              },
            ],
          },
          { blocks: [{ kind: 'paragraph', runs: [{ text: 'two' }] }] },
        ],
      },
      {
        kind: 'list',
        style: 'number',
        start: 3,
        items: [
          { blocks: [{ kind: 'paragraph', runs: [{ text: 'three' }] }] },
          { blocks: [{ kind: 'paragraph', runs: [{ text: 'four' }] }] },
        ],
      },
      {
        kind: 'list',
        style: 'task',
        start: 1,
        items: [
          { checked: true, blocks: [{ kind: 'paragraph', runs: [{ text: 'done' }] }] },
          { checked: false, blocks: [{ kind: 'paragraph', runs: [{ text: 'todo' }] }] },
        ],
      },
    ]);
  });

  it('keeps the lines of code blocks, with their title', async () => {
    expect(
      await layoutOf(
        '```js\nconst a = 1;\n\n  return a;\n```\n\n{% code title="run.sh" %}\n```sh\nls\n```\n{% endcode %}',
      ),
    ).toEqual([
      { kind: 'code', lines: ['const a = 1;', '', '  return a;'] },
      { kind: 'code', title: 'run.sh', lines: ['ls'] },
    ]);
  });

  it('lays out quotes, hints with their style, dividers and tables in record order', async () => {
    const blocks = await layoutOf(
      [
        '> quoted',
        '{% hint style="warning" %}\nCareful\n{% endhint %}',
        '---',
        '| Name | Size |\n| --- | ---: |\n| a | 1 |\n| b | 2 |',
      ].join('\n\n'),
    );
    expect(blocks).toEqual([
      { kind: 'quote', blocks: [{ kind: 'paragraph', runs: [{ text: 'quoted' }] }] },
      {
        kind: 'hint',
        style: 'warning',
        blocks: [{ kind: 'paragraph', runs: [{ text: 'Careful' }] }],
      },
      { kind: 'divider' },
      {
        kind: 'table',
        header: ['Name', 'Size'],
        rows: [
          ['a', '1'],
          ['b', '2'],
        ],
      },
    ]);
  });

  it('prints rich table cells from their fragments, checkboxes and selects by label', () => {
    const table: DocumentBlock = {
      object: 'block',
      type: 'table',
      isVoid: true,
      data: {
        view: { type: 'grid', columns: ['c1', 'c2', 'c3'], hideHeader: true },
        definition: {
          c1: { id: 'c1', title: 'Rich', type: 'text' },
          c2: { id: 'c2', title: 'Done', type: 'checkbox' },
          c3: {
            id: 'c3',
            title: 'Tag',
            type: 'select',
            options: [{ value: 'v1', label: 'First' }],
          },
        },
        records: {
          r2: { orderIndex: 'b', values: { c1: 'plain', c2: false, c3: [] } },
          r1: { orderIndex: 'a', values: { c1: 'frag1', c2: true, c3: ['v1', 'v2'] } },
        },
      },
      fragments: [{ object: 'fragment', fragment: 'frag1', nodes: [paragraph('from fragment')] }],
    };
    expect(layoutDocument(doc(table), ctx)).toEqual([
      {
        kind: 'table',
        header: null,
        rows: [
          ['from fragment', 'Yes', 'First, v2'],
          ['plain', 'No', ''],
        ],
      },
    ]);
  });

  it('shows file images with their caption or alt text, and names the images it needs', () => {
    const image = (ref: object, extra: Partial<DocumentBlock> = {}): DocumentBlock => ({
      object: 'block',
      type: 'image',
      isVoid: true,
      data: { ref, alt: 'alt text' },
      ...extra,
    });
    const blocks = layoutDocument(
      doc(
        {
          object: 'block',
          type: 'images',
          nodes: [
            image(
              { kind: 'file', file: 'f1' },
              {
                fragments: [
                  { object: 'fragment', fragment: 'caption', nodes: [paragraph('A caption')] },
                ],
              },
            ),
            image({ kind: 'url', url: 'https://example.com/x.png' }),
          ],
        },
        {
          object: 'block',
          type: 'hint',
          data: { style: 'info' },
          nodes: [
            { object: 'block', type: 'images', nodes: [image({ kind: 'file', file: 'f2' })] },
          ],
        },
        {
          object: 'block',
          type: 'file',
          isVoid: true,
          data: { ref: { kind: 'file', file: 'f3' } },
        },
      ),
      ctx,
    );
    expect(blocks).toEqual([
      { kind: 'image', file: 'f1', caption: 'A caption' },
      { kind: 'image', url: 'https://example.com/x.png', caption: 'alt text' },
      { kind: 'hint', style: 'info', blocks: [{ kind: 'image', file: 'f2', caption: 'alt text' }] },
      { kind: 'file', file: 'f3' },
    ]);
    expect(imageFiles(blocks)).toEqual(['f1', 'f2']);
  });

  it('opens tabs and expandables, numbers steps, and names pages that cards point to', () => {
    const blocks = layoutDocument(
      doc(
        {
          object: 'block',
          type: 'tabs',
          nodes: [
            {
              object: 'block',
              type: 'tabs-item',
              data: { title: 'macOS' },
              nodes: [paragraph('brew install')],
            },
          ],
        },
        {
          object: 'block',
          type: 'expandable',
          isVoid: true,
          fragments: [
            { object: 'fragment', fragment: 'expandable-title', nodes: [paragraph('More')] },
            { object: 'fragment', fragment: 'expandable-body', nodes: [paragraph('Details')] },
          ],
        },
        {
          object: 'block',
          type: 'stepper',
          nodes: [{ object: 'block', type: 'stepper-step', nodes: [paragraph('First')] }],
        },
        {
          object: 'block',
          type: 'content-ref',
          isVoid: true,
          data: { ref: { kind: 'page', page: 'pgInstall' } },
        },
        {
          object: 'block',
          type: 'openapi-operation',
          isVoid: true,
          data: { ref: { kind: 'openapi', spec: 's' }, path: '/x', method: 'get' },
        },
      ),
      ctx,
    );
    expect(blocks).toEqual([
      {
        kind: 'section',
        title: [{ text: 'macOS' }],
        blocks: [{ kind: 'paragraph', runs: [{ text: 'brew install' }] }],
      },
      {
        kind: 'section',
        title: [{ text: 'More' }],
        blocks: [{ kind: 'paragraph', runs: [{ text: 'Details' }] }],
      },
      {
        kind: 'list',
        style: 'number',
        start: 1,
        items: [{ blocks: [{ kind: 'paragraph', runs: [{ text: 'First' }] }] }],
      },
      { kind: 'paragraph', runs: [{ text: 'Install' }] },
    ]);
  });

  it('prints the text of inlines and emoji, and tolerates loose nodes', () => {
    const blocks = layoutDocument(
      doc({
        object: 'block',
        type: 'paragraph',
        nodes: [
          { object: 'inline', type: 'emoji', isVoid: true, data: { code: '1f680' } },
          { object: 'inline', type: 'inline-math', isVoid: true, data: { formula: 'x^2' } },
          { object: 'inline', type: 'button', isVoid: true, data: { label: 'Go' } },
          { object: 'inline', type: 'emoji', isVoid: true, data: { code: 'not hex' } },
          { object: 'inline', type: 'annotation', nodes: [text(' noted')] },
        ],
      }),
      ctx,
    );
    expect(blocks).toEqual([
      {
        kind: 'paragraph',
        runs: [{ text: '🚀' }, { text: 'x^2', code: true, math: true }, { text: 'Go noted' }],
      },
    ]);
  });
});
