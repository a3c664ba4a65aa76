import stableStringify from 'json-stable-stringify';
import type { DocumentBlock, DocumentText, JSONDocument } from './document';
import { documentToMarkdown, markdownToDocument } from './markdown';
import { MARKDOWN_SOURCE, markdownSourceOf, withoutMarkdownSource } from './markdown-source';

/** As Git import reads a page. */
const KEEP = { keepSource: true };

/*
 * A page read from markdown Bindery would write otherwise keeps its text: unchanged, it is
 * written back byte for byte; edited, only the blocks of the edit are written anew.
 */

const page = [
  '# Not canonical',
  '',
  'Some *emphasis* and a [link](other.md).',
  '',
  '- one',
  '- two',
  '',
  '---',
  '',
  '|a|b|',
  '|-|-|',
  '|1|2|',
  '',
  'Last paragraph.',
  '',
].join('\n');

function setText(block: DocumentBlock, value: string): DocumentBlock {
  const text: DocumentText = {
    object: 'text',
    leaves: [{ object: 'leaf', text: value, marks: [] }],
  };
  return { ...block, nodes: [text] };
}

describe('the markdown a page was read from', () => {
  it('is kept only when Bindery would write the page otherwise', async () => {
    const canonical = await documentToMarkdown(
      withoutMarkdownSource(await markdownToDocument(page, KEEP)),
    );
    expect(canonical).not.toBe(page);
    expect(markdownSourceOf(await markdownToDocument(page, KEEP))?.markdown).toBe(page);
    expect((await markdownToDocument(canonical, KEEP)).data).toEqual({});
  });

  it('is not kept for markdown that is not a file (comments, pages written through the API)', async () => {
    const document = await markdownToDocument(page);
    expect(document.data).toEqual({});
    expect(await documentToMarkdown(document)).not.toBe(page);
  });

  it('writes an unchanged page back byte for byte, also once stored', async () => {
    const document = await markdownToDocument(page, KEEP);
    expect(await documentToMarkdown(document)).toBe(page);
    const stored = JSON.parse(stableStringify(document)!) as JSONDocument;
    expect(await documentToMarkdown(stored)).toBe(page);
  });

  it('is not written back when the caller asks for the document written afresh', async () => {
    const document = await markdownToDocument(page, KEEP);
    const canonical = await documentToMarkdown(withoutMarkdownSource(document));
    expect(canonical).not.toBe(page);
    expect(await documentToMarkdown(document, { keepSource: false })).toBe(canonical);
  });

  it('writes only the edited block anew', async () => {
    const document = await markdownToDocument(page, KEEP);
    const nodes = document.nodes.slice();
    const last = nodes.length - 1;
    nodes[last] = setText(nodes[last], 'Last paragraph, edited_here.');
    const markdown = await documentToMarkdown({ ...document, nodes });
    expect(markdown).toBe(page.replace('Last paragraph.', 'Last paragraph, edited\\_here.'));
  });

  it('keeps the blocks around an inserted or a deleted one', async () => {
    const document = await markdownToDocument(page, KEEP);
    const inserted = setText(document.nodes[1], 'New _text_');
    const withInsert = [...document.nodes.slice(0, 2), inserted, ...document.nodes.slice(2)];
    expect(await documentToMarkdown({ ...document, nodes: withInsert })).toBe(
      page.replace('\n- one', '\nNew \\_text\\_\n\n- one'),
    );
    const withDelete = document.nodes.filter((_, i) => i !== 3);
    expect(await documentToMarkdown({ ...document, nodes: withDelete })).toBe(
      page.replace('---\n\n', ''),
    );
  });

  it('keeps what comes after the last block with it', async () => {
    const markdown = 'First.\n\nSecond.\n\n[^1]: A note nothing refers to.\n';
    const document = await markdownToDocument(markdown, KEEP);
    const nodes = [setText(document.nodes[0], 'First, edited.'), document.nodes[1]];
    expect(await documentToMarkdown({ ...document, nodes })).toBe(
      'First, edited.\n\nSecond.\n\n[^1]: A note nothing refers to.\n',
    );
  });

  it('writes a block anew when its link points elsewhere', async () => {
    const document = await markdownToDocument(page, KEEP);
    const markdown = await documentToMarkdown(document, {
      refToUrl: (ref) =>
        ref.kind === 'url' && ref.url === 'other.md'
          ? 'moved/other.md'
          : (ref as { url?: string }).url,
    });
    expect(markdown).toBe(
      page.replace(
        'Some *emphasis* and a [link](other.md).',
        'Some _emphasis_ and a [link](moved/other.md).',
      ),
    );
  });

  it('says nothing the document does not: text for other blocks is not written', async () => {
    const document = await markdownToDocument(page, KEEP);
    const forged = {
      ...document,
      data: { [MARKDOWN_SOURCE]: { markdown: 'Something *else* entirely.\n\n- one\n- two\n' } },
    };
    const markdown = await documentToMarkdown(forged);
    expect(markdown).not.toContain('Something');
    // Only the list, which the text does hold as it is, keeps the text's form.
    expect(markdown).toContain('\n- one\n- two\n');
    expect(markdown).toContain('Some _emphasis_ and a [link](other.md).');
  });

  it('is left out when the page is written anew', async () => {
    const document = await markdownToDocument(page, KEEP);
    expect(MARKDOWN_SOURCE in document.data).toBe(true);
    const fresh = withoutMarkdownSource(document);
    expect(MARKDOWN_SOURCE in fresh.data).toBe(false);
    expect(await documentToMarkdown(fresh)).toBe(
      '# Not canonical\n\nSome _emphasis_ and a [link](other.md).\n\n* one\n* two\n\n***\n\n' +
        '| a | b |\n| - | - |\n| 1 | 2 |\n\nLast paragraph.\n',
    );
  });
});
