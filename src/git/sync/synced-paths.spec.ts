import type { LayoutPage } from '../layout/layout';
import { planSyncedPaths } from './synced-paths';

const page = (
  id: string,
  slug: string,
  pages: LayoutPage[] = [],
  type: LayoutPage['type'] = 'document',
): LayoutPage => ({
  id,
  type,
  title: slug,
  slug,
  meta: {},
  pages,
});

describe('planSyncedPaths', () => {
  it("keeps every path the repository has, and puts new pages beside their parent's file", () => {
    const pages = [
      page('intro', 'introduction'),
      page('install', 'install', [page('linux', 'linux'), page('mac', 'on-macos')]),
      page('guides', 'guides', [page('writing', 'writing'), page('new', 'reviewing')], 'group'),
      page('faq', 'faq', [page('first', 'first')]),
    ];
    const paths = planSyncedPaths(
      pages,
      [
        { id: 'img', name: 'diagram.png' },
        { id: 'new-img', name: 'diagram.png' },
      ],
      {
        pages: new Map([
          ['intro', 'intro.md'],
          ['install', 'install.md'],
          ['linux', 'install/linux.md'],
          ['writing', 'guides/writing.md'],
        ]),
        files: new Map([['img', '.gitbook/assets/diagram.png']]),
      },
      new Set(['install/On-MacOS.md']),
    );
    expect(Object.fromEntries(paths.pages)).toEqual({
      intro: 'intro.md',
      install: 'install.md',
      linux: 'install/linux.md',
      mac: 'install/on-macos-2.md',
      writing: 'guides/writing.md',
      new: 'guides/reviewing.md',
      faq: 'faq/README.md',
      first: 'faq/first.md',
    });
    expect(Object.fromEntries(paths.files)).toEqual({
      img: '.gitbook/assets/diagram.png',
      'new-img': '.gitbook/assets/diagram-2.png',
    });
  });

  it('gives a repository never synced GitBook’s default layout', () => {
    const paths = planSyncedPaths(
      [page('a', 'start'), page('b', 'guide', [page('c', 'one')])],
      [],
      {
        pages: new Map(),
        files: new Map(),
      },
    );
    expect(Object.fromEntries(paths.pages)).toEqual({
      a: 'README.md',
      b: 'guide/README.md',
      c: 'guide/one.md',
    });
  });

  it('never names a new top-level page README or SUMMARY', () => {
    const paths = planSyncedPaths(
      [page('a', 'start'), page('r', 'readme'), page('s', 'summary')],
      [],
      {
        pages: new Map([['a', 'start.md']]),
        files: new Map(),
      },
    );
    expect(paths.pages.get('r')).toBe('readme-2.md');
    expect(paths.pages.get('s')).toBe('summary-2.md');
  });
});
