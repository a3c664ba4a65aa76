import { frontmatterToMeta, metaToFrontmatter } from './frontmatter-meta';

const files = {
  pathOf: (id: string) => (id === 'f1' ? '.gitbook/assets/cover.png' : undefined),
  idAt: (path: string) => (path === '.gitbook/assets/cover.png' ? 'f1' : undefined),
};

describe('page metadata in frontmatter', () => {
  it("reads GitBook's frontmatter", () => {
    const frontmatter = {
      description: 'About it',
      icon: 'book',
      hidden: true,
      cover: '../.gitbook/assets/cover.png',
      coverY: -40,
      layout: {
        width: 'wide',
        cover: { visible: true, size: 'hero' },
        title: { visible: true },
        description: { visible: false },
        tableOfContents: { visible: true },
        outline: { visible: false },
        pagination: { visible: true },
      },
    };
    expect(frontmatterToMeta(frontmatter, 'guides/page.md', files)).toEqual({
      description: 'About it',
      icon: 'book',
      hidden: true,
      cover: { ref: { kind: 'file', file: 'f1' }, yPos: -40 },
      layout: {
        width: 'wide',
        cover: true,
        coverSize: 'hero',
        title: true,
        description: false,
        tableOfContents: true,
        outline: false,
        pagination: true,
      },
    });
  });

  it('leaves out values of the wrong type and unknown files', () => {
    const frontmatter = {
      description: 42,
      emoji: '',
      hidden: 'yes',
      noIndex: false,
      cover: 'missing.png',
      layout: { width: 'huge', title: 'no', outline: { visible: 'x' } },
      unknown: 'kept out',
    };
    expect(frontmatterToMeta(frontmatter, 'page.md', files)).toEqual({ noIndex: false });
    expect(frontmatterToMeta({ cover: 'https://example.com/c.png' }, 'page.md', files)).toEqual({
      cover: { ref: { kind: 'url', url: 'https://example.com/c.png' }, yPos: 0 },
    });
  });

  it('writes what it reads', () => {
    const meta = {
      emoji: '1f600',
      noRobotsIndex: true,
      cover: { ref: { kind: 'file', file: 'f1' }, yPos: 0 },
      layout: { metadata: false, cover: false },
      computed: { ignored: true },
    };
    const written = metaToFrontmatter(meta, 'a/b.md', files);
    expect(written).toEqual({
      emoji: '1f600',
      noRobotsIndex: true,
      cover: '../.gitbook/assets/cover.png',
      layout: { cover: { visible: false }, metadata: { visible: false } },
    });
    const { computed: _computed, ...kept } = meta;
    expect(frontmatterToMeta(written, 'a/b.md', files)).toEqual(kept);
  });
});
