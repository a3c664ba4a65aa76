import { keptPath, planMarkdownPaths, type PathPage } from './markdown-paths';

const page = (id: string, slug: string, rest: Partial<PathPage> = {}): PathPage => ({
  id,
  type: 'document',
  slug,
  pages: [],
  ...rest,
});

describe('markdown layout paths', () => {
  it('keeps the file of a hidden page where it is free, places the others by slug', () => {
    const paths = planMarkdownPaths(
      [
        page('home', 'home'),
        page('deep', 'deep', { keep: 'notes/deep.md' }),
        page('notes', 'notes', { pages: [page('other', 'deep')] }),
        page('clash', 'clash', { keep: 'notes/deep.md' }),
        page('top', 'orphan', { keep: 'orphan.md' }),
        page('orphan', 'orphan'),
        page('parent', 'parent', { keep: 'parent.md', pages: [page('child', 'child')] }),
      ],
      [],
    );
    expect(Object.fromEntries(paths.pages)).toEqual({
      home: 'README.md',
      deep: 'notes/deep.md',
      notes: 'notes/README.md',
      other: 'notes/deep-2.md',
      // A path is kept once; a page with subpages is a folder.
      clash: 'clash.md',
      top: 'orphan.md',
      orphan: 'orphan-2.md',
      parent: 'parent/README.md',
      child: 'parent/child.md',
    });
  });

  it('gives no file to link and computed pages (SUMMARY.md lists them)', () => {
    const paths = planMarkdownPaths(
      [
        page('home', 'home'),
        { id: 'api', type: 'computed', pages: [] },
        { id: 'site', type: 'link', pages: [] },
        page('guide', 'guide'),
      ],
      [],
    );
    expect(Object.fromEntries(paths.pages)).toEqual({ home: 'README.md', guide: 'guide.md' });
  });

  it('keeps the repository path of hidden pages, relative to the synced directory', () => {
    const git = (path: string) => ({ hidden: true, git: { oid: 'x', path } });
    expect(keptPath(git('notes/deep.md'))).toBe('notes/deep.md');
    expect(keptPath(git('docs/notes/deep.md'), 'docs')).toBe('notes/deep.md');
    expect(keptPath(git('other/deep.md'), 'docs')).toBeUndefined();
    expect(keptPath({ git: { oid: 'x', path: 'deep.md' } })).toBeUndefined();
    expect(keptPath({ hidden: true })).toBeUndefined();
    for (const path of ['guide/README.md', 'SUMMARY.md', '.gitbook/assets/a.md', 'a.txt']) {
      expect(keptPath(git(path))).toBeUndefined();
    }
  });
});
