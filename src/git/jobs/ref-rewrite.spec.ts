import type { ContentRef, JSONDocument } from '../../content-engine/documents/document';
import { refToRelativeUrl, resolveRelativeRefs } from './ref-rewrite';

describe('relative links of the Git layout', () => {
  const pagePaths = new Map([
    ['guides/writing.md', 'pW'],
    ['guides/README.md', 'pG'],
    ['guides/publishing.md', 'pP'],
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
        { object: 'inline', type: 'link', data: { ref: { kind: 'url', url: '#here' } } },
        { object: 'inline', type: 'link', data: { ref: { kind: 'url', url: '/pages/gone#x' } } },
        { object: 'inline', type: 'link', data: { ref: { kind: 'url', url: '/users/u1' } } },
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
      { kind: 'anchor', anchor: 'here', page: 'pP' },
      { kind: 'anchor', anchor: 'x', page: 'gone' },
      { kind: 'user', user: 'u1' },
    ]);
  });

  it('writes page and file refs as paths relative to the page', () => {
    const paths = {
      pages: new Map([
        ['pW', 'guides/writing.md'],
        ['pR', 'README.md'],
        ['pP', 'guides/publishing.md'],
      ]),
      files: new Map([['f1', '.gitbook/assets/logo one.png']]),
    };
    const from = 'guides/publishing.md';
    const url = (ref: ContentRef) => refToRelativeUrl(ref, from, 'pP', paths);
    expect(url({ kind: 'page', page: 'pW' })).toBe('writing.md');
    expect(url({ kind: 'page', page: 'pR' })).toBe('../README.md');
    expect(url({ kind: 'file', file: 'f1' })).toBe('../.gitbook/assets/logo%20one.png');
    expect(url({ kind: 'anchor', anchor: 'x' })).toBe('#x');
    expect(url({ kind: 'anchor', anchor: 'x', page: 'pP' })).toBe('#x');
    expect(url({ kind: 'anchor', anchor: 'x', page: 'pW' })).toBe('writing.md#x');
    // Refs without a path in the layout are written with their identifiers.
    expect(url({ kind: 'page', page: 'other', space: 's' })).toBe('/spaces/s/pages/other');
    expect(url({ kind: 'page', page: 'gone' })).toBe('/pages/gone');
    expect(url({ kind: 'user', user: 'u1' })).toBe('/users/u1');
  });
});
