import type { JSONDocument } from '../../content-engine/documents/document';
import { refToRelativeUrl, resolveRelativeRefs } from './ref-rewrite';

describe('relative links of the Git layout', () => {
  const pagePaths = new Map([
    ['guides/writing.md', 'pW'],
    ['guides/README.md', 'pG'],
  ]);
  const filePaths = new Map([['.gitbook/assets/logo one.png', 'f1']]);

  it('turns relative links into page, anchor and file refs', () => {
    const doc = {
      object: 'document',
      data: {},
      nodes: [
        {
          object: 'block',
          type: 'image',
          data: { ref: { kind: 'url', url: '../.gitbook/assets/logo%20one.png' } },
        },
        { object: 'inline', type: 'link', data: { ref: { kind: 'url', url: 'writing.md#setup' } } },
        { object: 'inline', type: 'link', data: { ref: { kind: 'url', url: './' } } },
        {
          object: 'inline',
          type: 'link',
          data: { ref: { kind: 'url', url: 'https://example.com/a.md' } },
        },
        { object: 'inline', type: 'link', data: { ref: { kind: 'url', url: 'missing.md' } } },
      ],
    } as unknown as JSONDocument;
    const refs = (
      resolveRelativeRefs(doc, 'guides/publishing.md', pagePaths, filePaths).nodes as unknown as {
        data: { ref: unknown };
      }[]
    ).map((node) => node.data.ref);
    expect(refs).toEqual([
      { kind: 'file', file: 'f1' },
      { kind: 'anchor', anchor: 'setup', page: 'pW' },
      { kind: 'page', page: 'pG' },
      { kind: 'url', url: 'https://example.com/a.md' },
      { kind: 'url', url: 'missing.md' },
    ]);
  });

  it('writes page and file refs as paths relative to the page', () => {
    const pages = new Map([
      ['pW', 'guides/writing.md'],
      ['pR', 'README.md'],
    ]);
    const files = new Map([['f1', '.gitbook/assets/logo one.png']]);
    const from = 'guides/publishing.md';
    expect(refToRelativeUrl({ kind: 'page', page: 'pW' }, from, pages, files)).toBe('writing.md');
    expect(refToRelativeUrl({ kind: 'page', page: 'pR' }, from, pages, files)).toBe('../README.md');
    expect(refToRelativeUrl({ kind: 'file', file: 'f1' }, from, pages, files)).toBe(
      '../.gitbook/assets/logo%20one.png',
    );
    expect(refToRelativeUrl({ kind: 'anchor', anchor: 'x' }, from, pages, files)).toBe('#x');
    expect(
      refToRelativeUrl({ kind: 'page', page: 'other', space: 's' }, from, pages, files),
    ).toBeUndefined();
  });
});
