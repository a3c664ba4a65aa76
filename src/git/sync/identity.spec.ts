import type { PageNode } from '../../content-engine/tree/format';
import type { SyncedEntry } from '../entities/git-sync-state.entity';
import type { ReadLayoutPage } from '../layout/layout-reader';
import { assignPageIdentities, dice, fileIdentities, lineCounts } from './identity';

const read = (
  path: string | undefined,
  title: string,
  markdown = '',
  extra = {},
): ReadLayoutPage => ({
  id: `new-${title}`,
  type: 'document',
  title,
  meta: {},
  markdown,
  ...(path ? { path } : {}),
  pages: [],
  ...extra,
});

const node = (id: string, title: string, git?: string, type: PageNode['type'] = 'document') => ({
  node: {
    id,
    type,
    meta: { title, ...(git ? { git: { oid: 'x', path: git } } : {}) },
    document: null,
    pages: [],
  } as PageNode,
});

const entry = (id: string, oid: string, kind: SyncedEntry['kind'] = 'page'): SyncedEntry => ({
  kind,
  id,
  oid,
});

const body = (n: number, changed = 0) =>
  Array.from({ length: n }, (_, i) =>
    i < changed ? `Changed line ${i}.` : `Line ${i} of the page.`,
  ).join('\n\n');

describe('page identities', () => {
  const base = new Map([
    ['A', node('A', 'Intro', 'intro.md')],
    ['B', node('B', 'Install', 'install.md')],
    ['C', node('C', 'Old', 'old.md')],
    ['G', node('G', 'Guides', undefined, 'group')],
  ]);
  const texts: Record<string, string> = { A: 'Welcome.', B: 'Run it.', C: body(10) };
  const previous = new Map([
    ['intro.md', entry('A', 'oa')],
    ['install.md', entry('B', 'ob')],
    ['old.md', entry('C', 'oc')],
  ]);
  const input = (oids: Record<string, string>) => ({
    oids: new Map(Object.entries(oids)),
    previous,
    base,
    textOf: (id: string) => Promise.resolve(texts[id] ?? ''),
  });

  it('keeps the id of a path; a file moved as is keeps its id too', async () => {
    const pages = [read('intro.md', 'Intro'), read('setup/install.md', 'Install', 'Run it.')];
    const moves = await assignPageIdentities(
      pages,
      input({ 'intro.md': 'oa2', 'setup/install.md': 'ob' }),
    );
    expect(pages.map((page) => page.id)).toEqual(['A', 'B']);
    expect(moves).toEqual([{ from: 'install.md', to: 'setup/install.md', id: 'B' }]);
  });

  it('finds a renamed and edited file by similarity, above half its lines alike', async () => {
    const similar = read('new.md', 'New', body(10, 3));
    const different = read('other.md', 'Other', body(10, 6));
    await assignPageIdentities([similar], input({ 'new.md': 'on' }));
    await assignPageIdentities([different], input({ 'other.md': 'oo' }));
    expect(similar.id).toBe('C');
    expect(different.id).toBe('new-Other');
  });

  it('gives a vanished page to the most similar new file only', async () => {
    const close = read('a.md', 'A', body(10, 1));
    const far = read('b.md', 'B', body(10, 4));
    await assignPageIdentities([far, close], input({ 'a.md': '1', 'b.md': '2' }));
    expect([close.id, far.id]).toEqual(['C', 'new-B']);
  });

  it('matches pages without a file by type and title', async () => {
    const group = read(undefined, 'Guides', '', { type: 'group' });
    const other = read(undefined, 'Reference', '', { type: 'group' });
    await assignPageIdentities([group, other], input({}));
    expect([group.id, other.id]).toEqual(['G', 'new-Reference']);
  });

  it('never gives one id twice', async () => {
    const pages = [read('intro.md', 'Intro'), read('copy.md', 'Copy', 'Welcome.')];
    await assignPageIdentities(pages, input({ 'intro.md': 'oa', 'copy.md': 'oa' }));
    expect(pages.map((page) => page.id)).toEqual(['A', 'new-Copy']);
  });
});

describe('file identities', () => {
  it('by path, then by blob among the files that vanished', () => {
    const previous = new Map([
      ['.gitbook/assets/a.png', entry('FA', 'blobA', 'file')],
      ['.gitbook/assets/b.png', entry('FB', 'blobB', 'file')],
    ]);
    const ids = fileIdentities(
      ['.gitbook/assets/a.png', '.gitbook/assets/img/b.png', '.gitbook/assets/c.png'],
      new Map([
        ['.gitbook/assets/a.png', 'blobA2'],
        ['.gitbook/assets/img/b.png', 'blobB'],
        ['.gitbook/assets/c.png', 'blobC'],
      ]),
      previous,
    );
    expect([...ids]).toEqual([
      ['.gitbook/assets/a.png', 'FA'],
      ['.gitbook/assets/img/b.png', 'FB'],
    ]);
  });
});

describe('dice', () => {
  it('counts lines with their multiplicity, blank lines aside', () => {
    expect(dice(lineCounts('a\n\nb\nb'), lineCounts('b\na\n'))).toBeCloseTo((2 * 2) / 5);
    expect(dice(lineCounts(''), lineCounts(''))).toBe(1);
  });
});
