import type { DocumentBlock, JSONDocument } from '../../content-engine/documents/document';
import { commit } from '../../content-engine/tree/commit';
import { MemoryObjectStore } from '../../content-engine/tree/object-store';
import { emptyRoot } from '../../content-engine/writes/content-writer';
import { LinkResolver, resolveDocumentLinks, type ResolveLink } from './markdown-links';

/**
 * Untitled (pFirst)
 * Guides (pGuides) > Intro (pIntro), Setup (pSetup) > Options (pOptions)
 * Empty (pEmpty)
 * and the file fLogo.
 */
async function tree() {
  const store = new MemoryObjectStore();
  const file = await store.put('file', {
    id: 'fLogo',
    name: 'logo.png',
    contentType: 'image/png',
    size: 1,
    blob: 'ab',
  });
  const root = await commit(store, await store.put('tree', emptyRoot()), [
    { operation: 'insert_page', id: 'pFirst', meta: { title: 'Untitled' } },
    { operation: 'insert_page', id: 'pGuides', meta: { title: 'Guides' } },
    { operation: 'insert_page', id: 'pIntro', meta: { title: 'Intro' }, into: 'pGuides' },
    { operation: 'insert_page', id: 'pSetup', meta: { title: 'Setup' }, into: 'pGuides' },
    { operation: 'insert_page', id: 'pOptions', meta: { title: 'Options' }, into: 'pSetup' },
    { operation: 'insert_page', id: 'pEmpty', meta: { title: 'Empty' } },
    { operation: 'insert_file', file },
  ]);
  return { store, root };
}

describe('LinkResolver', () => {
  let fromIntro: ResolveLink;
  let fromGuides: ResolveLink;

  beforeAll(async () => {
    const { store, root } = await tree();
    const resolver = new LinkResolver(store, root, {
      pages: new Map([
        ['intro', 'pIntro'],
        ['both', 'pEmpty'],
        ['deleted', 'pGone'],
      ]),
      files: new Map([
        ['logo', 'fLogo'],
        ['both', 'fLogo'],
      ]),
    });
    fromIntro = (await resolver.forPage('pIntro'))!;
    fromGuides = (await resolver.forPage('pGuides'))!;
  });

  const page = (id: string) => ({ kind: 'page', page: id });

  it.each([
    ['./intro.md', page('pIntro')],
    ['intro.md', page('pIntro')],
    ['./intro', page('pIntro')],
    ['./both', { kind: 'file', file: 'fLogo' }],
    ['./both.md', page('pEmpty')],
    ['./logo', { kind: 'file', file: 'fLogo' }],
    ['./deleted.md', 'keep'],
    ['/pages/pSetup', page('pSetup')],
    ['/pages/pSetup#install', { kind: 'anchor', anchor: 'install', page: 'pSetup' }],
    ['/pages/guides/setup', page('pSetup')],
    ['/pages/guides/setup.md', page('pSetup')],
    ['/pages/guides/setup/README.md', page('pSetup')],
    ['/pages/guides/setup/options.md', page('pOptions')],
    ['/pages/README.md', page('pFirst')],
    ['/pages/nowhere', page('nowhere')],
    ['./setup.md', page('pSetup')],
    ['setup/options.md', page('pOptions')],
    ['./setup/README.md?x=1', page('pSetup')],
    ['../empty.md', page('pEmpty')],
    ['../README.md', page('pFirst')],
    ['../../x.md', 'keep'],
    ['../guides', page('pGuides')],
    ['#top', { kind: 'anchor', anchor: 'top', page: 'pIntro' }],
    ['/files/fLogo', { kind: 'file', file: 'fLogo' }],
    ['/files/fNope', { kind: 'file', file: 'fNope' }],
    ['/elsewhere', 'keep'],
    ['', 'keep'],
    ['https://example.com/a.md', 'keep'],
    ['mailto:someone@example.com', 'keep'],
    ['//cdn.example.com/x.png', 'keep'],
    ['data:image/png;base64,AAAA', null],
    ['./Setup%20Guide.md', 'keep'],
    // GitBook's layout, as format=markdown reads write it.
    ['../.gitbook/assets/logo.png', { kind: 'file', file: 'fLogo' }],
    ['setup/README.md#flags', { kind: 'anchor', anchor: 'flags', page: 'pSetup' }],
    ['../untitled.md', page('pFirst')],
    ['../README.md#top', { kind: 'anchor', anchor: 'top', page: 'pFirst' }],
    // Stable forms name their target, there or not.
    ['/pages/pGone#x', { kind: 'anchor', anchor: 'x', page: 'pGone' }],
    ['/spaces/s2/pages/p9', { kind: 'page', page: 'p9', space: 's2' }],
    ['/users/u1', { kind: 'user', user: 'u1' }],
  ])('from guides/intro.md, %j is %j', async (url, expected) => {
    expect(await fromIntro(url)).toEqual(expected);
  });

  it('reads links of a page with subpages from its own folder (guides/README.md)', async () => {
    expect(await fromGuides('./setup.md')).toEqual(page('pSetup'));
    expect(await fromGuides('./README.md')).toEqual(page('pGuides'));
    expect(await fromGuides('../empty.md')).toEqual(page('pEmpty'));
  });

  it('has nothing for a page that is not in the tree', async () => {
    const { store, root } = await tree();
    const resolver = new LinkResolver(store, root, { pages: new Map(), files: new Map() });
    expect(await resolver.forPage('pGone')).toBeUndefined();
  });
});

describe('resolveDocumentLinks', () => {
  const text = (value: string) => ({
    object: 'text' as const,
    leaves: [{ object: 'leaf' as const, text: value, marks: [] }],
  });
  const link = (url: string, label: string) => ({
    object: 'inline' as const,
    key: `l-${label}`,
    type: 'link',
    data: { ref: { kind: 'url', url } },
    nodes: [text(label)],
  });
  const block = (type: string, extra: Partial<DocumentBlock>): DocumentBlock => ({
    object: 'block',
    key: `b-${type}`,
    type,
    data: {},
    ...extra,
  });
  const resolve: ResolveLink = (url) =>
    Promise.resolve(
      url === 'ok.md' ? { kind: 'page', page: 'p1' } : url.startsWith('https:') ? 'keep' : null,
    );

  it('resolves refs and turns unresolved ones into text, in blocks, inlines and fragments', async () => {
    const document: JSONDocument = {
      object: 'document',
      data: {},
      nodes: [
        block('paragraph', {
          nodes: [text('See '), link('ok.md', 'this'), text(', '), link('gone.md', 'that')],
        }),
        block('images', {
          nodes: [
            block('image', {
              isVoid: true,
              data: { ref: { kind: 'url', url: 'gone.png' }, alt: 'A' },
            }),
            block('image', {
              isVoid: true,
              data: { ref: { kind: 'url', url: 'https://x/y.png' } },
            }),
          ],
        }),
        {
          ...block('images', {}),
          key: 'b-only',
          nodes: [block('image', { data: { ref: { kind: 'url', url: 'gone.png' }, alt: 'Lost' } })],
        },
        block('content-ref', { isVoid: true, data: { ref: { kind: 'url', url: 'gone.md' } } }),
        block('file', { isVoid: true, data: { ref: { kind: 'url', url: 'ok.md' } } }),
        block('expandable', {
          fragments: [
            {
              object: 'fragment',
              fragment: 'expandable-body',
              nodes: [
                block('paragraph', {
                  nodes: [
                    {
                      object: 'inline',
                      type: 'inline-image',
                      isVoid: true,
                      data: { ref: { kind: 'url', url: 'gone.png' }, alt: 'pic' },
                    },
                  ],
                }),
              ],
            },
          ],
        }),
      ],
    };
    const { document: resolved, changed } = await resolveDocumentLinks(document, resolve);
    expect(changed).toBe(true);
    expect(resolved.nodes[0].nodes).toEqual([
      text('See '),
      { ...link('ok.md', 'this'), data: { ref: { kind: 'page', page: 'p1' } } },
      text(', '),
      text('that'),
    ]);
    expect(resolved.nodes[1].nodes).toEqual([document.nodes[1].nodes![1]]);
    expect(resolved.nodes[2]).toEqual({
      object: 'block',
      key: 'b-only',
      type: 'paragraph',
      data: {},
      nodes: [text('Lost')],
    });
    expect(resolved.nodes[3]).toEqual({
      object: 'block',
      key: 'b-content-ref',
      type: 'paragraph',
      data: {},
      nodes: [text('gone.md')],
    });
    expect(resolved.nodes[4].data).toEqual({ ref: { kind: 'page', page: 'p1' } });
    expect(resolved.nodes[5].fragments![0].nodes[0].nodes).toEqual([text('pic')]);
    expect(document.nodes[0].nodes![1]).toEqual(link('ok.md', 'this'));
  });

  it('resolves the refs of other nodes (drawings, mentions, dark images), and keeps unresolved ones', async () => {
    const document: JSONDocument = {
      object: 'document',
      data: {},
      nodes: [
        block('drawing', { isVoid: true, data: { ref: { kind: 'url', url: 'ok.md' } } }),
        block('images', {
          nodes: [
            block('image', {
              isVoid: true,
              data: {
                ref: { kind: 'url', url: 'https://x/y.png' },
                refDark: { kind: 'url', url: 'ok.md' },
              },
            }),
          ],
        }),
        block('paragraph', {
          nodes: [
            {
              object: 'inline',
              type: 'mention',
              isVoid: true,
              data: { ref: { kind: 'url', url: 'gone.md' } },
            },
          ],
        }),
      ],
    };
    const { document: resolved } = await resolveDocumentLinks(document, resolve);
    expect(resolved.nodes[0].data).toEqual({ ref: { kind: 'page', page: 'p1' } });
    expect((resolved.nodes[1].nodes![0] as DocumentBlock).data).toEqual({
      ref: { kind: 'url', url: 'https://x/y.png' },
      refDark: { kind: 'page', page: 'p1' },
    });
    expect(resolved.nodes[2].nodes![0]).toEqual(document.nodes[2].nodes![0]);
  });

  it('answers the same document when every link is kept', async () => {
    const document: JSONDocument = {
      object: 'document',
      data: {},
      nodes: [block('paragraph', { nodes: [link('https://example.com', 'out')] })],
    };
    const result = await resolveDocumentLinks(document, resolve);
    expect(result).toEqual({ document, changed: false });
    expect(result.document).toBe(document);
  });
});
