import type { ContentRef, JSONDocument } from '../documents/document';
import { planMarkdownPaths } from './markdown-paths';
import { refToMarkdownUrl, resolveStableRefs, stableRefOf, stableUrl } from './markdown-refs';

describe('content refs in markdown', () => {
  const paths = planMarkdownPaths(
    [
      { id: 'pHome', type: 'document', slug: 'home', pages: [] },
      {
        id: 'pInstall',
        type: 'document',
        slug: 'install',
        pages: [{ id: 'pLinux', type: 'document', slug: 'linux', pages: [] }],
      },
      {
        id: 'gGuide',
        type: 'group',
        slug: 'guide',
        pages: [{ id: 'pIntro', type: 'document', slug: 'intro', pages: [] }],
      },
    ],
    [{ id: 'fLogo', name: 'logo.png' }],
  );

  it('plans GitBook layout paths', () => {
    expect([...paths.pages]).toEqual([
      ['pHome', 'README.md'],
      ['pInstall', 'install/README.md'],
      ['pLinux', 'install/linux.md'],
      ['pIntro', 'guide/intro.md'],
    ]);
    expect(paths.files.get('fLogo')).toBe('.gitbook/assets/logo.png');
  });

  it('writes refs relative to the page, and those without a path in the stable form', () => {
    const from = { refs: 'relative' as const, pageId: 'pIntro', paths, from: 'guide/intro.md' };
    const url = (ref: ContentRef) => refToMarkdownUrl(ref, from);
    expect(url({ kind: 'anchor', anchor: 'step-2', page: 'pInstall' })).toBe(
      '../install/README.md#step-2',
    );
    expect(url({ kind: 'page', page: 'pHome' })).toBe('../README.md');
    expect(url({ kind: 'file', file: 'fLogo' })).toBe('../.gitbook/assets/logo.png');
    expect(url({ kind: 'anchor', anchor: 'here', page: 'pIntro' })).toBe('#here');
    expect(url({ kind: 'page', page: 'pGone' })).toBe('/pages/pGone');
    expect(url({ kind: 'url', url: 'https://example.com/a b' })).toBe('https://example.com/a b');
  });

  it.each<ContentRef>([
    { kind: 'page', page: 'p1' },
    { kind: 'page', page: 'p1', space: 's1' },
    { kind: 'anchor', anchor: 'a b', page: 'p1' },
    { kind: 'anchor', anchor: 'x', page: 'p1', space: 's1' },
    { kind: 'anchor', anchor: 'x', space: 's1' },
    { kind: 'file', file: 'f1' },
    { kind: 'reusable-content', reusableContent: 'r1' },
    { kind: 'reusable-content', reusableContent: 'r1', space: 's1' },
    { kind: 'user', user: 'u1' },
    { kind: 'space', space: 's1' },
    { kind: 'collection', collection: 'c1' },
    { kind: 'openapi', spec: 'petstore' },
  ])('names %j by its identifiers in the stable form, and reads it back', (ref) => {
    const url = stableUrl(ref);
    expect(url.startsWith('/')).toBe(true);
    expect(stableRefOf(url)).toEqual(ref);
  });

  it('reads no ref from other targets', () => {
    expect(stableRefOf('/files/f1#x')).toBeUndefined();
    expect(stableRefOf('/pages/a/b')).toBeUndefined();
    expect(stableRefOf('install/README.md')).toBeUndefined();
  });

  it('resolves stable forms in a document written where no page is the base (comments)', () => {
    const link = (url: string) => ({
      object: 'inline',
      type: 'link',
      data: { ref: { kind: 'url', url } },
      nodes: [],
    });
    const document = {
      object: 'document' as const,
      data: {},
      nodes: [
        {
          object: 'block' as const,
          type: 'paragraph',
          nodes: [link('/pages/p1#a'), link('/users/u1'), link('other.md'), link('https://x.y/')],
        },
      ],
    };
    const refs = (
      resolveStableRefs(document as unknown as JSONDocument).nodes[0].nodes as unknown as {
        data: { ref: unknown };
      }[]
    ).map((node) => node.data.ref);
    expect(refs).toEqual([
      { kind: 'anchor', anchor: 'a', page: 'p1' },
      { kind: 'user', user: 'u1' },
      { kind: 'url', url: 'other.md' },
      { kind: 'url', url: 'https://x.y/' },
    ]);
  });
});
