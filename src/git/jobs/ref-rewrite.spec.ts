import type { ContentRef, JSONDocument } from '../../content-engine/documents/document';
import { markdownToDocument } from '../../content-engine/documents/markdown';
import { writtenOtherwise, writtenTargets } from '../layout/link-targets';
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
        { object: 'inline', type: 'link', data: { ref: { kind: 'url', url: '' } } },
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
      { kind: 'url', url: '' },
      // `#here` names no page, as GitBook's anchor of the page itself.
      { kind: 'anchor', anchor: 'here' },
      { kind: 'anchor', anchor: 'x', page: 'gone' },
      { kind: 'user', user: 'u1' },
    ]);
  });

  it("resolves an image's dark source and the links of a table's cells (card targets, covers)", async () => {
    const markdown = [
      '<picture><source srcset="../.gitbook/assets/logo%20one.png" media="(prefers-color-scheme: dark)"><img src="https://example.com/light.png" alt=""></picture>',
      '',
      '<table data-view="cards"><thead><tr><th></th><th data-hidden data-card-target data-type="content-ref"></th><th data-hidden data-card-cover data-type="files"></th></tr></thead><tbody><tr><td><strong>Write</strong></td><td><a href="writing.md">writing.md</a></td><td><a href="../.gitbook/assets/logo%20one.png">logo one.png</a></td></tr></tbody></table>',
      '',
    ].join('\n');
    const document = resolveRelativeRefs(
      await markdownToDocument(markdown),
      'guides/publishing.md',
      pagePaths,
      filePaths,
    );
    const [images, table] = document.nodes;
    expect(images.nodes?.[0]).toMatchObject({
      data: {
        ref: { kind: 'url', url: 'https://example.com/light.png' },
        refDark: { kind: 'file', file: 'f1' },
      },
    });
    const [record] = Object.values(table.data!.records as Record<string, { values: object }>);
    // GitBook's forms: a content-ref column holds a ref, a files column the files' ids.
    expect(Object.values(record.values)).toEqual(
      expect.arrayContaining([{ kind: 'page', page: 'pW' }, ['f1']]),
    );
  });

  it("writes page and file refs as paths relative to the page, in GitBook's forms", () => {
    const paths = {
      pages: new Map([
        ['pW', 'guides/writing.md'],
        ['pR', 'README.md'],
        ['pP', 'guides/publishing.md'],
        ['pG', 'guides/README.md'],
      ]),
      files: new Map([['f1', '.gitbook/assets/logo one.png']]),
    };
    const from = 'guides/publishing.md';
    const url = (ref: ContentRef) => refToRelativeUrl(ref, from, 'pP', paths);
    expect(url({ kind: 'page', page: 'pW' })).toBe('writing.md');
    // A folder's README.md is the folder; paths are not percent-encoded.
    expect(url({ kind: 'page', page: 'pR' })).toBe('../');
    expect(url({ kind: 'page', page: 'pG' })).toBe('./');
    expect(url({ kind: 'file', file: 'f1' })).toBe('../.gitbook/assets/logo one.png');
    expect(url({ kind: 'anchor', anchor: 'x' })).toBe('#x');
    expect(url({ kind: 'anchor', anchor: 'x', page: 'pP' })).toBe('publishing.md#x');
    expect(url({ kind: 'anchor', anchor: 'x', page: 'pW' })).toBe('writing.md#x');
    expect(url({ kind: 'anchor', anchor: 'x', page: 'pR' })).toBe('../#x');
    // Refs without a path in the layout are written with their identifiers.
    expect(url({ kind: 'page', page: 'other', space: 's' })).toBe('/spaces/s/pages/other');
    expect(url({ kind: 'page', page: 'gone' })).toBe('/pages/gone');
    expect(url({ kind: 'user', user: 'u1' })).toBe('/users/u1');
  });

  it('writes the targets a file wrote otherwise as it wrote them, the anchor from the ref', () => {
    const paths = {
      pages: new Map([
        ['pW', 'guides/writing.md'],
        ['pR', 'README.md'],
        ['pP', 'guides/publishing.md'],
        ['pG', 'guides/README.md'],
      ]),
      files: new Map([['f1', '.gitbook/assets/logo one.png']]),
    };
    const from = 'guides/publishing.md';
    const known = (path: string) =>
      [...paths.pages.values(), ...paths.files.values()].includes(path);
    const written = writtenTargets(
      from,
      ['README.md', '../README.md#setup', '..#other', '../.gitbook/assets/logo%20one.png'],
      known,
    );
    const url = (ref: ContentRef) => refToRelativeUrl(ref, from, 'pP', paths, written);
    expect(url({ kind: 'page', page: 'pG' })).toBe('README.md');
    expect(url({ kind: 'anchor', anchor: 'more', page: 'pG' })).toBe('README.md#more');
    expect(url({ kind: 'anchor', anchor: 'setup', page: 'pR' })).toBe('../README.md#setup');
    expect(url({ kind: 'anchor', anchor: 'other', page: 'pR' })).toBe('..#other');
    expect(url({ kind: 'page', page: 'pR' })).toBe('../README.md');
    expect(url({ kind: 'file', file: 'f1' })).toBe('../.gitbook/assets/logo%20one.png');
    expect(url({ kind: 'page', page: 'pW' })).toBe('writing.md');
  });

  it('finds the links a file writes otherwise than GitBook would', () => {
    const known = (path: string) =>
      ['guides/README.md', 'guides/writing.md', 'README.md', '.gitbook/assets/a_b.png'].includes(
        path,
      );
    const markdown = [
      '[a](./writing.md) [b](writing.md) [c](<README.md#x>) [d](./) [e](../)',
      '![](../.gitbook/assets/a\\_b.png) {% content-ref url="../README.md" %}',
      '[f](https://example.com/README.md) [g](#self) [h](missing.md)',
      '```',
      '[i](../README.md#in-code)',
      '```',
    ].join('\n');
    expect(writtenOtherwise('guides/publishing.md', markdown, known)).toEqual([
      './writing.md',
      'README.md#x',
      '../README.md',
    ]);
  });
});
