import type { ContentRef } from '../documents/document';
import type { ReferenceRelation } from './document-references';
import {
  analyzeLinks,
  fileBacklinks,
  isInApp,
  linkStats,
  missingPageIds,
  pageBacklinks,
  pageLinks,
  type LinkAnalysisInput,
  type LinkedPage,
} from './link-analysis';

const APP = 'https://app.bindery.test';

const ref = (r: ContentRef, node?: string, relation: ReferenceRelation = 'reference') => ({
  ref: r,
  relation,
  ...(node ? { node } : {}),
});

function page(
  id: string,
  path: string | null,
  refs: LinkedPage['references'] = [],
  anchors: string[] = [],
): LinkedPage {
  return { id, path, anchors: new Set(anchors), references: refs };
}

function input(pages: LinkedPage[], files: string[] = []): LinkAnalysisInput {
  return {
    spaceId: 'sp1',
    appUrl: APP,
    pages,
    fileIds: new Set(files),
    reusableContentIds: new Set(),
  };
}

describe('analyzeLinks', () => {
  it('classifies page, anchor, file and URL references', () => {
    const usages = analyzeLinks(
      input(
        [
          page('a', 'a', [
            ref({ kind: 'page', page: 'b' }, 'n1'),
            ref({ kind: 'page', page: 'gone' }, 'n2'),
            ref({ kind: 'anchor', anchor: 'intro', page: 'b' }, 'n3'),
            ref({ kind: 'anchor', anchor: 'missing' }, 'n4'),
            ref({ kind: 'file', file: 'f1' }, 'n5'),
            ref({ kind: 'file', file: 'f9' }, 'n6'),
            ref({ kind: 'url', url: 'https://example.com' }, 'n7'),
            ref({ kind: 'url', url: `${APP}/o/x/s/y` }, 'n8'),
            ref({ kind: 'page', page: 'elsewhere', space: 'sp2' }, 'n9'),
            ref({ kind: 'user', user: 'u1' }, 'n10'),
          ]),
          page('b', 'b', [], ['intro']),
        ],
        ['f1'],
      ),
    );
    expect(usages.map((u) => [u.target, u.status])).toEqual([
      [{ kind: 'page', page: 'b', exists: true }, 'ok'],
      [{ kind: 'page', page: 'gone', exists: false }, 'broken'],
      [{ kind: 'anchor', page: 'b', anchor: 'intro', pageExists: true, exists: true }, 'ok'],
      [{ kind: 'anchor', page: 'a', anchor: 'missing', pageExists: true, exists: false }, 'broken'],
      [{ kind: 'file', file: 'f1', exists: true }, 'ok'],
      [{ kind: 'file', file: 'f9', exists: false }, 'broken'],
      [{ kind: 'url', url: 'https://example.com' }, 'ok'],
      [{ kind: 'url', url: `${APP}/o/x/s/y` }, 'in-app'],
      [{ kind: 'other', ref: { kind: 'page', page: 'elsewhere', space: 'sp2' } }, 'ok'],
      [{ kind: 'other', ref: { kind: 'user', user: 'u1' } }, 'ok'],
    ]);
    expect(linkStats(usages)).toEqual({ total: 10, broken: { total: 3 } });
  });

  it('groups references to one target, by relation, listing each location once', () => {
    const usages = analyzeLinks(
      input([
        page('a', 'a', [
          ref({ kind: 'page', page: 'c' }, 'x'),
          ref({ kind: 'page', page: 'c' }, 'x'),
          ref({ kind: 'page', page: 'c' }, 'y'),
          ref({ kind: 'page', page: 'c' }, 'z', 'dependsOn'),
        ]),
        page('b', 'b', [ref({ kind: 'page', page: 'c' })]),
        page('c', 'c'),
      ]),
    );
    expect(usages).toEqual([
      {
        status: 'ok',
        relation: 'reference',
        target: { kind: 'page', page: 'c', exists: true },
        locations: [{ page: 'a', node: 'x' }, { page: 'a', node: 'y' }, { page: 'b' }],
      },
      {
        status: 'ok',
        relation: 'dependsOn',
        target: { kind: 'page', page: 'c', exists: true },
        locations: [{ page: 'a', node: 'z' }],
      },
    ]);
    expect(pageLinks(usages, 'b')).toEqual([{ ...usages[0], locations: [{ page: 'b' }] }]);
    expect(pageLinks(usages, 'c')).toEqual([]);
  });

  it('resolves relative paths written as URLs to pages, and keeps unknown ones as broken pages', () => {
    const usages = analyzeLinks(
      input([
        page(
          'guide',
          'guide',
          [
            ref({ kind: 'url', url: 'install.md' }),
            ref({ kind: 'url', url: './guide/setup/README.md#step-2' }),
            ref({ kind: 'url', url: '/reference' }),
            ref({ kind: 'url', url: '#top' }),
            ref({ kind: 'url', url: 'nowhere.md' }),
            ref({ kind: 'url', url: 'mailto:me@example.com' }),
          ],
          ['top'],
        ),
        page('install', 'install'),
        page('setup', 'guide/setup', [], ['step-2']),
        page('ref', 'reference'),
      ]),
    );
    expect(usages.map((u) => [u.target, u.status])).toEqual([
      [{ kind: 'page', page: 'install', exists: true }, 'ok'],
      [{ kind: 'anchor', page: 'setup', anchor: 'step-2', pageExists: true, exists: true }, 'ok'],
      [{ kind: 'page', page: 'ref', exists: true }, 'ok'],
      [{ kind: 'anchor', page: 'guide', anchor: 'top', pageExists: true, exists: true }, 'ok'],
      [{ kind: 'page', page: 'nowhere.md', exists: false, url: 'nowhere.md' }, 'broken'],
      [{ kind: 'url', url: 'mailto:me@example.com' }, 'ok'],
    ]);
  });

  it('checks reusable content of the space', () => {
    const usages = analyzeLinks(
      input([
        page('a', 'a', [
          ref({ kind: 'reusable-content', reusableContent: 'rc' }, 'k', 'dependsOn'),
        ]),
      ]),
    );
    expect(usages[0]).toMatchObject({ status: 'broken', relation: 'dependsOn' });
  });
});

describe('fileBacklinks', () => {
  it('lists the pages referencing a file, in order, once each', () => {
    const usages = analyzeLinks(
      input(
        [
          page('a', 'a', [
            ref({ kind: 'file', file: 'f1' }, 'x'),
            ref({ kind: 'file', file: 'f1' }, 'y'),
          ]),
          page('b', 'b', [ref({ kind: 'file', file: 'f2' })]),
          page('c', 'c', [ref({ kind: 'file', file: 'f1' })]),
        ],
        ['f1', 'f2'],
      ),
    );
    expect(fileBacklinks(usages, 'f1')).toEqual(['a', 'c']);
    expect(fileBacklinks(usages, 'f3')).toEqual([]);
  });
});

describe('pageBacklinks', () => {
  it('lists the pages linking to a page or an anchor on it, whatever the relation, once each', () => {
    const usages = analyzeLinks(
      input([
        page('a', 'a', [ref({ kind: 'page', page: 'c' }, 'x'), ref({ kind: 'page', page: 'b' })]),
        page('b', 'b', [ref({ kind: 'anchor', page: 'c', anchor: 'top' }, 'y')]),
        page('c', 'c', [ref({ kind: 'anchor', anchor: 'self' })], ['top', 'self']),
        page('d', 'd', [ref({ kind: 'page', page: 'c' }, 'card', 'dependsOn')]),
        page('e', 'e', [ref({ kind: 'url', url: 'c.md' })]),
      ]),
    );
    expect(pageBacklinks(usages, 'c')).toEqual(['a', 'e', 'b', 'c', 'd']);
    expect(pageBacklinks(usages, 'b')).toEqual(['a']);
    expect(pageBacklinks(usages, 'e')).toEqual([]);
  });
});

describe('missingPageIds', () => {
  it('names the missing pages referenced by id, not paths that match no page', () => {
    const usages = analyzeLinks(
      input([
        page('a', 'a', [
          ref({ kind: 'page', page: 'gone' }),
          ref({ kind: 'anchor', page: 'old', anchor: 'x' }),
          ref({ kind: 'anchor', page: 'gone', anchor: 'y' }),
          ref({ kind: 'url', url: 'nowhere.md' }),
          ref({ kind: 'page', page: 'a' }),
        ]),
      ]),
    );
    expect(missingPageIds(usages)).toEqual(['gone', 'old']);
  });
});

describe('linkStats', () => {
  const pages = (refs: LinkedPage['references']) => [
    page('a', 'a', refs),
    page('b', 'b', [ref({ kind: 'page', page: 'gone' }, 'k')]),
  ];

  it('counts, against an earlier revision, the links broken since at new places', () => {
    const before = analyzeLinks(
      input([...pages([ref({ kind: 'page', page: 'gone' }, 'old')]), page('c', 'c')]),
    );
    const after = analyzeLinks(
      input(
        pages([
          // Broken before at the same place: not counted.
          ref({ kind: 'page', page: 'gone' }, 'old'),
          // Was fine: page c is gone now.
          ref({ kind: 'page', page: 'c' }, 'n1'),
          // A new broken link.
          ref({ kind: 'file', file: 'f' }, 'n2'),
        ]),
      ),
    );
    expect(linkStats(after, before)).toEqual({ total: 3, broken: { total: 3, changeRequest: 2 } });
    expect(linkStats(after)).toEqual({ total: 3, broken: { total: 3 } });
    // The same broken target at one more place counts.
    const more = analyzeLinks(
      input(
        pages([
          ref({ kind: 'page', page: 'gone' }, 'old'),
          ref({ kind: 'page', page: 'gone' }, 'new'),
        ]),
      ),
    );
    expect(linkStats(more, before).broken).toEqual({ total: 1, changeRequest: 1 });
    expect(linkStats(before, before).broken).toEqual({ total: 1, changeRequest: 0 });
  });
});

describe('isInApp', () => {
  it('matches the app URL and what is under it, not a longer host', () => {
    expect(isInApp(APP, APP)).toBe(true);
    expect(isInApp(`${APP}/o/1`, `${APP}/`)).toBe(true);
    expect(isInApp(`${APP}#x`, APP)).toBe(true);
    expect(isInApp('https://app.bindery.test.evil.com/x', APP)).toBe(false);
    expect(isInApp('https://example.com', APP)).toBe(false);
  });
});
