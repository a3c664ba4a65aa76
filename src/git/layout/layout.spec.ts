import { dump } from 'js-yaml';
import { planMarkdownPaths, type MarkdownPaths } from '../../content-engine/refs/markdown-paths';
import { GITBOOK_YAML, type LayoutFile, type LayoutPage } from './layout';
import { readLayout, type ReadLayoutPage } from './layout-reader';
import { renderPage, renderSummary } from './layout-writer';
import { summaryPages } from '../sync/page-files';

const planPaths = planMarkdownPaths;

/**
 * The files of a space never synced, as an export writes them (pages carry their markdown;
 * SUMMARY.md leaves out what the repository did not list).
 */
function renderLayout(
  pages: readonly LayoutPage[],
  files: readonly LayoutFile[],
  paths: MarkdownPaths,
): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  out.set(
    GITBOOK_YAML,
    Buffer.from(dump({ root: './', structure: { readme: 'README.md', summary: 'SUMMARY.md' } })),
  );
  out.set('SUMMARY.md', Buffer.from(renderSummary(summaryPages(pages), paths)));
  const visit = (list: readonly LayoutPage[]) =>
    list.forEach((page) => {
      const path = paths.pages.get(page.id);
      if (path) out.set(path, Buffer.from(renderPage(page, path, paths)));
      visit(page.pages);
    });
  visit(pages);
  for (const file of files) out.set(paths.files.get(file.id)!, file.data);
  return out;
}

let next = 0;
const newId = () => `id${++next}`;

const page = (
  id: string,
  title: string,
  slug: string,
  rest: Partial<LayoutPage> = {},
): LayoutPage => ({ id, type: 'document', title, slug, meta: {}, pages: [], ...rest });

/** What survives a trip through the repository: no ids, no paths, not how files were written. */
function shape(pages: ReadLayoutPage[] | LayoutPage[]): unknown[] {
  return pages.map((p) => ({
    type: p.type,
    title: p.title,
    ...(p.type !== 'link' ? { slug: p.slug } : { href: p.href }),
    meta: Object.fromEntries(Object.entries(p.meta).filter(([key]) => key !== 'gitForm')),
    markdown: p.markdown?.trim(),
    pages: shape(p.pages),
  }));
}

describe('Git Sync layout', () => {
  const pages: LayoutPage[] = [
    page('a', 'Getting started', 'getting-started', {
      markdown: 'Hello **world**.\n',
      meta: {
        description: 'Start here',
        icon: 'rocket',
        hidden: true,
        cover: { ref: { kind: 'file', file: 'f2' }, yPos: 12 },
        layout: { width: 'wide', title: false, coverSize: 'hero' },
      },
    }),
    page('b', 'Guides', 'guides', {
      markdown: 'All guides.\n',
      pages: [
        page('c', 'Writing', 'writing', { markdown: '# A heading of the body\n\nText.\n' }),
        page('d', 'Empty', 'empty'),
      ],
    }),
    page('e', 'Readme', 'readme', { markdown: 'Clashes with README.md.\n' }),
    {
      id: 'g',
      type: 'group',
      title: 'Reference',
      slug: 'reference',
      meta: {},
      pages: [
        page('h', 'API [v2]', 'api'),
        { id: 'l', type: 'link', title: 'Site', href: 'https://example.com/', meta: {}, pages: [] },
      ],
    },
  ];
  const files: LayoutFile[] = [
    { id: 'f1', name: 'logo.png', data: Buffer.from('png') },
    { id: 'f2', name: 'logo.png', data: Buffer.from('other') },
  ];

  it('places pages by slug, the first leaf page as README.md, files under .gitbook/assets', async () => {
    const paths = planPaths(pages, files);
    expect(Object.fromEntries(paths.pages)).toEqual({
      a: 'README.md',
      b: 'guides/README.md',
      c: 'guides/writing.md',
      d: 'guides/empty.md',
      e: 'readme-2.md',
      h: 'reference/api.md',
    });
    expect(Object.fromEntries(paths.files)).toEqual({
      f1: '.gitbook/assets/logo.png',
      f2: '.gitbook/assets/logo-2.png',
    });
  });

  it('reads back what it writes', async () => {
    const written = renderLayout(pages, files, planPaths(pages, files));
    expect(written.get('README.md')!.toString()).toBe(
      '---\ndescription: Start here\nhidden: true\nicon: rocket\n' +
        'cover: .gitbook/assets/logo-2.png\ncoverY: 12\n' +
        'layout:\n  width: wide\n  cover:\n    size: hero\n  title:\n    visible: false\n' +
        '---\n\n' +
        '# Getting started\n\nHello **world**.\n',
    );
    const read = await readLayout(written, newId);
    // Files get new ids on reading: the cover points at the file now at the same path.
    const cover = read.files.find((f) => f.path === '.gitbook/assets/logo-2.png')!;
    expect(read.pages[0].meta.cover).toEqual({ ref: { kind: 'file', file: cover.id }, yPos: 12 });
    read.pages[0].meta.cover = pages[0].meta.cover;
    // The root README.md says no slug: the tree gives it its title's (assignSlugs).
    expect(read.pages[0].slug).toBeUndefined();
    read.pages[0].slug = 'getting-started';
    expect(shape(read.pages)).toEqual(shape(pages));
    expect(read.files.map((f) => [f.path, f.name, f.data.toString()])).toEqual([
      ['.gitbook/assets/logo.png', 'logo.png', 'png'],
      ['.gitbook/assets/logo-2.png', 'logo-2.png', 'other'],
    ]);
  });

  it('reads the folder tree when there is no SUMMARY.md, under the root of .gitbook.yaml', async () => {
    const tree = new Map(
      Object.entries({
        '.gitbook.yaml': 'root: ./docs/\n',
        'README.md': '# Not content\n',
        'docs/README.md': '# Home\n\nWelcome.\n',
        'docs/b-second.md': 'No title.\n',
        'docs/a_first.md': '---\nslug: ignored-not-root\ntitle: From frontmatter\n---\nBody.\n',
        'docs/nested/deeper/page.md': '# Deep\n',
        'docs/.hidden/x.md': '# Hidden\n',
        'docs/.gitbook/assets/pic.png': 'bytes',
      }).map(([k, v]) => [k, Buffer.from(v)]),
    );
    const read = await readLayout(tree, newId);
    expect(read.root).toBe('docs');
    expect(shape(read.pages)).toEqual([
      {
        type: 'document',
        title: 'Home',
        slug: undefined,
        meta: {},
        markdown: 'Welcome.',
        pages: [],
      },
      {
        type: 'document',
        title: 'From frontmatter',
        slug: 'ignored-not-root',
        meta: {},
        markdown: 'Body.',
        pages: [],
      },
      {
        type: 'document',
        title: 'B second',
        slug: 'b-second',
        meta: {},
        markdown: 'No title.',
        pages: [],
      },
      {
        type: 'document',
        title: 'Nested',
        slug: 'nested',
        meta: {},
        markdown: undefined,
        pages: [
          {
            type: 'document',
            title: 'Deeper',
            slug: 'deeper',
            meta: {},
            markdown: undefined,
            pages: [
              {
                type: 'document',
                title: 'Deep',
                slug: 'page',
                meta: {},
                markdown: undefined,
                pages: [],
              },
            ],
          },
        ],
      },
    ]);
    expect(read.files.map((f) => f.path)).toEqual(['.gitbook/assets/pic.png']);
  });

  it("takes a SUMMARY.md title that is not the heading's as the page's linkTitle", async () => {
    const files = {
      'SUMMARY.md': '# Table of contents\n\n* [Title in summary](page.md)\n',
      'page.md': '# Another heading\n\nText.\n',
    };
    const tree = new Map(Object.entries(files).map(([k, v]) => [k, Buffer.from(v)]));
    const layout = await readLayout(tree, newId);
    const [only] = layout.pages;
    expect(only).toMatchObject({
      title: 'Another heading',
      slug: 'page',
      meta: { linkTitle: 'Title in summary' },
    });
    expect(only.markdown).toBe('Text.\n');
    const paths = { pages: new Map([[only.id, 'page.md']]), files: new Map() };
    const written = renderLayout(layout.pages, [], paths);
    expect(written.get('page.md')!.toString()).toBe(files['page.md']);
    expect(written.get('SUMMARY.md')!.toString()).toBe(files['SUMMARY.md']);
  });

  describe('markdown files SUMMARY.md does not list', () => {
    const read = (files: Record<string, string>) =>
      readLayout(new Map(Object.entries(files).map(([k, v]) => [k, Buffer.from(v)])), newId);
    const outline = (list: ReadLayoutPage[]): unknown[] =>
      list.map((page) => ({
        path: page.path,
        ...(page.meta.hidden ? { hidden: true } : {}),
        ...(page.pages.length > 0 ? { pages: outline(page.pages) } : {}),
      }));

    it('become hidden pages under the page of their folder README, else at the end of the top level', async () => {
      const layout = await read({
        'SUMMARY.md':
          '* [Home](README.md)\n* [Guide](guide/README.md)\n  * [Setup](guide/setup.md)\n',
        'README.md': '# Home\n',
        'guide/README.md': '# Guide\n',
        'guide/setup.md': '# Setup\n',
        'guide/extra.md': '---\ndescription: More\n---\n\n# Extra\n\nExtra text.\n',
        'zeta.md': '# Zeta\n',
        'orphan.md': '# Orphan\n\nAlone.\n',
        'notes/deep.md': '# Deep\n',
        '.gitbook/assets/readme.md': 'an asset',
        '.github/PULL_REQUEST_TEMPLATE.md': 'not a page',
      });
      expect(outline(layout.pages)).toEqual([
        { path: 'README.md' },
        {
          path: 'guide/README.md',
          pages: [{ path: 'guide/setup.md' }, { path: 'guide/extra.md', hidden: true }],
        },
        { path: 'notes/deep.md', hidden: true },
        { path: 'orphan.md', hidden: true },
        { path: 'zeta.md', hidden: true },
      ]);
      expect(layout.orphans).toEqual(['guide/extra.md', 'notes/deep.md', 'orphan.md', 'zeta.md']);
      const extra = layout.pages[1].pages[1];
      expect(extra).toMatchObject({
        title: 'Extra',
        slug: 'extra',
        meta: { description: 'More', hidden: true },
      });
      expect(extra.markdown).toBe('Extra text.\n');
      expect(layout.files.map((file) => file.path)).toEqual(['.gitbook/assets/readme.md']);
    });

    it('places an unlisted folder README before the files of its folder', async () => {
      const layout = await read({
        'SUMMARY.md': '* [Home](README.md)\n',
        'README.md': '# Home\n',
        'api/b.md': '# B\n',
        'api/README.md': '# API\n',
        'api/a.md': '# A\n',
      });
      expect(outline(layout.pages)).toEqual([
        { path: 'README.md' },
        {
          path: 'api/README.md',
          hidden: true,
          pages: [
            { path: 'api/a.md', hidden: true },
            { path: 'api/b.md', hidden: true },
          ],
        },
      ]);
    });

    it('are imported once, and not at all without SUMMARY.md (every file is a page)', async () => {
      const listed = await read({
        'SUMMARY.md': '* [Home](README.md)\n* [Page](page.md)\n',
        'README.md': '# Home\n',
        'page.md': '# Page\n',
      });
      expect(listed.orphans).toEqual([]);
      expect(outline(listed.pages)).toEqual([{ path: 'README.md' }, { path: 'page.md' }]);
      const folders = await read({ 'README.md': '# Home\n', 'page.md': '# Page\n' });
      expect(folders.orphans).toEqual([]);
    });

    it('are written back to their paths', async () => {
      const layout = await read({
        'SUMMARY.md': '* [Home](README.md)\n* [Guide](guide/README.md)\n',
        'README.md': '# Home\n',
        'guide/README.md': '# Guide\n',
        'guide/extra.md': '# Extra\n\nExtra text.\n',
        'orphan.md': '# Orphan\n\nAlone.\n',
      });
      const paths = planPaths(layout.pages, []);
      expect([...paths.pages.values()]).toEqual([
        'README.md',
        'guide/README.md',
        'guide/extra.md',
        'orphan.md',
      ]);
      const written = renderLayout(layout.pages, [], paths);
      // As they were, and still out of SUMMARY.md: reading the export back gives the same tree.
      expect(written.get('orphan.md')!.toString()).toBe('# Orphan\n\nAlone.\n');
      expect(written.get('guide/extra.md')!.toString()).toBe('# Extra\n\nExtra text.\n');
      expect(written.get('SUMMARY.md')!.toString()).toBe(
        '# Table of contents\n\n* [Home](README.md)\n* [Guide](guide/README.md)\n',
      );
      const again = await read(Object.fromEntries([...written].map(([k, v]) => [k, v.toString()])));
      expect(again.orphans).toEqual(['guide/extra.md', 'orphan.md']);
      expect(outline(again.pages)).toEqual(outline(layout.pages));
    });
  });

  describe("GitBook's own files", () => {
    const read = (files: Record<string, string>) =>
      readLayout(new Map(Object.entries(files).map(([k, v]) => [k, Buffer.from(v)])), newId);
    /** Each page's file and SUMMARY.md as an export writes them, where they were read. */
    const writeBack = (layout: Awaited<ReturnType<typeof read>>) => {
      const paths = { pages: new Map<string, string>(), files: new Map<string, string>() };
      const index = (list: ReadLayoutPage[]) =>
        list.forEach((p) => {
          if (p.path) paths.pages.set(p.id, p.path);
          index(p.pages);
        });
      index(layout.pages);
      for (const file of layout.files) paths.files.set(file.id, file.path);
      return renderLayout(layout.pages, layout.files, paths);
    };

    it('come back byte for byte, and only what GitBook would write otherwise is kept', async () => {
      const files = {
        'SUMMARY.md': [
          '# Table of contents',
          '',
          '## Getting started',
          '',
          '* [Welcome](README.md)',
          '* [Install \\_ setup](install/README.md)',
          '  * [On macOS](install/macos.md "The Mac way")',
          '  * [Jump to Linux](install/macos.md#linux)',
          '',
          '## Reference',
          '',
          '* [API](api/README.md)',
          '  * ```yaml',
          '    props:',
          '      models: true',
          '    type: builtin:openapi',
          '    dependencies:',
          '      spec:',
          '        ref:',
          '          kind: openapi',
          '          spec: petstore',
          '    ```',
          '* [Status](https://status.example.com)',
          '',
        ].join('\n'),
        'README.md':
          '---\ndescription: >-\n  A description long enough to be folded on more than one line by the YAML\n' +
          '  writer of GitBook.\nhidden: true\nicon: house\ncover: .gitbook/assets/cover.png\ncoverY: 0\n' +
          'coverHeight: 139\nlayout:\n  width: default\n  cover:\n    visible: true\n    size: hero\n' +
          '  title:\n    visible: true\n  tags:\n    visible: false\n  actions:\n    visible: true\n' +
          '---\n\n# Welcome\n\nSee [install](install/) and [Linux](install/macos.md#linux).\n',
        'install/README.md': '# Install \\_ setup\n\nStart [here](./) or [go back](../).\n',
        'install/macos.md':
          '# macOS\n\n## Linux\n\nSee [the cover](../.gitbook/assets/cover.png).\n',
        'api/README.md': '# API\n',
        '.gitbook/assets/cover.png': 'png',
      };
      const layout = await read(files);
      const forms = (list: ReadLayoutPage[]): unknown[] =>
        list.flatMap((p) => [
          ...(p.meta.gitForm ? [[p.path ?? p.title, p.meta.gitForm]] : []),
          ...forms(p.pages),
        ]);
      expect(forms(layout.pages)).toEqual([['install/macos.md', { summaryTitle: 'The Mac way' }]]);
      const [group] = layout.pages;
      const install = group.pages[1];
      expect(install.pages[0].meta.linkTitle).toBe('On macOS');
      expect(install.pages[1]).toMatchObject({
        type: 'link',
        title: 'Jump to Linux',
        linkTo: { path: 'install/macos.md', anchor: 'linux' },
      });
      const api = layout.pages[1].pages[0];
      expect(api.pages[0]).toMatchObject({
        type: 'computed',
        title: 'petstore',
        meta: {
          computed: {
            type: 'builtin:openapi',
            props: { models: true },
            dependencies: { spec: { ref: { kind: 'openapi', spec: 'petstore' } } },
          },
        },
      });
      // The link page to a page, as the import makes it (ids given), for the export.
      install.pages[1].target = { page: install.pages[0].id, anchor: 'linux' };
      const written = writeBack(layout);
      for (const [path, text] of Object.entries(files)) {
        if (path.endsWith('.md'))
          expect([path, written.get(path)!.toString()]).toEqual([path, text]);
      }
    });

    it('keep the forms of hand-written files, and write what changed in GitBook form', async () => {
      const files = {
        'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Guide](guide/README.md)\n',
        'README.md':
          '---\nicon: house\ndescription: Home\ntitle: Kept as written\n---\n# Home\n\n\nSee [the guide](guide/README.md).\n\n',
        'guide/README.md': 'No heading: the title is in SUMMARY.md. Back [home](../README.md#top).',
      };
      const layout = await read(files);
      const [home, guide] = layout.pages;
      expect(home.meta.gitForm).toEqual({
        head: '---\nicon: house\ndescription: Home\ntitle: Kept as written\n---\n# Home\n\n\n',
        tail: '\n\n',
        links: ['guide/README.md'],
      });
      expect(guide).toMatchObject({
        title: 'Guide',
        meta: { gitForm: { head: '', tail: '', links: ['../README.md#top'] } },
      });
      let written = writeBack(layout);
      expect(written.get('README.md')!.toString()).toBe(files['README.md']);
      expect(written.get('guide/README.md')!.toString()).toBe(files['guide/README.md']);
      home.meta.description = 'Home, edited';
      home.meta.noIndex = true;
      written = writeBack(layout);
      expect(written.get('README.md')!.toString()).toBe(
        '---\nnoIndex: true\nicon: house\ndescription: Home, edited\ntitle: Kept as written\n---\n# Home\n\n\nSee [the guide](guide/README.md).\n\n',
      );
    });

    it('keep a hand-written SUMMARY.md: escapes as written, entries without a link over their pages', async () => {
      const summary = [
        '# Table of contents',
        '',
        '* [Introduction](README.md)',
        '* [Install by RPM \\(Red Hat\\)](install/rpm.md)',
        '* [monitor_agent](input/monitor_agent.md)',
        '* Obsolete Installation',
        '  * Agent v4 (EOL) Installation',
        '    * [Install by RPM v4 \\(Red Hat\\)](install/rpm-v4.md)',
        '',
      ].join('\n');
      const files = {
        'SUMMARY.md': summary,
        'README.md': '# Introduction\n',
        'install/rpm.md': '# Install by RPM (Red Hat)\n',
        'input/monitor_agent.md': '# monitor_agent\n',
        'install/rpm-v4.md': '# Install by RPM v4 (Red Hat)\n',
      };
      const layout = await read(files);
      const [, rpm, monitor, obsolete] = layout.pages;
      expect(rpm.meta.gitForm).toEqual({ summaryText: 'Install by RPM \\(Red Hat\\)' });
      expect(monitor.meta.gitForm).toEqual({ summaryText: 'monitor_agent' });
      expect(obsolete).toMatchObject({
        type: 'document',
        title: 'Obsolete Installation',
        slug: 'obsolete-installation',
        meta: { gitForm: { linkless: true } },
        pages: [
          {
            type: 'document',
            title: 'Agent v4 (EOL) Installation',
            meta: { gitForm: { linkless: true } },
            pages: [{ path: 'install/rpm-v4.md', title: 'Install by RPM v4 (Red Hat)' }],
          },
        ],
      });
      expect(obsolete.path).toBeUndefined();
      const written = writeBack(layout);
      for (const [path, text] of Object.entries(files)) {
        expect([path, written.get(path)!.toString()]).toEqual([path, text]);
      }
      // A title changed in Bindery is written as GitBook writes it; an entry given a file, linked.
      rpm.meta.linkTitle = 'Install by RPM (RHEL)';
      const paths = {
        pages: new Map([
          [layout.pages[0].id, 'README.md'],
          [rpm.id, 'install/rpm.md'],
          [monitor.id, 'input/monitor_agent.md'],
          [obsolete.id, 'obsolete/README.md'],
          [obsolete.pages[0].pages[0].id, 'install/rpm-v4.md'],
        ]),
        files: new Map<string, string>(),
      };
      expect(renderSummary(layout.pages, paths).split('\n')).toEqual([
        '# Table of contents',
        '',
        '* [Introduction](README.md)',
        '* [Install by RPM (RHEL)](install/rpm.md)',
        '* [monitor_agent](input/monitor_agent.md)',
        '* [Obsolete Installation](obsolete/README.md)',
        '  * Agent v4 (EOL) Installation',
        '    * [Install by RPM v4 \\(Red Hat\\)](install/rpm-v4.md)',
        '',
      ]);
    });
  });
});
