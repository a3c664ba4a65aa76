import { markdownToDocument } from '../../content-engine/documents/markdown';
import type { DocumentNode } from '../../content-engine/documents/document';
import { htmlToMarkdown } from './html-to-markdown';
import { convertMarkdown } from './markdown-files';

/** Block types of a document, each with the types of its children. */
async function blocks(markdown: string): Promise<[string, string[]][]> {
  const document = await markdownToDocument(markdown);
  const typeOf = (node: DocumentNode) => ('type' in node ? node.type : node.object);
  return document.nodes.map((node) => [node.type, (node.nodes ?? []).map(typeOf)]);
}

// What the converters write is read by Bindery's markdown reader as GitBook's blocks.
describe("the converters' markdown in GitBook's dialect", () => {
  it('HTML: lists, tables, hints, code, figures, code titles, embeds', async () => {
    const markdown = htmlToMarkdown(
      '<h2>T</h2><ul><li>a</li><li>b<ul><li>c</li></ul></li></ul>' +
        '<table><tr><th>A</th><th>B</th></tr><tr><td>1<br>2</td><td><a href="x.md">l</a></td></tr></table>' +
        '<div class="admonition note"><p>Hi</p><ul><li>x</li></ul></div><pre><code class="language-js">a</code></pre>' +
        '<figure><img src="a.png" alt="A"><figcaption>Cap</figcaption></figure><pre data-title="t.sh">x</pre>' +
        '<iframe src="https://youtube.com/embed/x"></iframe><p>line<br>two</p>',
    );
    expect(await blocks(markdown)).toEqual([
      ['heading-2', ['text']],
      ['list-unordered', ['list-item', 'list-item']],
      ['table', []],
      ['hint', ['paragraph', 'list-unordered']],
      ['code', ['code-line']],
      ['images', ['image']],
      ['code', ['code-line']],
      ['embed', []],
      ['paragraph', ['text']],
    ]);
  });

  it('markdown: tabs, admonitions, code titles', async () => {
    const { body } = convertMarkdown(
      [
        '=== "A"',
        '    x',
        '',
        '=== "B"',
        '    y',
        '',
        '!!! note "T"',
        '    body',
        '',
        '```js title="a.js"',
        'x',
        '```',
      ].join('\n'),
    );
    expect(await blocks(body)).toEqual([
      ['tabs', ['tabs-item', 'tabs-item']],
      ['hint', ['paragraph', 'paragraph']],
      ['code', ['code-line']],
    ]);
  });
});
