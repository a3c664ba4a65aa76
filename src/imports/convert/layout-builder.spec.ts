import { readLayout } from '../../git/layout/layout-reader';
import { LayoutBuilder, slugify, type ImportPage } from './layout-builder';

const page = (
  title: string,
  body = '',
  children: ImportPage[] = [],
  extra: Partial<ImportPage> = {},
): ImportPage => ({
  title,
  body,
  children,
  ...extra,
});

describe('LayoutBuilder', () => {
  it("writes GitBook's layout: README.md first, folders for pages with subpages, SUMMARY.md, assets", async () => {
    const builder = new LayoutBuilder();
    const logo = builder.assetRef(Buffer.from('png'), 'img/My Logo.png');
    expect(builder.assetRef(Buffer.from('png'), 'other.png')).toBe(logo);
    const other = builder.assetRef(Buffer.from('gif'), 'My Logo.png');
    const pages = [
      page('Welcome', `See [setup](${builder.pageRef('setup')}) and ![](${logo}).`, [], {
        source: 'index.md',
        key: 'home',
      }),
      page(
        'Setup',
        `Back [home](${builder.pageRef('home')}), [linux](${builder.pageRef('linux', 'apt')}), [gone](${builder.pageRef('gone')}).`,
        [
          page('Linux', `Up: [setup](${builder.pageRef('setup')}), ![](${other})`, [], {
            key: 'linux',
            source: 'setup/linux.md',
          }),
        ],
        { key: 'setup', description: 'How to set up.' },
      ),
      page('Summary', 'Same slug as the summary file.'),
      page('Setup', 'Same title twice.'),
    ];
    const tree = builder.build(pages);
    const text = (path: string) => tree.files.get(path)?.toString('utf8');
    expect([...tree.files.keys()].sort()).toEqual([
      '.gitbook/assets/My-Logo-2.png',
      '.gitbook/assets/My-Logo.png',
      'README.md',
      'SUMMARY.md',
      'setup-2.md',
      'setup/README.md',
      'setup/linux.md',
      'summary-2.md',
    ]);
    expect(text('README.md')).toBe(
      '# Welcome\n\nSee [setup](setup/) and ![](.gitbook/assets/My-Logo.png).\n',
    );
    expect(text('setup/README.md')).toBe(
      '---\ndescription: How to set up.\n---\n\n# Setup\n\nBack [home](../README.md), [linux](linux.md#apt), [gone](#).\n',
    );
    expect(text('setup/linux.md')).toBe(
      '# Linux\n\nUp: [setup](./), ![](../.gitbook/assets/My-Logo-2.png)\n',
    );
    expect(text('SUMMARY.md')).toBe(
      '# Table of contents\n\n* [Welcome](README.md)\n* [Setup](setup/README.md)\n  * [Linux](setup/linux.md)\n* [Summary](summary-2.md)\n* [Setup](setup-2.md)\n',
    );
    expect([...tree.sources]).toEqual([
      ['README.md', 'index.md'],
      ['setup/linux.md', 'setup/linux.md'],
    ]);

    // Bindery's Git layout reader reads it as the same tree.
    let id = 0;
    const read = await readLayout(tree.files, () => `id${++id}`);
    const shape = (list: typeof read.pages): unknown[] =>
      list.map((p) => ({ title: p.title, description: p.meta.description, pages: shape(p.pages) }));
    expect(shape(read.pages)).toEqual([
      { title: 'Welcome', description: undefined, pages: [] },
      {
        title: 'Setup',
        description: 'How to set up.',
        pages: [{ title: 'Linux', description: undefined, pages: [] }],
      },
      { title: 'Summary', description: undefined, pages: [] },
      { title: 'Setup', description: undefined, pages: [] },
    ]);
    expect(read.orphans).toEqual([]);
    expect(read.files.map((file) => file.path).sort()).toEqual([
      '.gitbook/assets/My-Logo-2.png',
      '.gitbook/assets/My-Logo.png',
    ]);
  });

  it('puts a first page with subpages in its folder (no README.md at the root) and escapes titles', () => {
    const builder = new LayoutBuilder();
    const tree = builder.build([page('Guide *one*', '', [page('[Part] 1')])]);
    expect([...tree.files.keys()].sort()).toEqual([
      'SUMMARY.md',
      'guide-one/README.md',
      'guide-one/part-1.md',
    ]);
    expect(tree.files.get('SUMMARY.md')?.toString()).toBe(
      '# Table of contents\n\n* [Guide \\*one\\*](guide-one/README.md)\n  * [\\[Part\\] 1](guide-one/part-1.md)\n',
    );
    expect(tree.files.get('guide-one/part-1.md')?.toString()).toBe('# \\[Part\\] 1\n');
  });

  it('makes slugs as GitBook does, in every script', () => {
    expect(slugify('Getting Started!')).toBe('getting-started');
    expect(slugify('Größe ändern')).toBe('größe-ändern');
    expect(slugify('快速开始')).toBe('快速开始');
    expect(slugify('🎉')).toBe('page');
  });
});
